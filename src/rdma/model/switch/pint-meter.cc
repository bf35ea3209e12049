/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/pint-meter.h"

#include "ns3/abort.h"
#include "ns3/pint-code.h"

#include <algorithm>

namespace ns3
{

void
PintMeter::SetBits(uint32_t bits)
{
    NS_ABORT_MSG_UNLESS(PintCode::IsValidBits(bits), "PintMeter: " << bits << " bits");
    m_bits = bits;
}

uint32_t
PintMeter::GetBits() const
{
    return m_bits;
}

void
PintMeter::SetBaseRtt(Time t)
{
    NS_ABORT_MSG_UNLESS(t.IsStrictlyPositive(), "PintMeter: T must be positive");
    m_tNs = double(t.GetNanoSeconds());
}

int64_t
PintMeter::AssignStream(int64_t stream)
{
    if (!m_rng)
    {
        m_rng = CreateObject<UniformRandomVariable>();
    }
    m_rng->SetStream(stream);
    return 1;
}

uint16_t
PintMeter::Stamp(uint32_t port,
                 uint16_t code,
                 int64_t nowNs,
                 uint64_t qlenBytes,
                 uint64_t txBytes,
                 uint64_t bitRate)
{
    NS_ABORT_MSG_IF(m_tNs <= 0, "PintMeter: no base RTT (SetBaseRtt)");
    if (port >= m_ports.size())
    {
        m_ports.resize(port + 1);
    }
    Port& p = m_ports[port];
    const double bytesPerNs = double(bitRate) / 8e9;
    const double queueTerm = double(qlenBytes) / (bytesPerNs * m_tNs);
    if (p.lastNs < 0)
    {
        p.u = queueTerm;
    }
    else if (nowNs > p.lastNs)
    {
        const double dt = double(nowNs - p.lastNs);
        const double txRate = double(txBytes - p.lastTx) / dt; // bytes/ns
        const double w = std::min(dt, m_tNs) / m_tNs;
        p.u = (1 - w) * p.u + w * (queueTerm + txRate / bytesPerNs);
    }
    // (Same nanosecond as the previous update: no time has passed, u stands.)
    if (p.lastNs < 0 || nowNs > p.lastNs)
    {
        p.lastNs = nowNs;
        p.lastTx = txBytes;
    }
    if (!m_rng)
    {
        m_rng = CreateObject<UniformRandomVariable>();
    }
    return std::max(code, PintCode::Encode(p.u, m_bits, m_rng->GetValue()));
}

double
PintMeter::GetUtilization(uint32_t port) const
{
    return port < m_ports.size() ? m_ports[port].u : 0.0;
}

} // namespace ns3
