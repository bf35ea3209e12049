/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TIMELY on the shared long-flow incast (long-flow-incast.h): 8 senders x 10 MB, one long
 * flow each, into one 100G switch port, PFC on; fairness of the long flows' goodput over
 * [2 ms, 5 ms].
 *
 * Rules asserted for every run:
 *  - every flow completes and every byte is delivered exactly once
 *    (bytesSent == bytesDelivered == bytesPosted);
 *  - PFC keeps the fabric lossless: no drop;
 *  - Jain's fairness index over the window >= 0.9.
 *
 * Fairness of the original rule. Zhu et al. (CoNEXT 2016, "ECN or Delay: Lessons Learnt
 * from Analysis of DCQCN and TIMELY") show that TIMELY's gradient rule has no unique fixed
 * point: any split of the link whose RTT is steady (gradient 0) is one, so flows that start
 * differently may keep an arbitrary, unfair split; their patch (Variant=Patched) has a
 * unique, fair one (unit test PatchedFixedPointIsRateIndependent). Here the eight flows
 * start together at line rate on symmetric paths: they see the same RTTs and make the same
 * decisions, so the original stays fair too and the >= 0.9 bound is asserted for both
 * variants (Jain observed when this test was written: original 0.998, patched 0.973).
 *
 * Utilisation. With one update per 16 KB segment (OncePerRtt=false, the SIGCOMM 2015
 * text), a segment lasts 1.4 us at 100G while the incast's first queue makes the RTT reach
 * ~500 us, so a whole RTT of stale, rising samples cuts every flow down to the minimum
 * rate; it then climbs back by delta per segment, i.e. slowly at low rates (the long
 * flows' total goodput over the window was ~18 Gb/s). That is why the default is
 * OncePerRtt=true (the HPCC simulator's update rule): one cut per RTT, the flows cut
 * slower than PFC fills the buffer, the bottleneck never idles, and the default runs
 * assert it.
 */
#include "long-flow-incast.h"

#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <string>

using namespace rdmatest;

namespace
{

LongFlowIncastResult
RunTimely(const std::map<std::string, std::string>& attributes)
{
    LongFlowIncastOptions o;
    o.cc = "ns3::Timely";
    o.ccAttributes = attributes;
    o.pfc = true;
    const LongFlowIncastResult r = RunLongFlowIncast(o);
    std::cout << "timely";
    for (const auto& [k, v] : attributes)
    {
        std::cout << " " << k << "=" << v;
    }
    std::cout << ": jain " << r.jain << " goodput " << r.totalGoodputGbps << " Gb/s, max queue "
              << r.maxQueueAfter << " B, mean queue " << r.meanQueueAfter << " B, pauses "
              << r.pauses << ", finish " << r.finish.GetMicroSeconds() << " us" << std::endl;
    ::testing::Test::RecordProperty("jain", std::to_string(r.jain));
    ::testing::Test::RecordProperty("goodput_gbps", std::to_string(r.totalGoodputGbps));
    return r;
}

void
ExpectCompleteLosslessFair(const LongFlowIncastResult& r)
{
    EXPECT_TRUE(r.allCompleted);
    EXPECT_EQ(r.bytesSent, r.bytesPosted);
    EXPECT_EQ(r.bytesDelivered, r.bytesPosted);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(r.goodputGbps.size(), 8u);
    EXPECT_GE(r.jain, 0.9);
}

} // namespace

/// The long flows' goodput over the window is at least 90% of what a 100G link carries in
/// payload (100 Gb/s x 1024 / 1106, 1024 B payload per 1106 B on the wire).
constexpr double kBusyGbps = 0.9 * 100 * 1024 / 1106;

// Default TIMELY (original rule, one update per RTT): fair, and the link stays busy.
TEST(TimelySystem, DefaultIncastCompletesFairlyAndKeepsTheBottleneckBusy)
{
    const LongFlowIncastResult r = RunTimely({});
    ExpectCompleteLosslessFair(r);
    EXPECT_GT(r.totalGoodputGbps, kBusyGbps);
}

// CoNEXT 2016 patched TIMELY, default update rule.
TEST(TimelySystem, PatchedIncastCompletesFairly)
{
    ExpectCompleteLosslessFair(RunTimely({{"Variant", "Patched"}}));
}

// One update per 16 KB segment, HAI counting gradients (the 2015 text): complete and
// fair, but the link is starved (see the comment at the top); only the common rules are
// asserted.
TEST(TimelySystem, PerSegmentUpdatesCompleteFairly)
{
    ExpectCompleteLosslessFair(
        RunTimely({{"OncePerRtt", "false"}, {"Segment", "16384"}, {"HaiCount", "Gradients"}}));
}

// Default TIMELY over a whole run, from start-up on (all at line rate into one port, PFC
// on): 7 senders x 20 MB carry at least 85 Gb/s of payload from the first packet to the
// last byte delivered (the link carries 92.6 Gb/s of 1024 B payload, 1024 / 1106 of
// 100 Gb/s). With a 16 KB segment per sample (the paper's completion event) a QP cut low
// by the start-up queue climbs back one segment per step, and with the paper's HAI count
// (non-positive gradients only) this run carried about 83 Gb/s: the default samples any
// ACK and counts every increase, as the HPCC simulator and ns3-datacenter do.
TEST(TimelySystem, DefaultSevenLongFlowsCarryTheLinkOverTheWholeRun)
{
    LongFlowIncastOptions o;
    o.cc = "ns3::Timely";
    o.senders = 7;
    o.flowBytes = 20 * 1000 * 1000;
    o.pfc = true;
    const LongFlowIncastResult r = RunLongFlowIncast(o);
    ASSERT_TRUE(r.allCompleted);
    EXPECT_EQ(r.bytesDelivered, r.bytesPosted);
    EXPECT_EQ(r.drops, 0u);
    const double wholeRunGbps = double(r.bytesDelivered) * 8 / double(r.finish.GetNanoSeconds());
    std::cout << "timely 7 x 20 MB: " << wholeRunGbps << " Gb/s over " << r.finish.GetMicroSeconds()
              << " us, pauses " << r.pauses << std::endl;
    EXPECT_GE(wholeRunGbps, 85.0);
}
