/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * System tests of RttProbe at small fan-in (the shared 8 x 1 long-flow incast, at 100G
 * and 1 KB, 4 KB MTU, 400G): no drop, every byte delivered, fair, a short queue, and per
 * QP the link kept busy; and of the per-destination claim (RttProbeShared) on the same
 * traffic.
 */
#include "cli-util.h"
#include "long-flow-incast.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{

/// 8 senders x 1 long flow, PFC and ECN off, go-back-N; \p shared: the per-destination
/// claim (RttProbeShared) instead of a rate per QP.
LongFlowIncastOptions
SmallFanIn(bool shared)
{
    LongFlowIncastOptions o;
    o.cc = shared ? "ns3::RttProbeShared" : "ns3::RttProbe";
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
    // At most 150 KB (12 us at 100G: the target of 8 equal QPs is q0 + 3 s = 5 us of
    // queueing, 62 KB, plus the oscillation), and 90% of the payload the line carries.
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
    // The same target queueing delay is 4x the bytes at 400G: 4 x 150 KB.
    LongFlowIncastOptions o = SmallFanIn(false);
    o.rateGbps = 400;
    o.flowBytes = 40 * 1000 * 1000;
    ExpectShortQueue(o, 4 * 150e3, NinetyPercentOfLine(400, 1024));
}

TEST(RttProbeScale, SmallFanInSharedClaimKeepsAShortQueue)
{
    // The shared claim (RttProbeShared, an option) holds the queue, and is fair, at
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
