/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/congestion-control.h"

#include "ns3/rdma-sim.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CongestionControl);

Time
SimulatorCcClock::Now() const
{
    return RdmaSim::Now();
}

const CcClock*
SimulatorCcClock::Get()
{
    static const SimulatorCcClock clock;
    return &clock;
}

TypeId
CongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CongestionControl")
                            .SetParent<Object>()
                            .SetGroupName("Rdma")
                            .AddTraceSource("Rate",
                                            "Sending rate decided by the controller (bit/s).",
                                            MakeTraceSourceAccessor(&CongestionControl::m_rate),
                                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

CongestionControl::CongestionControl()
    : m_rate(0)
{
}

void
CongestionControl::Init(const CcContext& ctx)
{
    m_ctx = ctx;
    if (!m_ctx.clock)
    {
        m_ctx.clock = SimulatorCcClock::Get();
    }
    m_rate = ctx.lineRate;
}

void
CongestionControl::OnAck(const CcAck& /* ack */)
{
}

void
CongestionControl::OnCnp()
{
}

void
CongestionControl::OnNack()
{
}

void
CongestionControl::OnTimeout()
{
}

void
CongestionControl::OnSend(uint32_t /* payloadBytes */)
{
}

void
CongestionControl::OnFirstSend()
{
}

bool
CongestionControl::NeedsInt() const
{
    return false;
}

bool
CongestionControl::WantsProbe()
{
    return false;
}

void
CongestionControl::OnProbeResponse(Time /* rtt */)
{
}

void
CongestionControl::OnProbeTimeout()
{
}

Time
CongestionControl::GetRetransmissionTimeout() const
{
    return Time(0);
}

Time
CongestionControl::GetCnpInterval() const
{
    return NanoSeconds(-1);
}

void
CongestionControl::OnPeersChanged()
{
}

Time
CongestionControl::PacingDelay(uint32_t /* lastWireBytes */)
{
    return Time(0);
}

Time
CongestionControl::PacingRecheck() const
{
    return Time::Max();
}

void
CongestionControl::OnDrained()
{
}

bool
CongestionControl::PacesByCredit() const
{
    return false;
}

uint64_t
CongestionControl::PeekRate() const
{
    return m_rate.Get();
}

uint8_t
CongestionControl::ImplementedHooks() const
{
    return HOOK_ALL;
}

uint64_t
CongestionControl::GetWindow() const
{
    return 0;
}

const CcContext&
CongestionControl::GetContext() const
{
    return m_ctx;
}

Time
CongestionControl::Now() const
{
    return m_ctx.clock->Now();
}

uint64_t
CongestionControl::ClampRate(double rate, uint64_t minRate) const
{
    const double hi = static_cast<double>(m_ctx.lineRate);
    const double lo = static_cast<double>(std::min(minRate, m_ctx.lineRate));
    return static_cast<uint64_t>(std::clamp(rate, lo, hi));
}

} // namespace ns3
