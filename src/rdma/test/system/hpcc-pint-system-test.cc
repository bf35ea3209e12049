/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HPCC-PINT (HpccPint: HPCC on PINT's one value, Ben Basat et al. SIGCOMM 2020) against
 * HPCC with full INT (Hpcc) on the shared long-flow incast (long-flow-incast.h): two
 * senders, one long flow each, into one 100G port with PFC, the same attributes for both
 * (eta 0.95, MaxStage 5, W_AI 50 Mb/s x T).
 *
 * The defining behaviour (PINT paper, section 6, HPCC use case: PINT's HPCC performs as
 * HPCC with a byte of telemetry instead of a record per hop): on the one bottleneck both
 * controllers see the same utilisation (HPCC's estimate, computed at the sender from two
 * INT records or at the switch over the port's history) and apply the same rule, so each
 * flow's goodput after convergence is within 10% of the same flow's under HPCC.
 * Physical truths: every byte posted is sent and delivered, nothing is dropped under
 * PFC, and the bottleneck queue stays within HPCC's bound (hpcc-system-test.cc).
 */
#include "long-flow-incast.h"

#include "ns3/pint-code.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace rdmatest;

namespace
{

/// The two-flow incast with controller \p cc.
LongFlowIncastOptions
TwoFlows(const std::string& cc)
{
    LongFlowIncastOptions o;
    o.cc = cc;
    o.senders = 2;
    o.pfc = true;
    o.flowBytes = 30 * 1000 * 1000; // longer than the measurement window
    o.measureFrom = MilliSeconds(1);
    o.measureTo = MilliSeconds(3);
    // Additive stages make HPCC converge to the fair share (hpcc-system-test.cc).
    o.ccAttributes["MaxStage"] = "5";
    return o;
}

/// HPCC's queue bound after convergence (hpcc-system-test.cc): N x W_AI per RTT of
/// fluid queue, plus two frames per flow of packet granularity.
double
QueueBound(const LongFlowIncastOptions& o, const LongFlowIncastResult& r, double frameBytes)
{
    const double n = o.senders;
    const double wAi = 50e6 * (o.rateGbps / 100) * r.baseRtt.GetSeconds() / 8;
    return n * wAi + n * 2 * frameBytes;
}

void
ExpectPhysicalTruths(const LongFlowIncastResult& r, const std::string& name)
{
    EXPECT_TRUE(r.allCompleted) << name;
    EXPECT_EQ(r.bytesSent, r.bytesPosted) << name;
    EXPECT_EQ(r.bytesDelivered, r.bytesSent) << name;
    EXPECT_EQ(r.drops, 0u) << name;
}

} // namespace

TEST(HpccPintSystem, TwoFlowsMatchHpcc)
{
    const LongFlowIncastOptions oh = TwoFlows("ns3::Hpcc");
    const LongFlowIncastOptions op = TwoFlows("ns3::HpccPint");
    const LongFlowIncastResult h = RunLongFlowIncast(oh);
    const LongFlowIncastResult p = RunLongFlowIncast(op);
    std::cout << "[ figures  ] hpcc: " << h.goodputGbps[0] << " + " << h.goodputGbps[1] << " = "
              << h.totalGoodputGbps << " Gb/s, mean queue " << h.meanQueueAfter << " B, max queue "
              << h.maxQueueAfter << " B, pauses " << h.pauses << "\n"
              << "[ figures  ] hpcc-pint: " << p.goodputGbps[0] << " + " << p.goodputGbps[1]
              << " = " << p.totalGoodputGbps << " Gb/s, mean queue " << p.meanQueueAfter
              << " B, max queue " << p.maxQueueAfter << " B, pauses " << p.pauses << "\n";
    ExpectPhysicalTruths(h, "hpcc");
    ExpectPhysicalTruths(p, "hpcc-pint");
    ASSERT_EQ(h.goodputGbps.size(), 2u);
    ASSERT_EQ(p.goodputGbps.size(), 2u);
    // The defining behaviour: each flow within 10% of its HPCC twin, and so the sum.
    for (size_t i = 0; i < 2; ++i)
    {
        EXPECT_GT(h.goodputGbps[i], 0) << "flow " << i;
        EXPECT_NEAR(p.goodputGbps[i], h.goodputGbps[i], 0.1 * h.goodputGbps[i]) << "flow " << i;
    }
    EXPECT_NEAR(p.totalGoodputGbps, h.totalGoodputGbps, 0.1 * h.totalGoodputGbps);
    // Neither exceeds what the link can carry: 100G x 1024 / (1024 + 82 + PINT's byte).
    const double pintFrame = 1024 + 82 + PintCode::Bytes(8);
    EXPECT_LE(p.totalGoodputGbps, op.rateGbps * 1024 / pintFrame * 1.0001);
    // The queue: within HPCC's bound, with PINT's frame size (one byte of telemetry).
    EXPECT_LE(double(p.maxQueueAfter), QueueBound(op, p, pintFrame));
    EXPECT_LE(p.meanQueueAfter, op.senders * pintFrame / 2);
}
