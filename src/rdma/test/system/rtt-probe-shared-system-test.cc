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
#include "cli-util.h" // a repository test: it runs rdma-run (not in an ns-3 tree)
#include "rtt-probe-incast-util.h"

#include "ns3/rdma-wire.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using nlohmann::json;
using namespace rdmatest;
using namespace rdmatest::incast;

namespace
{

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
