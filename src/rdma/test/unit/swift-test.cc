/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of Swift (Kumar et al., SIGCOMM 2020), driven by a fake clock (no
 * simulation).
 *
 * Specification (docs/design.md, "Swift"), per window (fabric and endpoint), windows in
 * packets:
 *  - on ACK: delay < target: cwnd += ai * acked / cwnd (cwnd >= 1), ai * acked (cwnd < 1);
 *    else, if at least one RTT since the last decrease:
 *    cwnd *= max(1 - beta (delay - target) / delay, 1 - max_mdf);
 *  - on timeout: retx_cnt++; retx_cnt >= 5: cwnd = min_cwnd; else (once per RTT)
 *    cwnd *= 1 - max_mdf; an ACK acknowledging new data resets retx_cnt;
 *  - fast recovery (NACK): cwnd *= 1 - max_mdf, once per RTT;
 *  - fabric target = base_target + hops * h + max(0, min(alpha / sqrt(fcwnd) + beta_fs,
 *    fs_range)), alpha = fs_range / (1/sqrt(fs_min_cwnd) - 1/sqrt(fs_max_cwnd)),
 *    beta_fs = -alpha / sqrt(fs_max_cwnd);
 *  - fabric delay = RTT - endpoint delay (CcAck::remoteDelay); endpoint window driven by
 *    the endpoint delay; cwnd = min(fcwnd, ecwnd); cwnd within [min_cwnd, max_cwnd];
 *  - below one packet, one packet every rtt / cwnd.
 * Defaults: ai 1, beta 0.8, max_mdf 0.5, h 1 us, fs_range 100 us, fs_min_cwnd 0.1,
 * fs_max_cwnd 100, min_cwnd 0.001, RetxResetThreshold 5; module choices (swift.h):
 * base target = path base RTT + 5 us, initial window line x base RTT / MTU payload bits,
 * max window line x max(fabric base RTT, base RTT) / MTU payload bits.
 *
 * Context of every test unless stated: 100 Gb/s, MTU 1024 B payload (1106 wire bytes,
 * 82 B of headers), path base RTT 10 us, fabric base RTT 20 us, 2 hops. With flow
 * scaling off the fabric target is 10 + 5 + 2 x 1 = 17 us.
 *
 * Tolerance: windows are doubles updated by one or two operations; 1e-9 packets absorbs
 * the rounding of a few ulp at values below 1000.
 */

#include "fake-cc-clock.h"

#include "ns3/congestion-control.h"
#include "ns3/core-module.h"
#include "ns3/swift.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr uint32_t kMtu = 1024;
constexpr double kWireBytes = 1024 + 82; // data packet on the wire
constexpr double kTol = 1e-9;            // packets
constexpr double kTargetUs = 17;         // 10 us base RTT + 5 us + 2 hops x 1 us

using rdmatest::FakeClock;

class SwiftTest : public ::testing::Test
{
  protected:
    /// A controller with flow scaling off (unless \p flowScaling) and the given initial
    /// window (0 = derived), max window 1000 packets unless \p maxCwnd given.
    void Make(double initialCwnd,
              bool flowScaling = false,
              uint32_t hops = 2,
              double maxCwnd = 1000)
    {
        sw = CreateObject<Swift>();
        sw->SetAttribute("FlowScaling", BooleanValue(flowScaling));
        sw->SetAttribute("InitialCwnd", DoubleValue(initialCwnd));
        sw->SetAttribute("MaxCwnd", DoubleValue(maxCwnd));
        clock.now = Time(0);
        CcContext ctx;
        ctx.lineRate = kLine;
        ctx.baseRtt = MicroSeconds(10);
        ctx.fabricBaseRtt = MicroSeconds(20);
        ctx.mtu = kMtu;
        ctx.hops = hops;
        ctx.clock = &clock;
        sw->Init(ctx);
    }

    /// An ACK at \p t of \p packets packets with RTT \p rttUs (no endpoint delay).
    void AckAt(Time t, double rttUs, uint32_t packets = 1, double remoteUs = 0)
    {
        clock.now = t;
        CcAck a;
        a.ackedBytes = uint64_t(packets) * kMtu;
        a.rtt = NanoSeconds(int64_t(rttUs * 1000));
        a.remoteDelay = NanoSeconds(int64_t(remoteUs * 1000));
        sw->OnAck(a);
    }

