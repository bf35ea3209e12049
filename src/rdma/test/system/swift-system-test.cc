/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Swift on the shared long-flow incast (long-flow-incast.h): 8 senders x 10 MB into one
 * 100G port, 1 us links (2 hops, base RTT about 4.19 us), PFC on, ECN off (Swift reads
 * delay only). Run with flow scaling off and on.
 *
 * Queue level, derived from Swift's own target. Each flow cuts its window while its RTT
 * is at or above its fabric target T and grows it below; the RTT of a packet is the path's
 * base RTT plus its wait in the bottleneck queue, q / C. So in steady state the queue
 * oscillates around C x (T - baseRtt), and no flow can hold it above that level for long.
 * T = base target (baseRtt + 5 us, BaseTargetExtra) + hops x h (2 x 1 us) + fs(cwnd).
 *  - Upper bound (any flow, any window): T_max = baseRtt + 7 us + (fs_range = 100 us if
 *    flow scaling is on, else 0): queue <= C x (T_max - baseRtt) + slack.
 *  - Fixed point: the N windows add up to what is in flight, the pipe (C x baseRtt) plus
 *    the queue, so with fair windows each is w(q) = (C x baseRtt + q) / (N x wire packet)
 *    and the queue level q* solves q = C x (7 us + fs(w(q))). The right side decreases in q
 *    (the term decreases with the window), so q* is unique; found by bisection. Flow
 *    scaling off: q* = C x 7 us = 87.5 KB. On: fs(w) = 3.9 us near w = 21 packets, so q*
 *    is about 136 KB (and at most C x (7 us + fs(BDP/N)), the pipe-only windows).
 *    The mean queue over the window is within q* +- 2 slack.
 * Slack: the delay signal lags by about one RTT and between two cuts (at most one per
 * RTT) every flow adds ai = 1 packet per RTT, so the N flows overshoot the target level
 * by about N packets per RTT of lag: slack = N x wire packet, x 2 for the mean over the
 * window, x 4 for the maximum (one RTT of growth plus one RTT of reaction lag, doubled for
 * the flows' cuts not being aligned).
 */
#include "long-flow-incast.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

using namespace rdmatest;

namespace
{

constexpr double kRateBps = 100e9;
constexpr double kBytesPerSecond = kRateBps / 8;
constexpr double kWireBytes = 1024 + 82;
constexpr uint32_t kSenders = 8;
constexpr double kBaseTargetExtraS = 5e-6; // Swift BaseTargetExtra default
constexpr double kHopsTargetS = 2 * 1e-6;  // 2 hops x PerHopTarget 1 us
constexpr double kFsRangeS = 100e-6;
constexpr double kFsMinCwnd = 0.1;
constexpr double kFsMaxCwnd = 100;

/// The flow-scaling term of the specification, for a window of w packets.
double
FlowScaling(double w)
{
    const double alpha = kFsRangeS / (1 / std::sqrt(kFsMinCwnd) - 1 / std::sqrt(kFsMaxCwnd));
    const double beta = -alpha / std::sqrt(kFsMaxCwnd);
    return std::max(0.0, std::min(alpha / std::sqrt(w) + beta, kFsRangeS));
}

LongFlowIncastResult
RunSwift(bool flowScaling)
{
    LongFlowIncastOptions o;
    o.cc = "ns3::Swift";
    o.ccAttributes["FlowScaling"] = flowScaling ? "true" : "false";
    // The values the bounds below are derived from (also the defaults).
    o.ccAttributes["BaseTargetExtra"] = "5us";
    o.ccAttributes["PerHopTarget"] = "1us";
    o.ccAttributes["FsRange"] = "100us";
    o.ccAttributes["FsMinCwnd"] = "0.1";
    o.ccAttributes["FsMaxCwnd"] = "100";
    o.senders = kSenders;
    o.pfc = true;
    o.ecn = false;
    return RunLongFlowIncast(o);
}

void
ExpectCompleteAndFair(const LongFlowIncastResult& r)
{
    std::printf("swift: jain %.4f goodput %.2f Gb/s queue mean %.0f B max %llu B finish "
                "%.3f ms pauses %llu\n",
                r.jain,
                r.totalGoodputGbps,
                r.meanQueueAfter,
                static_cast<unsigned long long>(r.maxQueueAfter),
                r.finish.GetSeconds() * 1e3,
                static_cast<unsigned long long>(r.pauses));
    EXPECT_TRUE(r.allCompleted);
    EXPECT_EQ(r.bytesSent, r.bytesPosted);
    EXPECT_EQ(r.bytesDelivered, r.bytesPosted);
    EXPECT_EQ(r.drops, 0u); // PFC on: lossless
    EXPECT_GE(r.jain, 0.9);
    // A delay target above the base RTT keeps a standing queue: the port stays busy,
    // goodput near 100G x 1024/1106 (payload share of the wire).
    EXPECT_GT(r.totalGoodputGbps, 0.9 * 100 * 1024 / 1106);
}

/// The queue level q* (bytes) at which N fair flows see their own target (see top).
double
FixedPointQueue(bool flowScaling, double baseRttS)
{
    auto excess = [&](double q) {
        const double w = (kBytesPerSecond * baseRttS + q) / (kSenders * kWireBytes);
        const double t = kBaseTargetExtraS + kHopsTargetS + (flowScaling ? FlowScaling(w) : 0);
        return kBytesPerSecond * t - q; // decreasing in q
    };
    double lo = 0;
    double hi = kBytesPerSecond * (kBaseTargetExtraS + kHopsTargetS + kFsRangeS);
    for (int i = 0; i < 100; ++i)
    {
        const double mid = (lo + hi) / 2;
        (excess(mid) > 0 ? lo : hi) = mid;
    }
    return lo;
}

void
ExpectQueueAtTarget(const LongFlowIncastResult& r, bool flowScaling)
{
    const double slack = kSenders * kWireBytes;
    const double fsMax = flowScaling ? kFsRangeS : 0;
    const double bound = kBytesPerSecond * (kBaseTargetExtraS + kHopsTargetS + fsMax);
    EXPECT_LE(double(r.maxQueueAfter), bound + 4 * slack);
    EXPECT_LE(r.meanQueueAfter, bound + 2 * slack);
    const double qStar = FixedPointQueue(flowScaling, r.baseRtt.GetSeconds());
    EXPECT_LE(double(r.maxQueueAfter), qStar + 4 * slack);
    EXPECT_NEAR(r.meanQueueAfter, qStar, 2 * slack);
}

} // namespace

// Flow scaling off: the queue holds near C x 7 us = 87.5 KB.
TEST(SwiftLongFlowIncast, FairLosslessQueueAtTargetWithoutFlowScaling)
{
    const LongFlowIncastResult r = RunSwift(false);
    ExpectCompleteAndFair(r);
    ExpectQueueAtTarget(r, false);
}

// Flow scaling on: every flow's target rises by fs(cwnd), about 3.9 us at the fair share.
TEST(SwiftLongFlowIncast, FairLosslessQueueAtTargetWithFlowScaling)
{
    const LongFlowIncastResult r = RunSwift(true);
    ExpectCompleteAndFair(r);
    ExpectQueueAtTarget(r, true);
}
