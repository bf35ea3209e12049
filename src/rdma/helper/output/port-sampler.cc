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
    m_ports.clear();
    for (uint32_t h : m_topo.GetLocalHosts())
    {
        m_ports.push_back(Port{h, 0, m_topo.GetNic(h)->GetDevice()});
    }
    for (uint32_t s : m_topo.GetLocalSwitches())
    {
        Ptr<RdmaSwitch> sw = m_topo.GetSwitch(s);
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            m_ports.push_back(Port{s, port, sw->GetPort(port)});
        }
    }
}

void
PortSampler::Sample(std::ostream& out, int64_t now)
{
    for (const Port& p : m_ports)
    {
        const uint64_t tx = p.device->GetTxBytes();
        if (tx > 0)
        {
            out << now << ',' << p.node << ',' << p.port << ',' << tx << '\n';
        }
    }
}

} // namespace ns3
