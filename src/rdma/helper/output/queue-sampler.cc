/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/queue-sampler.h"

#include "ns3/output-file.h"
#include "ns3/scenario-access.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// queue.csv: a row per non-empty queue and sample (at most one class per port is
/// assumed busy in the size estimate).
OutputFile
QueueCsv()
{
    return {"queue.csv",
            {"time_ns", "node", "port", "prio", "bytes"},
            {"time_ns", "node", "port", "prio"}, // by time, then as a serial run walks them
            "time_ns",
            OutputFile::Merge::ROWS,
            40, // bytes a row: "time_ns,node,port,prio,bytes", rounded up
            [](const nlohmann::json& s, const SizeGuard::Estimate& e) {
                const double samples = scenario::Num(s, "stop_time_ms") * 1000 /
                                       scenario::Num(s, "output.queue_sample_us");
                return OutputFile::Rows{samples *
                                            std::min(e.Ports() - e.hosts, 2 * e.qps + e.hosts),
                                        "output.queue_sample_us"};
            },
            nullptr,
            10};
}

const OutputFileRegistration g_queueCsv(QueueCsv());
} // namespace

QueueSampler::QueueSampler(const RdmaTopology& topo, std::ostream& out, Time interval)
    : PeriodicSampler(out, interval),
      m_topo(topo)
{
}

void
QueueSampler::WriteHeader(std::ostream& out)
{
    out << QueueCsv().Header() << '\n';
    std::size_t ports = 0;
    m_switches.clear();
    for (uint32_t s : m_topo.GetLocalSwitches())
    {
        Ptr<RdmaSwitch> sw = m_topo.GetSwitch(s);
        m_switches.push_back(SwitchQueues{s, sw->GetMmu(), sw->GetNPorts()});
        ports += sw->GetNPorts();
    }
    m_last.assign(ports * kRdmaNumPriorities, 0);
    m_lastPort.assign(ports, 0);
}

double
QueueSampler::GetMeanLargestQueue() const
{
    return m_samples ? m_largestSum / m_samples : 0;
}

void
QueueSampler::KeepLargestPerSample()
{
    m_keepLargest = true;
}

const std::vector<uint64_t>&
QueueSampler::GetLargestPerSample() const
{
    return m_largestPerSample;
}

void
QueueSampler::Sample(std::ostream& out, int64_t now)
{
    std::size_t portIndex = 0;
    uint64_t largest = 0;
    for (const SwitchQueues& sq : m_switches)
    {
        for (uint32_t port = 0; port < sq.ports; ++port, ++portIndex)
        {
            // A port empty now and at the previous sample has no row to write, and its
            // classes' last values are all 0 already: most ports, most of the time.
            const uint64_t portBytes = sq.mmu->GetEgressPortBytes(port);
            if (portBytes == 0 && m_lastPort[portIndex] == 0)
            {
                continue;
            }
            m_lastPort[portIndex] = portBytes;
            std::size_t slot = portIndex * kRdmaNumPriorities;
            for (uint32_t c = 0; c < kRdmaNumPriorities; ++c, ++slot)
            {
                const uint64_t bytes = sq.mmu->GetEgressBytes(port, c);
                if (bytes != 0 || m_last[slot] != 0)
                {
                    out << now << ',' << sq.node << ',' << port << ',' << c << ',' << bytes << '\n';
                }
                m_last[slot] = bytes;
                largest = std::max(largest, bytes);
            }
        }
    }
    if (m_keepLargest)
    {
        m_largestPerSample.push_back(largest);
    }
    m_largestSum += double(largest);
    ++m_samples;
}

} // namespace ns3