    void TimeoutAt(Time t)
    {
        clock.now = t;
        sw->OnTimeout();
    }

    void NackAt(Time t)
    {
        clock.now = t;
        sw->OnNack();
    }

    FakeClock clock;
    Ptr<Swift> sw;
};

} // namespace

// Rule: the attribute defaults are the paper's values (docs/design.md, "Swift"), flow scaling on.
TEST(SwiftDefaults, MatchSpecification)
{
    Ptr<Swift> s = CreateObject<Swift>();
    auto dbl = [&s](const char* n) {
        DoubleValue v;
        s->GetAttribute(n, v);
        return v.Get();
    };
    auto tim = [&s](const char* n) {
        TimeValue v;
        s->GetAttribute(n, v);
        return v.Get();
    };
    EXPECT_EQ(dbl("Ai"), 1.0);
    EXPECT_EQ(dbl("Beta"), 0.8);
    EXPECT_EQ(dbl("MaxMdf"), 0.5);
    EXPECT_EQ(tim("PerHopTarget"), MicroSeconds(1));
    EXPECT_EQ(tim("FsRange"), MicroSeconds(100));
    EXPECT_EQ(dbl("FsMinCwnd"), 0.1);
    EXPECT_EQ(dbl("FsMaxCwnd"), 100.0);
    EXPECT_EQ(dbl("MinCwnd"), 0.001);
    EXPECT_EQ(tim("BaseTargetExtra"), MicroSeconds(5));
    UintegerValue retx;
    s->GetAttribute("RetxResetThreshold", retx);
    EXPECT_EQ(retx.Get(), 5u);
    BooleanValue fs;
    s->GetAttribute("FlowScaling", fs);
    EXPECT_TRUE(fs.Get());
    EXPECT_EQ(s->GetName(), "swift");
}

// Rule: with InitialCwnd/MaxCwnd 0 the windows derive from the BDP in payload packets:
// initial = 100e9 x 10e-6 / (8 x 1024) = 1e6 / 8192 = 122.0703125 packets,
// max = 100e9 x max(20, 10) us / 8192 = 244.140625 packets.
TEST_F(SwiftTest, DerivedInitialAndMaxWindowsAreTheBdp)
{
    Make(0, false, 2, 0);
    EXPECT_NEAR(sw->GetCwnd(), 122.0703125, kTol);
    EXPECT_NEAR(sw->GetMaxCwnd(), 244.140625, kTol);
}

// Rule: additive increase never passes max_cwnd (244.140625 packets, derived). From 240
// packets each ACK of one packet below target adds 1/cwnd >= 1/244.14 = 0.0041 packets,
// so 2000 ACKs would add at least 8.19 packets, more than the 4.14 left to the cap.
TEST_F(SwiftTest, IncreaseStopsAtMaxWindow)
{
    Make(240, false, 2, 0);
    for (int i = 0; i < 2000; ++i)
    {
        AckAt(MicroSeconds(i), 10);
    }
    EXPECT_NEAR(sw->GetCwnd(), 244.140625, kTol);
}

// Rule: below target and cwnd >= 1, cwnd += ai x acked / cwnd: from 10 packets, an ACK of
// one packet gives 10.1, then an ACK of two packets 10.1 + 2/10.1.
TEST_F(SwiftTest, AdditiveIncreaseAboveOnePacket)
{
    Make(10);
    AckAt(MicroSeconds(1), 12); // 12 us < 17 us
    EXPECT_NEAR(sw->GetCwnd(), 10.1, kTol);
    AckAt(MicroSeconds(2), 12, 2);
    EXPECT_NEAR(sw->GetCwnd(), 10.1 + 2 / 10.1, kTol);
}

// Rule: below target and cwnd < 1, cwnd += ai x acked: 0.25 + 1 = 1.25 (not 0.25 + 1/0.25).
TEST_F(SwiftTest, AdditiveIncreaseBelowOnePacket)
{
    Make(0.25);
    AckAt(MicroSeconds(1), 12);
    EXPECT_NEAR(sw->GetCwnd(), 1.25, kTol);
}

// Rule: at or above target the cut is beta x (delay - target) / delay: delay 20 us,
// target 17 us: factor 1 - 0.8 x 3/20 = 0.88, 10 -> 8.8.
TEST_F(SwiftTest, DecreaseProportionalToExcessDelay)
{
    Make(10);
    AckAt(MicroSeconds(1), 20);
    EXPECT_NEAR(sw->GetCwnd(), 8.8, kTol);
}

