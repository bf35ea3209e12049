/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/queue-sampler.h"

#include <algorithm>

namespace ns3
{

QueueSampler::QueueSampler(const RdmaTopology& topo, std::ostream& out, Time interval)
    : PeriodicSampler(out, interval),
      m_topo(topo)
{
}

void
QueueSampler::WriteHeader(std::ostream& out)
{
    out << "time_ns,node,port,prio,bytes\n";
    std::size_t slots = 0;
    for (uint32_t s : m_topo.GetSwitches())
    {
        slots += m_topo.GetSwitch(s)->GetNPorts() * kRdmaNumPriorities;
    }
    m_last.assign(slots, 0);
}

double
QueueSampler::GetMeanLargestQueue() const
{
    return m_samples ? m_largestSum / m_samples : 0;
}

void
QueueSampler::Sample(std::ostream& out, int64_t now)
{
    std::size_t slot = 0;
    uint64_t largest = 0;
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
                    out << now << ',' << s << ',' << port << ',' << c << ',' << bytes << '\n';
                }
                m_last[slot] = bytes;
                largest = std::max(largest, bytes);
            }
        }
    }
    m_largestSum += double(largest);
    ++m_samples;
}

} // namespace ns3
