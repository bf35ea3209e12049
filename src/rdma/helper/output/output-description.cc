/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/output-description.h"

#include "ns3/output-file.h"
#include "ns3/rdma-wire.h"
#include "ns3/scenario-access.h"

#include <algorithm>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;
using Cost = SizeGuard::Cost;

std::vector<ScenarioKey>
OutputDescription::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"output.queue_sample_us", T::NUMBER, 10, 0.001, 1e9, {}, "us", "Sampling period of queue.csv."},
        {"output.port_sample_us", T::NUMBER, 10, 0, 1e9, {}, "us", "Sampling period of ports.csv (cumulative bytes sent per port); 0 = off."},
        {"output.cc_sample_us", T::NUMBER, 10, 0, 1e9, {}, "us", "Sampling period of cc.csv (rate, window, acked bytes of sampled QPs); 0 = off."},
        {"output.cc_sample_qps", T::INT, 4, 0, 1e6, {}, "QPs", "Number of flows whose QP state is sampled (see output.cc_sample_flows)."},
        {"output.cc_sample_flows", T::CHOICE, "largest", 0, 0, {"largest", "spread"}, "", "Which flows cc.csv samples: largest (the output.cc_sample_qps largest, ties by flow id) or spread (evenly over the flow ids)."},
        {"output.progress", T::BOOL, true, 0, 0, {}, "", "Print progress (simulated time, percent, events/s) to stderr."},
        {"output.pcap.enabled", T::BOOL, false, 0, 0, {}, "", "Packet captures: every port of output.pcap.nodes in DIR/pcap/rdma-NODE-PORT.pcap (Ethernet link type; frames sent and received, PFC frames included, as RoCEv2 bytes: Ethernet, IPv4 with ECN, UDP 4791, BTH, AETH; see docs/pcap.md). Off: nothing is rendered, the run costs the same."},
        {"output.pcap.nodes", T::INT_ARRAY, json::array(), 0, 1e7, {}, "node", "Nodes whose ports are captured (node ids as in links.csv: hosts first, then switches); empty = every node."},
        {"output.pcap.max_packets", T::INT, 100000, 0, 1e12, {}, "frames", "Most frames written per capture file; then the file is closed and its port renders nothing more. 0 = no limit."},
    };
    // clang-format on
}

namespace
{
/**
 * The capture files: every port, or the listed nodes' (each counted with a switch's mean
 * number of ports, the larger kind). Per file at most output.pcap.max_packets frames,
 * else what the port can send and receive in the stop time; each frame a record header
 * and an MTU frame.
 */
double
PcapBytes(const json& s, const SizeGuard::Estimate& e, double stopUs)
{
    const double ports = e.Ports();
    const double switchPorts = ports - e.hosts;
    const double listed = double(At(s, "output.pcap.nodes").size());
    const double perSwitch = e.switches > 0 ? std::max(1.0, switchPorts / e.switches) : 1.0;
    const double files = listed > 0 ? std::min(ports, listed * perSwitch) : ports;
    const double mtu = double(Int(s, "nic.mtu_bytes"));
    const double frame = Cost::kPcapRecord + mtu + rdmawire::HeaderBytes(RdmaPacketType::DATA) +
                         rdmawire::TrailerBytes(RdmaPacketType::DATA);
    const double gbps =
        std::max(Num(s, "topology.host_rate_gbps"), Num(s, "topology.fabric_rate_gbps"));
    const double cap = double(Int(s, "output.pcap.max_packets"));
    const double fill = 2 * stopUs * 1e-6 * gbps * 1e9 / 8 / (frame - Cost::kPcapRecord);
    return files * (cap > 0 ? std::min(cap, fill) : fill) * frame;
}
} // namespace

void
OutputDescription::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    // Every declared file that estimates its rows (OutputFile), then the captures.
    for (const OutputFile* file : OutputFiles::All())
    {
        if (!file->rows)
        {
            continue;
        }
        const OutputFile::Rows rows = file->rows(s, e);
        if (rows.count >= 0)
        {
            e.outputs.push_back({file->name, rows.count * file->rowBytes, rows.key});
        }
    }
    if (Bool(s, "output.pcap.enabled"))
    {
        const double stopUs = Num(s, "stop_time_ms") * 1000;
        e.outputs.push_back({"pcap/", PcapBytes(s, e, stopUs), "output.pcap.max_packets"});
    }
}

} // namespace ns3
