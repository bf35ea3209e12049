/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TrafficDriver's latency probes, and the end of the foreground they run until, which
 * over MPI ranks no rank sees alone.
 */
#include "ns3/abort.h"
#include "ns3/simulator.h"
#include "ns3/traffic-driver.h"

#include <algorithm>

namespace ns3
{

void
TrafficDriver::AddProbe(uint32_t src,
                        uint32_t dst,
                        uint64_t bytes,
                        Time start,
                        Time interval,
                        uint8_t priority,
                        bool rateLimited)
{
    NS_ABORT_MSG_IF(m_started, "TrafficDriver: AddProbe after Start");
    // Records are numbered in completion order: over ranks, one sequence needs one probe.
    NS_ABORT_MSG_IF(m_split && !m_probes.empty(), "TrafficDriver: one probe over MPI ranks");
    const uint32_t qpn = Connect(src, dst, priority).first;
    Ptr<RdmaNic> nic = m_topo.GetNic(m_topo.GetHosts()[src]);
    if (!rateLimited && nic)
    {
        nic->ExemptFromCongestionControl(qpn);
    }
    m_probes.push_back(Probe{src, dst, bytes, start, interval, priority, qpn, Time(0)});
}

void
TrafficDriver::PostProbe(uint32_t index)
{
    if (m_foregroundDone)
    {
        return;
    }
    Probe& p = m_probes[index];
    Ptr<RdmaNic> nic = m_topo.GetNic(m_topo.GetHosts()[p.src]);
    nic->PostSend(p.qpn, p.bytes, kProbeBit | index);
    ++m_probesPosted;
    p.lastPost = Simulator::Now();
    p.inFlight = true;
}

bool
TrafficDriver::ProbeCompleted(uint32_t index, Record& r)
{
    Probe& p = m_probes[index];
    p.inFlight = false;
    // Closed loop, like ping: the next probe leaves one interval after the previous one
    // was posted, or now if that one took longer, so that probes measure the network and
    // never queue behind each other.
    const Time next = std::max(Time(0), p.lastPost + p.interval - Simulator::Now());
    Simulator::ScheduleWithContext(m_topo.GetHosts()[p.src],
                                   next,
                                   &TrafficDriver::PostProbe,
                                   this,
                                   index);
    r.kind = FlowKind::PROBE;
    r.src = p.src;
    r.dst = p.dst;
    r.priority = p.priority;
    if (!m_split)
    {
        NumberProbe(r);
        return true;
    }
    if (r.start >= m_foregroundEnd)
    {
        ++m_lateProbes;
        m_lateProbeBytes += r.bytes;
        return false;
    }
    // Posted while this rank's own foreground ran, it was posted before the end of all;
    // later, only the ranks' comparison can tell. Kept back records keep their order.
    const bool early = m_total == 0 || !m_localForegroundDone || r.start < m_localForegroundEnd;
    if (early && m_heldProbes.empty())
    {
        NumberProbe(r);
        return true;
    }
    m_heldProbes.push_back(r);
    return false;
}

void
TrafficDriver::NumberProbe(Record& r)
{
    r.flowId = m_total + m_probeSeq++;
    ++m_probesCompleted;
}

void
TrafficDriver::SetForegroundEnd(Time end)
{
    m_foregroundDone = true;
    m_foregroundEnd = end;
    std::vector<Record> held;
    held.swap(m_heldProbes);
    for (Record& r : held)
    {
        if (r.start < end)
        {
            NumberProbe(r);
            Report(r);
        }
        else
        {
            ++m_lateProbes;
            m_lateProbeBytes += r.bytes;
        }
    }
}

TrafficDriver::RankProgress
TrafficDriver::GetRankProgress() const
{
    RankProgress progress{m_total > 0 && m_localForegroundDone, m_localForegroundEnd, Time::Max()};
    for (const Probe& p : m_probes)
    {
        if (p.inFlight)
        {
            progress.oldestProbeInFlight = std::min(progress.oldestProbeInFlight, p.lastPost);
        }
    }
    return progress;
}

Time
TrafficDriver::GetLastRecordEnd() const
{
    return m_lastRecordEnd;
}

uint64_t
TrafficDriver::GetLateProbes() const
{
    return m_lateProbes;
}

uint64_t
TrafficDriver::GetLateProbeBytes() const
{
    return m_lateProbeBytes;
}

} // namespace ns3
