/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of the RTT-probe rule sets of their own classes, on the shipped 7 x 1,000
 * QP incast into one 100G port (PFC and ECN off, QP starts spread over 1 ms):
 *  - RttProbeShared (cc.algorithm rtt-probe-shared, one claim per NIC and destination,
 *    no attribute set), shortened to 10 ms of streaming: no loss, the bottleneck queue
 *    within 1.5 MB, every byte delivered, after 5 ms at least 95% of the payload the
 *    line can carry and the probe's p99 within 150 us (the figures of the per-destination
 *    option in rtt-probe-targets-test.cc);
 *  - RttProbeNvidia (cc.algorithm rtt-probe-nvidia, NVIDIA's reference rules), over 8 ms
 *    of streaming: every QP starts at line rate and adds 5% of the line per sample, so
 *    7,000 of them overflow the port and packets are lost (rtt-probe-scale-test.cc).
 * Every figure is read from the run's own output files.
 */
#include "cli-util.h"

#include "ns3/rdma-wire.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using nlohmann::json;
using namespace rdmatest;

namespace
{

const std::string kScenarios = std::string(RDMA_SOURCE_DIR) + "/scenarios/";

/// A shipped scenario, shortened to \p ms of streaming, and 2 ms more for the packets
/// in flight to arrive (so that sent = delivered can be checked). Its flow list (the
/// small-flow stream), if any, is cut to the flows that start before the streams end,
/// written into \p dir.
json
Shipped(const TempDir& dir, const std::string& name, double ms = 10)
{
    json s = json::parse(ReadText(kScenarios + name));
    s["stop_time_ms"] = ms + 2;
    s["traffic"]["incast"]["until_ms"] = ms;
    s["output"]["progress"] = false;
    s["output"]["port_sample_us"] = 10;
    if (s["traffic"].contains("flows_csv"))
    {
        std::istringstream all(ReadText(kScenarios + s["traffic"]["flows_csv"].get<std::string>()));
        std::string line;
        std::getline(all, line);
        std::string kept = line + "\n"; // the header
        while (std::getline(all, line))
        {
            // src,dst,bytes,start_ns: the flows that start before the streams end
            if (!line.empty() && std::stod(line.substr(line.rfind(',') + 1)) < ms * 1e6)
            {
                kept += line + "\n";
            }
        }
        WriteText(dir / "flows.csv", kept);
        s["traffic"]["flows_csv"] = dir / "flows.csv";
    }
    return s;
}

double
Num(const std::string& cell)
{
    return std::stod(cell);
}

/// p-quantile (nearest rank) of \p v.
double
Quantile(std::vector<double> v, double p)
{
    if (v.empty())
    {
        return NAN;
    }
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(std::ceil(p * v.size())) - (p > 0 ? 1 : 0))];
}

/// Latencies (us) of the probe messages (fct.csv) posted at or after \p fromNs.
std::vector<double>
ProbeLatenciesUs(const std::string& out, double fromNs)
{
    std::vector<double> v;
    for (const auto& r : ReadCsv(out + "/fct.csv"))
    {
        if (r.at("kind") == "probe" && Num(r.at("start_ns")) >= fromNs)
        {
            v.push_back(Num(r.at("fct_ns")) / 1e3);
        }
    }
    return v;
}

/// Rate (Gb/s) leaving \p node's \p port over [t0, t1) ns (ports.csv, wire bytes).
double
PortGbps(const std::string& out, int node, int port, double t0, double t1)
{
    double first = NAN;
    double last = NAN;
    double firstT = 0;
    double lastT = 0;
    for (const auto& r : ReadCsv(out + "/ports.csv"))
    {
        if (std::stoi(r.at("node")) != node || std::stoi(r.at("port")) != port)
        {
            continue;
        }
        const double t = Num(r.at("time_ns"));
        if (t >= t0 && std::isnan(first))
        {
            first = Num(r.at("tx_bytes"));
            firstT = t;
        }
        if (t <= t1)
        {
            last = Num(r.at("tx_bytes"));
            lastT = t;
        }
    }
    return lastT > firstT ? (last - first) * 8 / (lastT - firstT) : 0;
}

/// Payload (Gb/s) through \p node's \p port over [t0, t1) ns, of data packets of \p mtu
/// payload bytes (ports.csv counts wire bytes).
double
PayloadGbps(const std::string& out, int node, int port, double t0, double t1, uint32_t mtu = 1024)
{
    return PortGbps(out, node, port, t0, t1) * mtu /
           ns3::rdmawire::WireBytes(ns3::RdmaPacketType::DATA, mtu);
}

/// Queue bound: 1.5 MB at 100G (120 us).
constexpr double kQueueBound = 1.5e6;

void
ExpectNoLossAndBoundedQueue(const json& s, double queueBound = kQueueBound)
{
    EXPECT_EQ(s["drops"], 0u);
    EXPECT_EQ(s["pfc_pause_frames"], 0u); // PFC is off
    EXPECT_EQ(s["timeouts"], 0u);
    EXPECT_EQ(s["nacks"], 0u);
    EXPECT_TRUE(s["all_flows_completed"].get<bool>());
    EXPECT_LE(s["max_queue_bytes"].get<double>(), queueBound);
}

/// NVIDIA's reference rules on the shipped scenario's traffic (starts spread over 1 ms),
/// shortened to 8 ms of streaming.
json
NvidiaIncast7x1000()
{
    return {
        {"topology", {{"type", "star"}, {"hosts", 8}, {"host_rate_gbps", 100}}},
        {"switch", {{"pfc", {{"enabled", false}}}, {"ecn", {{"enabled", false}}}}},
        {"cc", {{"algorithm", "rtt-probe-nvidia"}}},
        {"stop_time_ms", 10},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"senders", {1, 2, 3, 4, 5, 6, 7}},
            {"qps_per_sender", 1000},
            {"until_ms", 8},
            {"jitter_us", 1000}}}}},
        {"output",
         {{"progress", false},
          {"port_sample_us", 0},
          {"cc_sample_us", 0},
          {"queue_sample_us", 10}}},
    };
}

} // namespace

TEST(RttProbeSharedSystem, OneClaimPerDestinationHoldsTheQueueAndTheLink)
{
    // With the probe outside the controller, as the per-destination option was measured.
    // (Its small flows start at their siblings' share of the claim and wait hundreds of
    // microseconds: docs/design-notes.md.)
    TempDir dir;
    json sc = Shipped(dir, "rtt-probe-incast-7x1000.json");
    sc["cc"] = {{"algorithm", "rtt-probe-shared"}};
    sc["traffic"]["probe"]["rate_limited"] = false;
    const json s = RunScenario(dir, "claim", sc);
    ExpectNoLossAndBoundedQueue(s);
    EXPECT_EQ(s["bytes_sent"], s["bytes_delivered"]) << "nothing resent, nothing lost";
    // The bottleneck: the switch (node 8) port 0, to the receiver.
    EXPECT_GE(PayloadGbps(dir / "claim", 8, 0, 5e6, 10e6), 0.95 * LinePayloadGbps(100, 1024));
    EXPECT_LE(Quantile(ProbeLatenciesUs(dir / "claim", 5e6), 0.99), 150);
}

TEST(RttProbeNvidiaSystem, TheNvidiaReferenceDropsAtThisScale)
{
    // Every QP starting at line rate with +5% of line per sample: 7,000 of them overflow
    // the port's egress limit (half of the 32 MiB buffer), so packets are lost.
    TempDir dir;
    const json s = RunScenario(dir, "reference", NvidiaIncast7x1000());
    EXPECT_GT(s["drops"].get<uint64_t>(), 0u);
}
