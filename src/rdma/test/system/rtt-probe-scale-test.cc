/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of RttProbe at small fan-in (the shared 8 x 1 long-flow incast, at 100G
 * and 1 KB, 4 KB MTU, 400G): no drop, every byte delivered, fair, a short queue, and per
 * QP the link kept busy; and the
 * NVIDIA reference preset on the 7 x 1,000 QP incast, which does drop (so the targets of
 * rtt-probe-targets-test.cc, met by the default preset on the same traffic, can fail).
 */
#include "cli-util.h"
#include "long-flow-incast.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{

/// The shipped scenario's traffic (starts spread over 1 ms), shortened to 8 ms of
/// streaming, under NVIDIA's reference rules.
json
NvidiaSampleIncast7x1000()
{
    return {
        {"topology", {{"type", "star"}, {"hosts", 8}, {"host_rate_gbps", 100}}},
        {"switch", {{"pfc", {{"enabled", false}}}, {"ecn", {{"enabled", false}}}}},
        {"cc", {{"algorithm", "rtt-probe"}, {"rtt-probe", {{"Preset", "NvidiaSample"}}}}},
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

TEST(RttProbeScale, TheNvidiaReferenceDropsAtThisScale)
{
    // Every QP starting at line rate with +5% of line per sample: 7,000 of them overflow
    // the port's egress limit (half of the 32 MiB buffer), so packets are lost.
    TempDir dir;
    const json s = RunScenario(dir, "reference", NvidiaSampleIncast7x1000());
    EXPECT_GT(s["drops"].get<uint64_t>(), 0u);
}

namespace
{

/// 8 senders x 1 long flow, PFC and ECN off, go-back-N; \p shared: ShareWithPeers.
LongFlowIncastOptions
SmallFanIn(bool shared)
{
    LongFlowIncastOptions o;
    o.cc = "ns3::RttProbe";
    o.ccAttributes["ShareWithPeers"] = shared ? "true" : "false";
    o.pfc = false;
    o.ecn = false;
    o.lossRecovery = "ns3::GoBackN";
    return o;
}

/// No drop, every byte delivered, fair, a mean queue after the start-up of at most
/// \p meanQueueBound bytes, and together at least \p minGbps of goodput over the
/// measure window (0: none asked).
void
ExpectShortQueue(const LongFlowIncastOptions& o, double meanQueueBound, double minGbps = 0)
{
    const LongFlowIncastResult r = RunLongFlowIncast(o);
    EXPECT_TRUE(r.allCompleted);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(r.bytesDelivered, r.bytesPosted);
    EXPECT_GE(r.jain, 0.9);
    EXPECT_LE(r.meanQueueAfter, meanQueueBound);
    double sum = 0;
    for (double g : r.goodputGbps)
    {
        sum += g;
    }
    EXPECT_GE(sum, minGbps);
}

} // namespace

TEST(RttProbeScale, SmallFanInPerQpKeepsAShortQueueAndTheLinkBusy)
{
    // At most 150 KB (12 us at 100G: the 13 us target RTT minus the 4.2 us base RTT is
    // 8.8 us, about 110 KB, plus the oscillation), and 90% of the payload the line
    // carries: each QP alone on its NIC is a flow like any other.
    ExpectShortQueue(SmallFanIn(false), 150e3, NinetyPercentOfLine(100, 1024));
}

TEST(RttProbeScale, SmallFanInPerQpKeepsAShortQueueAndTheLinkBusyAtFourKilobyteMtu)
{
    // The same bound plus the one 4 KB packet more per sender that the coarser pacing
    // grain may leave queued (8 x 4 KB = 33 KB).
    LongFlowIncastOptions o = SmallFanIn(false);
    o.nicAttributes["Mtu"] = "4096";
    ExpectShortQueue(o, 150e3 + 8 * 4096, NinetyPercentOfLine(100, 4096));
}

TEST(RttProbeScale, SmallFanInPerQpKeepsAShortQueueAndTheLinkBusyAt400G)
{
    // The same 8.8 us of target queueing delay is 4x the bytes at 400G: 4 x 150 KB.
    LongFlowIncastOptions o = SmallFanIn(false);
    o.rateGbps = 400;
    o.flowBytes = 40 * 1000 * 1000;
    ExpectShortQueue(o, 4 * 150e3, NinetyPercentOfLine(400, 1024));
}

TEST(RttProbeScale, SmallFanInSharedClaimKeepsAShortQueue)
{
    // The shared claim (ShareWithPeers, an option) holds the queue, and is fair, at
    // 100G, 4 KB MTU and 400G. It does not keep the link busy here (docs/design-notes.md,
    // "Per-QP rates": after the start-up's cut its claims regrow slowly), so no goodput
    // is asked of it.
    ExpectShortQueue(SmallFanIn(true), 150e3);
    LongFlowIncastOptions o = SmallFanIn(true);
    o.nicAttributes["Mtu"] = "4096";
    ExpectShortQueue(o, 150e3 + 8 * 4096);
    o = SmallFanIn(true);
    o.rateGbps = 400;
    o.flowBytes = 40 * 1000 * 1000;
    ExpectShortQueue(o, 4 * 150e3);
}
