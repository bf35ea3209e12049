/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of RttProbe's default preset (Scalable) at its design scale: 7 senders x
 * 1,000 QPs streaming into one 100G port with PFC and ECN off (issue 10), and at small
 * fan-in (the shared 8 x 1 long-flow incast). Physical truths only: no drop, every byte
 * delivered, the queue bounded, fairness; and the NVIDIA reference preset, run on the
 * same traffic, does drop (so the scale tests can fail).
 */
#include "cli-util.h"
#include "long-flow-incast.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{

/// The shipped scenario's traffic, shortened: QPs stream until 8 ms and the run ends at
/// 10 ms, so every QP completes and sent = delivered can be checked.
json
Incast7x1000(double jitterUs, const std::string& preset)
{
    return {
        {"topology", {{"type", "star"}, {"hosts", 8}, {"host_rate_gbps", 100}}},
        {"switch", {{"pfc", {{"enabled", false}}}, {"ecn", {{"enabled", false}}}}},
        {"cc", {{"algorithm", "rtt-probe"}, {"rtt-probe", {{"Preset", preset}}}}},
        {"stop_time_ms", 10},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"senders", {1, 2, 3, 4, 5, 6, 7}},
            {"qps_per_sender", 1000},
            {"until_ms", 8},
            {"jitter_us", jitterUs}}}}},
        {"output",
         {{"progress", false},
          {"port_sample_us", 0},
          {"cc_sample_us", 0},
          {"queue_sample_us", 10}}},
    };
}

void
ExpectLosslessAndComplete(const json& s)
{
    EXPECT_EQ(s["drops"], 0u);
    EXPECT_EQ(s["pfc_pause_frames"], 0u); // PFC is off: nothing but the controller held it
    EXPECT_EQ(s["flows_completed"], 7000u);
    EXPECT_EQ(s["bytes_sent"], s["bytes_delivered"]);
    // Without loss nothing is resent: no timeout, no NACK.
    EXPECT_EQ(s["timeouts"], 0u);
    EXPECT_EQ(s["nacks"], 0u);
}

} // namespace

TEST(RttProbeScale, SevenThousandQpsSpreadStartsLoseNothing)
{
    TempDir dir;
    const json s = RunScenario(dir, "spread", Incast7x1000(1000, "Scalable"));
    ExpectLosslessAndComplete(s);
}

TEST(RttProbeScale, SevenThousandQpsStartingAtOnceLoseNothing)
{
    TempDir dir;
    const json s = RunScenario(dir, "at-once", Incast7x1000(0, "Scalable"));
    ExpectLosslessAndComplete(s);
}

TEST(RttProbeScale, TheNvidiaReferenceDropsAtThisScale)
{
    // Every QP starting at line rate with +5% of line per sample: 7,000 of them overflow
    // the port's egress limit (half of the 32 MiB buffer), so packets are lost.
    TempDir dir;
    const json s = RunScenario(dir, "reference", Incast7x1000(1000, "NvidiaSample"));
    EXPECT_GT(s["drops"].get<uint64_t>(), 0u);
}

TEST(RttProbeScale, SmallFanInKeepsAShortQueue)
{
    // 8 senders x 1 long flow, PFC and ECN off: no drop, every byte delivered, fair, and
    // a mean queue after the start-up of at most 150 KB (12 us at 100G: the 13 us target
    // RTT minus the 4.2 us base RTT is 8.8 us, about 110 KB, plus the oscillation).
    LongFlowIncastOptions o;
    o.cc = "ns3::RttProbe";
    o.pfc = false;
    o.ecn = false;
    o.nicAttributes["LossRecovery"] = "GoBackN";
    const LongFlowIncastResult r = RunLongFlowIncast(o);
    EXPECT_TRUE(r.allCompleted);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(r.bytesDelivered, r.bytesPosted);
    EXPECT_GE(r.jain, 0.9);
    EXPECT_LE(r.meanQueueAfter, 150e3);
    EXPECT_GT(r.meanQueueAfter, 0); // the link is kept busy: some queue stands
}
