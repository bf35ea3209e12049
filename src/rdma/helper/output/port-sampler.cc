/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/port-sampler.h"

#include "ns3/output-file.h"
#include "ns3/scenario-access.h"

namespace ns3
{

namespace
{
/// ports.csv: a row per port and sample, when output.port_sample_us is not 0.
OutputFile
PortsCsv()
{
    return {"ports.csv",
            {"time_ns", "node", "port", "tx_bytes"},
            {"time_ns", "node", "port"},
            "time_ns",
            OutputFile::Merge::ROWS,
            32, // bytes a row: "time_ns,node,port,tx_bytes", rounded up
            [](const nlohmann::json& s, const SizeGuard::Estimate& e) {
                const double period = scenario::Num(s, "output.port_sample_us");
                return OutputFile::Rows{
                    period > 0 ? scenario::Num(s, "stop_time_ms") * 1000 / period * e.Ports() : -1,
                    "output.port_sample_us"};
            },
            nullptr,
            20};
}

const OutputFileRegistration g_portsCsv(PortsCsv());
} // namespace

PortSampler::PortSampler(const RdmaTopology& topo, std::ostream& out, Time interval)
    : PeriodicSampler(out, interval),
      m_topo(topo)
{
}

void
PortSampler::WriteHeader(std::ostream& out)
{
    out << PortsCsv().Header() << '\n';
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
