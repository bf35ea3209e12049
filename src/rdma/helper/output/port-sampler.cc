/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/port-sampler.h"

namespace ns3
{

PortSampler::PortSampler(const RdmaTopology& topo, std::ostream& out, Time interval)
    : PeriodicSampler(out, interval),
      m_topo(topo)
{
}

void
PortSampler::WriteHeader(std::ostream& out)
{
    out << "time_ns,node,port,tx_bytes\n";
}

void
PortSampler::Sample(std::ostream& out, int64_t now)
{
    for (uint32_t h : m_topo.GetHosts())
    {
        const uint64_t tx = m_topo.GetNic(h)->GetDevice()->GetTxBytes();
        if (tx > 0)
        {
            out << now << ',' << h << ",0," << tx << '\n';
        }
    }
    for (uint32_t s : m_topo.GetSwitches())
    {
        Ptr<RdmaSwitch> sw = m_topo.GetSwitch(s);
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            const uint64_t tx = sw->GetPort(port)->GetTxBytes();
            if (tx > 0)
            {
                out << now << ',' << s << ',' << port << ',' << tx << '\n';
            }
        }
    }
}

} // namespace ns3