// Rule: one cut is at most max_mdf: delay 1000 us gives 1 - 0.8 x 983/1000 = 0.2136,
// below 1 - 0.5: the factor is 0.5, 10 -> 5.
TEST_F(SwiftTest, DecreaseBoundedByMaxMdf)
{
    Make(10);
    AckAt(MicroSeconds(1), 1000);
    EXPECT_NEAR(sw->GetCwnd(), 5.0, kTol);
}

// Rule: at most one delay cut per RTT (the latest RTT sample, 20 us here): a cut at
// 1 us; ACKs above target at 1 + 19.999 us leave the window alone (no increase either);
// at 1 + 20 us the next cut applies. 10 x 0.88 = 8.8, then 8.8 x 0.88 = 7.744.
TEST_F(SwiftTest, AtMostOneDecreasePerRtt)
{
    Make(10);
    AckAt(MicroSeconds(1), 20);
    ASSERT_NEAR(sw->GetCwnd(), 8.8, kTol);
    AckAt(MicroSeconds(2), 20);
    AckAt(NanoSeconds(20999), 20);
    EXPECT_NEAR(sw->GetCwnd(), 8.8, kTol);
    AckAt(MicroSeconds(21), 20);
    EXPECT_NEAR(sw->GetCwnd(), 8.8 * 0.88, kTol);
}

// Rule: the window never goes below min_cwnd (0.001): from 0.0015 a halving would give
// 0.00075.
TEST_F(SwiftTest, WindowFloorIsMinCwnd)
{
    Make(0.0015);
    AckAt(MicroSeconds(1), 1000);
    EXPECT_NEAR(sw->GetCwnd(), 0.001, kTol);
}

// Rule: below one packet the QP sends one packet every rtt / cwnd. The NIC spaces
// packets by wire bytes / rate, so rate = cwnd x wire bits / rtt: cwnd 0.25 and the
// path's base RTT 10 us (no sample yet) give a packet every 40 us:
// 0.25 x 1106 x 8 / 10e-6 = 221.2 Mb/s; and the window still lets one packet out.
TEST_F(SwiftTest, PacesOnePacketPerRttOverCwndBelowOnePacket)
{
    Make(0.25);
    const uint64_t rate = sw->GetRate();
    EXPECT_NEAR(double(rate), 221.2e6, 1.0);
    const double gapUs = kWireBytes * 8 / double(rate) * 1e6;
    EXPECT_NEAR(gapUs, 40.0, 1e-6);
    EXPECT_EQ(sw->GetWindow(), uint64_t(kMtu));
}

// Rule: the pacing RTT is the latest sample: after an ACK of RTT 40 us above target
// (cut by max(1 - 0.8 x 23/40, 0.5) = 0.54: 0.25 -> 0.135) the gap is 40 / 0.135 us:
// rate = 0.135 x 8848 / 40e-6 = 29.862 Mb/s.
TEST_F(SwiftTest, PacingUsesLatestRttSample)
{
    Make(0.25);
    AckAt(MicroSeconds(1), 40);
    ASSERT_NEAR(sw->GetCwnd(), 0.135, kTol);
    EXPECT_NEAR(double(sw->GetRate()), 29.862e6, 1.0);
}

// Rule: at cwnd >= 1 the QP is ACK-clocked, not paced (line rate), and the window lets
// the NIC send while inflight < cwnd: cwnd 2.5 -> 2560 bytes, so with 2 packets in flight
// (2048 < 2560) a third may leave, with 3 (3072 >= 2560) the NIC blocks.
TEST_F(SwiftTest, WindowAboveOnePacketIsUnpaced)
{
    Make(2.5);
    EXPECT_EQ(sw->GetRate(), kLine);
    EXPECT_EQ(sw->GetWindow(), 2560u);
    EXPECT_LT(2u * kMtu, sw->GetWindow());
    EXPECT_GE(3u * kMtu, sw->GetWindow());
}

// Rule: the target grows by h = 1 us per hop: with flow scaling off, 1 hop gives
// 10 + 5 + 1 = 16 us and 4 hops 10 + 5 + 4 = 19 us.
TEST_F(SwiftTest, TargetScalesWithHops)
{
    Make(10, false, 1);
    EXPECT_EQ(sw->GetFabricTarget(), MicroSeconds(16));
    Make(10, false, 4);
    EXPECT_EQ(sw->GetFabricTarget(), MicroSeconds(19));
}

