/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/queue-sampler.h"

#include "ns3/simulator.h"

namespace ns3
{

QueueSampler::QueueSampler(const RdmaTopology& topo, std::ostream& out, Time interval)
    : m_topo(topo),
      m_out(out),
      m_interval(interval),
      m_maxSampled(0)
{
}

void
QueueSampler::Start()
{
    m_out << "time_ns,node,port,prio,bytes\n";
    std::size_t slots = 0;
    for (uint32_t s : m_topo.GetSwitches())
    {
        slots += m_topo.GetSwitch(s)->GetNPorts() * kRdmaNumPriorities;
    }
    m_last.assign(slots, 0);
    m_event = Simulator::ScheduleNow(&QueueSampler::Sample, this);
}

void
QueueSampler::Stop()
{
    m_event.Cancel();
}

uint64_t
QueueSampler::GetMaxSampled() const
{
    return m_maxSampled;
}

void
QueueSampler::Sample()
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    std::size_t slot = 0;
    for (uint32_t s : m_topo.GetSwitches())
    {
        Ptr<RdmaSwitch> sw = m_topo.GetSwitch(s);
        Ptr<SwitchMmu> mmu = sw->GetMmu();
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            for (uint32_t c = 0; c < kRdmaNumPriorities; ++c, ++slot)
            {
                const uint64_t bytes = mmu->GetEgressBytes(port, c);
                if (bytes != 0 || m_last[slot] != 0)
                {
                    m_out << now << ',' << s << ',' << port << ',' << c << ',' << bytes << '\n';
                }
                m_last[slot] = bytes;
                m_maxSampled = std::max(m_maxSampled, bytes);
            }
        }
    }
    m_event = Simulator::Schedule(m_interval, &QueueSampler::Sample, this);
}

} // namespace ns3
