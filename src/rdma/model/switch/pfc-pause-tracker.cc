/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/pfc-pause-tracker.h"

#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/rdma-sim.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcPauseTracker");

PfcPauseTracker::PfcPauseTracker(const std::vector<Ptr<RdmaNetDevice>>& ports)
    : m_ports(ports),
      m_pauses(ports.size())
{
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        m_pauses[p].began.fill(0);
        m_pauses[p].last.fill(-1);
        m_ports[p]->TraceConnectWithoutContext(
            "PfcRx",
            Callback<void, uint8_t, uint16_t>(
                [this, p](uint8_t priority, uint16_t quanta) { OnPfcRx(p, priority, quanta); }));
    }
}

void
PfcPauseTracker::OnPfcRx(uint32_t port, uint8_t priority, uint16_t quanta)
{
    if (quanta == 0)
    {
        return;
    }
    const int64_t now = RdmaSim::Now().GetNanoSeconds();
    PortPauses& pp = m_pauses[port];
    if (!m_ports[port]->IsPaused(priority))
    {
        pp.began[priority] = now;
        NS_LOG_LOGIC("port " << port << " class " << +priority << " paused");
    }
    pp.last[priority] = now;
}

Time
PfcPauseTracker::PausedFor(uint32_t port, uint8_t priority) const
{
    if (!m_ports[port]->IsPaused(priority))
    {
        return Time(0);
    }
    return NanoSeconds(RdmaSim::Now().GetNanoSeconds() - m_pauses[port].began[priority]);
}

Time
PfcPauseTracker::SinceLastPause(uint32_t port, uint8_t priority) const
{
    const int64_t last = m_pauses[port].last[priority];
    return last < 0 ? Time::Max() : NanoSeconds(RdmaSim::Now().GetNanoSeconds() - last);
}

} // namespace ns3