// Rule: the flow-scaling term is fs_range (100 us) at fs_min_cwnd (0.1) and below, 0 at
// fs_max_cwnd (100) and above. At cwnd 1 it is alpha - alpha/10 = 0.9 alpha with
// alpha = 100 us / (sqrt(10) - 0.1) = 32.6557 us: 29.3901 us.
TEST_F(SwiftTest, FlowScalingEndpoints)
{
    Make(10, true);
    EXPECT_NEAR(sw->FlowScalingSeconds(0.1), 100e-6, 1e-12);
    EXPECT_NEAR(sw->FlowScalingSeconds(0.001), 100e-6, 1e-12);
    EXPECT_NEAR(sw->FlowScalingSeconds(100), 0, 1e-12);
    EXPECT_NEAR(sw->FlowScalingSeconds(1000), 0, 1e-12);
    EXPECT_NEAR(sw->FlowScalingSeconds(1), 0.9 * 100e-6 / (std::sqrt(10.0) - 0.1), 1e-12);
}

// Rule: the term decreases with the window (small windows get the larger target; the
// sign error beta_fs = +alpha/sqrt(fs_max_cwnd) would fail the endpoint test above).
TEST_F(SwiftTest, FlowScalingDecreasesWithWindow)
{
    Make(10, true);
    double prev = sw->FlowScalingSeconds(0.1);
    for (double w = 0.2; w <= 100; w *= 1.5)
    {
        const double v = sw->FlowScalingSeconds(w);
        EXPECT_LT(v, prev) << "cwnd " << w;
        prev = v;
    }
}

// Rule: the fabric target uses the flow-scaling term of the fabric window: at fcwnd 1,
// 17 + 29.3901 us = 46.3901 us, so an ACK at 40 us increases (1 -> 2) where the target
// without flow scaling (17 us) would cut.
TEST_F(SwiftTest, FlowScalingRaisesTargetOfSmallWindows)
{
    Make(1, true);
    EXPECT_NEAR(sw->GetFabricTarget().GetSeconds(),
                kTargetUs * 1e-6 + 0.9 * 100e-6 / (std::sqrt(10.0) - 0.1),
                1e-9);
    AckAt(MicroSeconds(1), 40);
    EXPECT_NEAR(sw->GetCwnd(), 2.0, kTol);
}

// Rule: FlowScaling false removes the term: the target is 17 us at any window.
TEST_F(SwiftTest, FlowScalingOffGivesZeroTerm)
{
    Make(0.2);
    EXPECT_EQ(sw->FlowScalingSeconds(0.2), 0.0);
    EXPECT_EQ(sw->GetFabricTarget(), MicroSeconds(17));
}

// Rule: a timeout cuts by max_mdf at most once per RTT (last sample 16.5 us): 10 -> 5 at
// 1 us, unchanged at 2 us, 2.5 at 1 + 16.5 = 17.5 us.
TEST_F(SwiftTest, TimeoutCutsOncePerRtt)
{
    Make(10);
    AckAt(Time(0), 16.5, 0); // RTT sample 16.5 us (< 17 us target), nothing acked: no change
    ASSERT_NEAR(sw->GetCwnd(), 10.0, kTol);
    TimeoutAt(MicroSeconds(1));
    EXPECT_NEAR(sw->GetCwnd(), 5.0, kTol);
    TimeoutAt(MicroSeconds(2));
    EXPECT_NEAR(sw->GetCwnd(), 5.0, kTol);
    TimeoutAt(NanoSeconds(17500));
    EXPECT_NEAR(sw->GetCwnd(), 2.5, kTol);
}

// Rule: the fifth consecutive timeout (retx_cnt >= 5) sets min_cwnd (0.001) whatever the
// once-per-RTT rule says: five timeouts within one RTT: 10 -> 5 (first), held at 5
// (second to fourth), 0.001 (fifth).
TEST_F(SwiftTest, FifthTimeoutResetsToMinCwnd)
{
    Make(10);
    for (int i = 1; i <= 4; ++i)
    {
        TimeoutAt(NanoSeconds(i));
    }
    ASSERT_NEAR(sw->GetCwnd(), 5.0, kTol);
    TimeoutAt(NanoSeconds(5));
    EXPECT_NEAR(sw->GetCwnd(), 0.001, kTol);
    EXPECT_EQ(sw->GetRetxCount(), 5u);
}

