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
    DoInit(ctx);
}

void
CongestionControl::DoInit(const CcContext& /* ctx */)
{
}

void
CongestionControl::DoOnAck(const CcAck& /* ack */)
{
}

void
CongestionControl::DoOnCnp()
{
}

void
CongestionControl::DoOnNack()
{
}

void
CongestionControl::DoOnTimeout()
{
}

void
CongestionControl::DoOnSendEvent(CcSendEvent /* event */, uint32_t /* payloadBytes */)
{
}

Time
CongestionControl::GetCnpInterval() const
{
    // A class property that varies with the parameters, read through the attribute
    // system (a read-only attribute is no scenario key), so that the core needs no method
    // for the one protocol that has CNPs.
    TimeValue v;
    return GetAttributeFailSafe("CnpInterval", v) ? v.Get() : NanoSeconds(-1);
}

uint64_t
CongestionControl::DoPeekRate() const
{
    return m_rate.Get();
}

uint16_t
CongestionControl::DoImplementedHooks() const
{
    return HOOK_ALL & ~HOOK_INT;
}

uint64_t
CongestionControl::DoGetWindow() const
{
    return 0;
}

CcSendTiming*
CongestionControl::DoGetExtension()
{
    return nullptr;
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

void
CongestionControl::SetRateOfWindow(double window, double wireRatio, double rttSec, uint64_t minRate)
{
    const uint64_t r = ClampRate(window * wireRatio * 8 / rttSec, minRate);
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

} // namespace ns3