// Rule: an ACK of new data resets retx_cnt (an ACK of nothing does not): four timeouts,
// an ACK of 0 packets, one more timeout: reset to min_cwnd; with an ACK of one packet
// instead, the fifth timeout is only the first of a new series.
TEST_F(SwiftTest, AckProgressResetsRetxCount)
{
    Make(10);
    for (int i = 1; i <= 4; ++i)
    {
        TimeoutAt(NanoSeconds(i));
    }
    AckAt(NanoSeconds(10), 12, 0);
    EXPECT_EQ(sw->GetRetxCount(), 4u);
    AckAt(NanoSeconds(11), 12, 1);
    EXPECT_EQ(sw->GetRetxCount(), 0u);
    TimeoutAt(NanoSeconds(12));
    EXPECT_EQ(sw->GetRetxCount(), 1u);
    EXPECT_GT(sw->GetCwnd(), 0.001);
}

// Rule: fast recovery (NACK) cuts by max_mdf, at most once per RTT (the base RTT 10 us
// until a sample): 10 -> 5 at 1 us, unchanged at 5 us, 2.5 at 11 us.
TEST_F(SwiftTest, FastRecoveryCutsByMaxMdfOncePerRtt)
{
    Make(10);
    NackAt(MicroSeconds(1));
    EXPECT_NEAR(sw->GetCwnd(), 5.0, kTol);
    NackAt(MicroSeconds(5));
    EXPECT_NEAR(sw->GetCwnd(), 5.0, kTol);
    NackAt(MicroSeconds(11));
    EXPECT_NEAR(sw->GetCwnd(), 2.5, kTol);
}

// Rule: the fabric window sees RTT minus the endpoint delay: RTT 23 us with 8 us of
// endpoint delay is 15 us of fabric delay, below 17 us: the window grows 10 -> 10.1,
// where the RTT alone would have cut it (the endpoint delay, 8 us, is below its 10 us
// target: the endpoint window grows too).
TEST_F(SwiftTest, FabricDelayExcludesEndpointDelay)
{
    Make(10);
    AckAt(MicroSeconds(1), 23, 1, 8);
    EXPECT_NEAR(sw->GetFabricCwnd(), 10.1, kTol);
    EXPECT_NEAR(sw->GetCwnd(), 10.1, kTol);
}

// Rule: the endpoint window reacts to the endpoint delay against EndpointTarget (10 us)
// and the effective window is min(fcwnd, ecwnd): RTT 30 us with 20 us endpoint delay:
// fabric 10 us < 17 us: fcwnd 10 -> 10.1; endpoint 20 us > 10 us: ecwnd 10 x
// max(1 - 0.8 x 10/20, 0.5) = 6; cwnd = 6.
TEST_F(SwiftTest, EndpointWindowLimitsTheEffectiveWindow)
{
    Make(10);
    AckAt(MicroSeconds(1), 30, 1, 20);
    EXPECT_NEAR(sw->GetFabricCwnd(), 10.1, kTol);
    EXPECT_NEAR(sw->GetEndpointCwnd(), 6.0, kTol);
    EXPECT_NEAR(sw->GetCwnd(), 6.0, kTol);
    EXPECT_EQ(sw->GetWindow(), 6u * kMtu);
}

// Rule: without any RTT in the context (no path information) there is no BDP: the window
// starts at one packet and has no cap (5000 ACKs below target take it from 1 to about
// sqrt(1 + 2 x 5000) = 100 packets, since d(cwnd^2)/dACK = 2).
TEST(SwiftNoPath, StartsAtOnePacketWithoutCap)
{
    FakeClock clock;
    Ptr<Swift> sw = CreateObject<Swift>();
    CcContext ctx;
    ctx.lineRate = kLine;
    ctx.mtu = kMtu;
    ctx.clock = &clock;
    sw->Init(ctx);
    EXPECT_NEAR(sw->GetCwnd(), 1.0, kTol);
    CcAck a;
    a.ackedBytes = kMtu;
    a.rtt = MicroSeconds(1); // below the 5 us + 1 us base target
    for (int i = 0; i < 5000; ++i)
    {
        sw->OnAck(a);
    }
    EXPECT_NEAR(sw->GetCwnd(), std::sqrt(1.0 + 2 * 5000), 1.0);
}
