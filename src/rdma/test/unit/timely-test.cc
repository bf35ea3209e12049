/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of TIMELY (Timely), driven by hand-made ACKs and a fake clock (no
 * simulation).
 *
 * Specification (docs/design.md, "TIMELY"; Mittal et al. SIGCOMM 2015; patch: Zhu et al.
 * CoNEXT 2016), per QP, starting at line rate:
 *  - one update per RTT sample; a sample is the completion of a segment (Segment bytes;
 *    default 0 = one MTU, so any ACK, as the HPCC simulator's and ns3-datacenter's TIMELY;
 *    the rule tests below use the paper's 16 KB): ACKed bytes are summed, the ACK that
 *    completes the segment gives the RTT;
 *  - the RTT excludes the segment's serialization: rtt = ack rtt - segment wire bytes /
 *    line rate, floored at 0;
 *  - new_rtt_diff = rtt - prev_rtt; rtt_diff = (1-a) rtt_diff + a new_rtt_diff;
 *    g = rtt_diff / MinRtt;
 *  - rtt < T_low: rate += delta; rtt > T_high: rate *= 1 - beta (1 - T_high/rtt);
 *    g <= 0: rate += N delta (N = 5 after 5 consecutive non-positive gradients, else 1);
 *    else rate *= 1 - beta g;
 *  - each decrease at most 50%, rate within [min rate, line rate];
 *  - patched: w(g) = 0 (g <= -1/4), 2g + 1/2 (|g| < 1/4), 1 (g >= 1/4);
 *    rate = delta (1-w) + rate (1 - beta' w (rtt - rtt_ref)/rtt_ref), beta' = 0.008.
 * Defaults: T_low 50 us, T_high 500 us, delta 10 Mb/s per 10 Gb/s (100 Mb/s at 100G),
 * beta 0.8, MinRtt 20 us, a = 0.875, min rate 100 Mb/s, RttRef 50 us (timely.cc).
 * The first sample has no predecessor and only sets prev_rtt (timely.h).
 *
 * Numbers used below, at 100 Gb/s with 1024 B packets (82 B of headers, preamble and gap
 * per packet on the wire):
 *   a 16 KB segment is 16 packets = 16 x 1106 = 17696 wire bytes = 141568 bits,
 *   141568 / 100e9 s = 1415.68 ns of serialization (kSerNs).
 * So an ACK RTT of X ns is a sample of X - 1415.68 ns.
 *
 * Tolerance: the rate is a double returned truncated to whole bit/s; values computed here
 * in double may differ by a few ulp: EXPECT_NEAR(.., kRateTol).
 */

#include "fake-cc-clock.h"

#include "ns3/congestion-control.h"
#include "ns3/core-module.h"
#include "ns3/rdma-wire.h"
#include "ns3/timely.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr uint32_t kMtu = 1024;
constexpr uint64_t kSeg = 16384;   // the rule tests' Segment (the paper's), 16 packets
constexpr double kSerNs = 1415.68; // see header
constexpr double kDelta = 100e6;   // 10 Mb/s per 10 Gb/s at 100 Gb/s
constexpr double kBeta = 0.8;
constexpr double kTHighNs = 500000;
constexpr double kPatchedBeta = 0.008;
constexpr double kRttRefNs = 50000;
constexpr double kRateTol = 2.0; // bit/s

/// The fake clock: tests set `now`.
using rdmatest::FakeClock;

class TimelyTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        Make("Original", kLine);
    }

    void Make(const std::string& variant, uint64_t line)
    {
        cc = CreateObject<Timely>();
        cc->SetAttribute("Variant", StringValue(variant));
        // The rule tests feed one sample per completed 16 KB segment (OncePerRttGatesSamples
        // turns the default gate back on; DefaultSegmentIsOnePacket checks the default).
        cc->SetAttribute("OncePerRtt", BooleanValue(false));
        cc->SetAttribute("Segment", UintegerValue(kSeg));
        // ... and count HAI as the paper's pseudo-code (HaiCountIncreases checks the default).
        cc->SetAttribute("HaiCount", StringValue("Gradients"));
        clock.now = Time(0);
        CcContext ctx;
        ctx.lineRate = line;
        ctx.baseRtt = MicroSeconds(8);
        ctx.mtu = kMtu;
        ctx.hops = 2;
        ctx.clock = &clock;
        cc->Init(ctx);
    }

    /// One ACK of \p bytes whose data packet took \p rttNs (send -> ACK); \p ackPsn and
    /// \p sndNxt as the NIC reports them (only OncePerRtt reads them).
    void Ack(uint64_t bytes, int64_t rttNs, uint32_t ackPsn = 0, uint32_t sndNxt = 0)
    {
        clock.now += MicroSeconds(1);
        CcAck a;
        a.ackedBytes = bytes;
        a.rtt = NanoSeconds(rttNs);
        a.ackPsn = ackPsn;
        a.sndNxt = sndNxt;
        cc->OnAck(a);
    }

    /// A whole segment in one ACK: one RTT sample of rttNs - kSerNs.
    void Sample(int64_t rttNs)
    {
        Ack(kSeg, rttNs);
    }

    double Rate()
    {
        return double(cc->GetRate());
    }

    /// Brings the rate below line rate with no gradient history: two equal samples of
    /// 600 us (> T_high); the second cuts by 1 - beta (1 - T_high / rtt), new_rtt_diff =
    /// 0 so rtt_diff stays 0. Returns the rate after the cut.
    double CutWithTHigh()
    {
        Sample(600000);
        Sample(600000);
        const double r = 600000 - kSerNs;
        const double expected = double(kLine) * (1 - kBeta * (1 - kTHighNs / r));
        EXPECT_NEAR(Rate(), expected, kRateTol);
        EXPECT_EQ(cc->GetRttDiffNs(), 0.0);
        return expected;
    }

    FakeClock clock;
    Ptr<Timely> cc;
};

} // namespace

// Rule: the defaults are those of docs/design.md, "TIMELY" (and the step scales with the line rate:
// 10 Mb/s per 10 Gb/s).
TEST_F(TimelyTest, DefaultsMatchSpecification)
{
    auto get = [this](const std::string& name) {
        StringValue v;
        cc->GetAttribute(name, v);
        return v.Get();
    };
    EXPECT_EQ(get("Variant"), "Original");
    StringValue once; // (the fixture turns it off for the rule tests)
    CreateObject<Timely>()->GetAttribute("OncePerRtt", once);
    EXPECT_EQ(once.Get(), "true");
    StringValue segment; // (the fixture sets the paper's 16 KB and HAI counting)
    CreateObject<Timely>()->GetAttribute("Segment", segment);
    EXPECT_EQ(segment.Get(), "0");
    CreateObject<Timely>()->GetAttribute("HaiCount", segment);
    EXPECT_EQ(segment.Get(), "Increases");
    EXPECT_EQ(get("Alpha"), "0.875");
    EXPECT_EQ(get("Beta"), "0.8");
    EXPECT_EQ(get("PatchedBeta"), "0.008");
    TimeValue t;
    cc->GetAttribute("TLow", t);
    EXPECT_EQ(t.Get(), MicroSeconds(50));
    cc->GetAttribute("THigh", t);
    EXPECT_EQ(t.Get(), MicroSeconds(500));
    cc->GetAttribute("MinRtt", t);
    EXPECT_EQ(t.Get(), MicroSeconds(20));
    EXPECT_EQ(cc->GetName(), "timely");
    EXPECT_EQ(cc->GetRate(), kLine);
    EXPECT_EQ(cc->GetWindow(), 0u);
    EXPECT_DOUBLE_EQ(cc->GetAddStep(), kDelta);
    Make("Original", 10000000000ULL); // 10 Gb/s: the paper's 10 Mb/s
    EXPECT_DOUBLE_EQ(cc->GetAddStep(), 10e6);
}

// Rule: Segment 0 (the default) is one MTU: every ACK of a packet completes a segment and
// is a sample (with OncePerRtt off), and the serialization excluded is one packet's:
// 1106 wire bytes = 8848 bits at 100G = 88.48 ns.
TEST_F(TimelyTest, DefaultSegmentIsOnePacket)
{
    cc = CreateObject<Timely>();
    cc->SetAttribute("OncePerRtt", BooleanValue(false));
    CcContext ctx;
    ctx.lineRate = kLine;
    ctx.baseRtt = MicroSeconds(8);
    ctx.mtu = kMtu;
    ctx.hops = 2;
    ctx.clock = &clock;
    cc->Init(ctx);
    EXPECT_NEAR(cc->GetSegmentSerializationNs(), (kMtu + 82) * 8 / 100.0, 1e-6);
    Ack(kMtu, 10000);
    EXPECT_EQ(cc->GetSampleCount(), 1u);
    EXPECT_NEAR(cc->GetLastRttNs(), 10000 - 88.48, 1e-6);
    Ack(kMtu, 600000); // above T_high: a cut on the second packet already
    EXPECT_EQ(cc->GetSampleCount(), 2u);
    EXPECT_LT(Rate(), double(kLine));
}

// Rule (HaiCount Increases, the default): every increase counts toward HAI, below T_low
// too, and from the HaiThreshold-th in a row on the step is HaiFactor x delta there as
// well; a decrease ends the run. After the T_high cut, 5 samples of 20 us (< T_low):
// +delta each; the 6th and 7th: +5 delta each; a T_high sample cuts and the next sample
// below T_low is +delta again.
TEST_F(TimelyTest, HaiCountIncreasesCountsTLowRegion)
{
    cc->SetAttribute("HaiCount", StringValue("Increases"));
    double r = CutWithTHigh();
    for (int k = 0; k < 5; ++k)
    {
        Sample(20000);
        r += kDelta;
        ASSERT_NEAR(Rate(), r, kRateTol) << "increase " << k + 1;
    }
    EXPECT_EQ(cc->GetNonPositiveCount(), 5u);
    for (int k = 0; k < 2; ++k)
    {
        Sample(20000);
        r += 5 * kDelta;
        ASSERT_NEAR(Rate(), r, kRateTol) << "hyper-active increase " << k + 1;
    }
    Sample(600000);
    EXPECT_LT(Rate(), r);
    EXPECT_EQ(cc->GetNonPositiveCount(), 0u);
    r = Rate();
    Sample(20000);
    EXPECT_NEAR(Rate(), r + kDelta, kRateTol);
}

// Rule: the RTT excludes the segment's serialization at line rate (1415.68 ns for 16 KB at
// 100G, header), floored at 0. At 25 Gb/s the same segment takes 4 x as long: 5662.72 ns.
TEST_F(TimelyTest, SerializationExcludedFromRtt)
{
    EXPECT_EQ(rdmawire::kDataOverheadBytes, 82u); // premise of the numbers in the header
    EXPECT_NEAR(cc->GetSegmentSerializationNs(), kSerNs, 1e-6);
    Sample(10000);
    EXPECT_NEAR(cc->GetLastRttNs(), 10000 - kSerNs, 1e-6);
    Sample(1000); // less than the serialization itself
    EXPECT_EQ(cc->GetLastRttNs(), 0.0);
    Make("Original", 25000000000ULL);
    Sample(10000);
    EXPECT_NEAR(cc->GetLastRttNs(), 10000 - 5662.72, 1e-6);
}

// Rule: the serialization is excluded before the T_low test: an ACK RTT of 50.5 us is a
// sample of 49.08 us < T_low, so the rate rises by delta although the RTT went up (a
// positive gradient, which at or above T_low would cut the rate).
// After the T_high cut: four samples of 40 us (38.58 us, +delta each) bring rtt_diff from
// 0.875 x -560 us to -560 us x 0.875 x 0.125^3 = -957 ns; then 50.5 us: new_rtt_diff =
// +10500 ns, rtt_diff = -119.6 + 9187.5 > 0.
TEST_F(TimelyTest, SerializationExcludedBeforeTLowTest)
{
    double r = CutWithTHigh();
    for (int k = 0; k < 4; ++k)
    {
        Sample(40000);
        r += kDelta;
    }
    ASSERT_NEAR(Rate(), r, kRateTol);
    Sample(50500);
    EXPECT_GT(cc->GetGradient(), 0.0);
    EXPECT_NEAR(Rate(), r + kDelta, kRateTol);
}

// Rule: no update before a segment completes; the ACK that completes it gives the RTT.
// 15 ACKs of one packet (15 KB < 16 KB) with RTTs far above T_high change nothing; the
// 16th completes the segment and its RTT (here 200 us) is the sample. Same again for a
// second segment, whose samples would otherwise cut the rate.
TEST_F(TimelyTest, SegmentAggregation)
{
    for (int i = 0; i < 15; ++i)
    {
        Ack(kMtu, 900000);
    }
    EXPECT_EQ(cc->GetSampleCount(), 0u);
    EXPECT_EQ(cc->GetSegmentBytes(), 15u * kMtu);
    Ack(kMtu, 200000);
    EXPECT_EQ(cc->GetSampleCount(), 1u);
    EXPECT_EQ(cc->GetSegmentBytes(), 0u);
    EXPECT_NEAR(cc->GetLastRttNs(), 200000 - kSerNs, 1e-6);
    EXPECT_EQ(cc->GetRate(), kLine); // first sample: no gradient yet
    for (int i = 0; i < 15; ++i)
    {
        Ack(kMtu, 900000);
        EXPECT_EQ(cc->GetRate(), kLine) << "ACK " << i + 1 << " of the second segment";
    }
    EXPECT_EQ(cc->GetSampleCount(), 1u);
    Ack(kMtu, 900000); // completes it: 898.58 us > T_high, a cut
    EXPECT_EQ(cc->GetSampleCount(), 2u);
    EXPECT_LT(Rate(), double(kLine));
}

// Rule (OncePerRtt): a completed segment is a sample only once the ACKs cover the first
// packet sent after the previous sample. Sample 1 at an ACK with sndNxt = 40 (PSNs 0..39
// sent); a second full segment ACKed with ackPsn 40 (PSNs below 40 arrived, PSN 40 not
// yet) is no sample and its bytes wait; the next ACK, of one packet with ackPsn 41, covers
// PSN 40 and opens the gate: sample 2, and 16384 + 1024 - 16384 = 1024 bytes stay for the
// next segment.
TEST_F(TimelyTest, OncePerRttGatesSamples)
{
    cc->SetAttribute("OncePerRtt", BooleanValue(true));
    Ack(kSeg, 100000, 16, 40);
    EXPECT_EQ(cc->GetSampleCount(), 1u);
    Ack(kSeg, 100000, 40, 56);
    EXPECT_EQ(cc->GetSampleCount(), 1u);
    EXPECT_EQ(cc->GetSegmentBytes(), kSeg);
    Ack(kMtu, 100000, 41, 57);
    EXPECT_EQ(cc->GetSampleCount(), 2u);
    EXPECT_EQ(cc->GetSegmentBytes(), uint64_t(kMtu));
}

// Rule: the first sample only records prev_rtt (a gradient needs two samples), whatever
// its value, even above T_high.
TEST_F(TimelyTest, FirstSampleOnlyRecords)
{
    Sample(900000);
    EXPECT_EQ(cc->GetSampleCount(), 1u);
    EXPECT_EQ(cc->GetRate(), kLine);
    EXPECT_EQ(cc->GetRttDiffNs(), 0.0);
}

// Rule (T_low branch): rtt < T_low adds exactly delta, whatever the gradient. After the
// T_high cut (rate r0), four samples of 20 us (g < 0): +delta each, rtt_diff decays to
// 0.875 x -580 us x 0.125^3 = -991 ns; then 45 us (43.58 us after serialization):
// new_rtt_diff = +25 us, rtt_diff = -124 + 21875 > 0 (g > 0): +delta again.
TEST_F(TimelyTest, TLowBranchIsAdditive)
{
    double r = CutWithTHigh();
    for (int k = 0; k < 4; ++k)
    {
        Sample(20000);
        EXPECT_LT(cc->GetGradient(), 0.0);
        r += kDelta;
        EXPECT_NEAR(Rate(), r, kRateTol);
    }
    Sample(45000);
    EXPECT_GT(cc->GetGradient(), 0.0);
    EXPECT_NEAR(Rate(), r + kDelta, kRateTol);
}

// Rule (T_high branch): rtt > T_high: rate *= 1 - beta (1 - T_high / rtt), whatever the
// gradient. Samples 600 us then 800 us (g = 0.875 x 200 us / 20 us = 8.75: the gradient
// rule would halve). rtt = 800000 - 1415.68 ns:
// 1 - 0.8 (1 - 500000/798584.32) = 0.70088... (> 0.5, not clamped).
TEST_F(TimelyTest, THighBranchIsMultiplicative)
{
    Sample(600000);
    Sample(800000);
    const double r = 800000 - kSerNs;
    const double factor = 1 - kBeta * (1 - kTHighNs / r);
    ASSERT_GT(factor, 0.5);
    EXPECT_NEAR(Rate(), double(kLine) * factor, kRateTol);
}

// Rule (gradient decrease, with the EWMA): samples 100, 102, 103 us (in [T_low, T_high]):
//  2nd: new_rtt_diff = 2000 ns, rtt_diff = 0.875 x 2000 = 1750, g = 1750/20000 = 0.0875,
//       rate = 100G x (1 - 0.8 x 0.0875) = 93 Gb/s;
//  3rd: new_rtt_diff = 1000, rtt_diff = 0.125 x 1750 + 0.875 x 1000 = 1093.75,
//       g = 0.0546875, rate = 93G x (1 - 0.04375) = 88.93125 Gb/s.
TEST_F(TimelyTest, PositiveGradientDecreasesMultiplicatively)
{
    Sample(100000);
    Sample(102000);
    EXPECT_NEAR(cc->GetRttDiffNs(), 1750, 1e-6);
    EXPECT_NEAR(cc->GetGradient(), 0.0875, 1e-12);
    EXPECT_NEAR(Rate(), 93e9, kRateTol);
    Sample(103000);
    EXPECT_NEAR(cc->GetRttDiffNs(), 1093.75, 1e-6);
    EXPECT_NEAR(Rate(), 88.93125e9, kRateTol);
}

// Rule: a zero gradient counts as non-positive: the rate rises by delta. With Alpha = 1
// (rtt_diff = new_rtt_diff, no memory) samples 100, 102, 102 us: the 2nd has
// g = 2000/20000 = 0.1, rate = 100G (1 - 0.08) = 92 Gb/s; the 3rd has g = 0 exactly:
// 92 Gb/s + delta.
TEST_F(TimelyTest, ZeroGradientIncreases)
{
    cc->SetAttribute("Alpha", DoubleValue(1.0)); // read on each sample
    Sample(100000);
    Sample(102000);
    ASSERT_NEAR(Rate(), 92e9, kRateTol);
    Sample(102000);
    EXPECT_EQ(cc->GetGradient(), 0.0);
    EXPECT_NEAR(Rate(), 92e9 + kDelta, kRateTol);
}

// Rule (HAI): after 5 consecutive non-positive gradients the step is 5 delta. After the
// T_high cut (which resets the count), band samples 400, 390, 380, 370, 360 us all have
// g < 0 (every new_rtt_diff < 0, so rtt_diff < 0): +delta each; the 6th and 7th (350,
// 340 us): +5 delta each.
TEST_F(TimelyTest, HyperIncreaseAfterFiveNonPositiveGradients)
{
    double r = CutWithTHigh();
    int64_t rtt = 400000;
    for (int k = 1; k <= 5; ++k, rtt -= 10000)
    {
        Sample(rtt);
        ASSERT_LT(cc->GetGradient(), 0.0);
        r += kDelta;
        EXPECT_NEAR(Rate(), r, kRateTol) << "sample " << k << " should add delta";
    }
    for (int k = 6; k <= 7; ++k, rtt -= 10000)
    {
        Sample(rtt);
        r += 5 * kDelta;
        EXPECT_NEAR(Rate(), r, kRateTol) << "sample " << k << " should add 5 delta";
    }
}

// Rule (HAI): a decrease ends the hyper-active increase: after 6 non-positive samples
// (the 6th adding 5 delta), a positive gradient cuts, and the next non-positive sample
// adds delta again.
TEST_F(TimelyTest, DecreaseEndsHyperIncrease)
{
    CutWithTHigh();
    int64_t rtt = 400000;
    for (int k = 1; k <= 6; ++k, rtt -= 10000)
    {
        Sample(rtt);
    }
    ASSERT_EQ(cc->GetNonPositiveCount(), 6u);
    Sample(400000); // new_rtt_diff +50 us dominates: g > 0, a cut
    ASSERT_GT(cc->GetGradient(), 0.0);
    EXPECT_EQ(cc->GetNonPositiveCount(), 0u);
    const double r = Rate();
    Sample(300000); // g < 0
    ASSERT_LT(cc->GetGradient(), 0.0);
    EXPECT_NEAR(Rate(), r + kDelta, kRateTol);
}

// Rule: one update never cuts more than 50%.
//  gradient: 100 us then 200 us: rtt_diff = 87500 ns, g = 4.375, 1 - 0.8 g = -2.5 -> 0.5;
//  T_high: 600 us then 2000 us: 1 - 0.8 (1 - 500/1998.58) = 0.4001 -> 0.5.
TEST_F(TimelyTest, DecreaseClampedToHalf)
{
    Sample(100000);
    Sample(200000);
    EXPECT_NEAR(cc->GetGradient(), 4.375, 1e-12);
    EXPECT_NEAR(Rate(), 50e9, kRateTol);
    Make("Original", kLine);
    Sample(600000);
    Sample(2000000);
    ASSERT_LT(1 - kBeta * (1 - kTHighNs / (2000000 - kSerNs)), 0.5);
    EXPECT_NEAR(Rate(), 50e9, kRateTol);
}

// Rule: the rate stays within [min rate (100 Mb/s), line rate]: T_low increases at line
// rate leave it at line rate; T_high cuts at 600 us, 1.2 ms, 2.4 ms, ... (factors 0.868,
// 0.534, then <= 0.5, clamped to 0.5) would reach 100G x 0.868 x 0.534 / 2^10 = 45 Mb/s
// after 12 samples: they stop at 100 Mb/s.
TEST_F(TimelyTest, RateStaysWithinMinAndLineRate)
{
    Sample(10000);
    Sample(10000);
    EXPECT_EQ(cc->GetRate(), kLine);
    int64_t rtt = 600000;
    for (int k = 0; k < 12; ++k, rtt *= 2)
    {
        Sample(rtt);
    }
    EXPECT_EQ(cc->GetRate(), 100000000u);
}

// Rule: NACKs, timeouts and CNPs do not change the rate (TIMELY reacts to delay only).
TEST_F(TimelyTest, LossEventsDoNotChangeRate)
{
    const double r0 = CutWithTHigh();
    cc->OnNack();
    cc->OnTimeout();
    cc->OnCnp();
    EXPECT_NEAR(Rate(), r0, kRateTol);
}

// Rule (patched): w(g) = 0 for g <= -1/4, 2g + 1/2 for |g| < 1/4, 1 for g >= 1/4.
TEST(TimelyPatched, WeightPieces)
{
    EXPECT_EQ(Timely::PatchedWeight(-2.0), 0.0);
    EXPECT_EQ(Timely::PatchedWeight(-0.25), 0.0);
    EXPECT_DOUBLE_EQ(Timely::PatchedWeight(-0.125), 0.25);
    EXPECT_DOUBLE_EQ(Timely::PatchedWeight(0.0), 0.5);
    EXPECT_DOUBLE_EQ(Timely::PatchedWeight(0.1), 0.7);
    EXPECT_EQ(Timely::PatchedWeight(0.25), 1.0);
    EXPECT_EQ(Timely::PatchedWeight(3.0), 1.0);
}

// Rule (patched rate update, each piece of w), RttRef 50 us, beta' 0.008:
//  w = 1: samples 100, 110 us: rtt_diff = 8750 ns, g = 0.4375 >= 1/4;
//         rtt = 108584.32 ns, e = (rtt - 50000)/50000 = 1.1716864;
//         rate = 100G (1 - 0.008 e) = 99.06265088 Gb/s (no delta term);
//  middle: 110 us again: rtt_diff = 0.125 x 8750 = 1093.75, g = 0.0546875,
//         w = 2g + 1/2 = 0.609375: rate = delta (1-w) + rate (1 - 0.008 w e);
//  w = 0: 90 us: rtt_diff = 0.125 x 1093.75 + 0.875 x -20000 = -17363.28125,
//         g = -0.868 <= -1/4: rate += delta.
TEST_F(TimelyTest, PatchedRateRulePieces)
{
    Make("Patched", kLine);
    Sample(100000);
    Sample(110000);
    const double e = (110000 - kSerNs - kRttRefNs) / kRttRefNs;
    EXPECT_NEAR(e, 1.1716864, 1e-12);
    EXPECT_NEAR(cc->GetGradient(), 0.4375, 1e-12);
    double r = double(kLine) * (1 - kPatchedBeta * e);
    EXPECT_NEAR(Rate(), 99.06265088e9, kRateTol);
    Sample(110000);
    EXPECT_NEAR(cc->GetGradient(), 0.0546875, 1e-12);
    const double w = 0.609375;
    r = kDelta * (1 - w) + r * (1 - kPatchedBeta * w * e);
    EXPECT_NEAR(Rate(), r, kRateTol);
    Sample(90000);
    EXPECT_NEAR(cc->GetRttDiffNs(), -17363.28125, 1e-6);
    r += kDelta;
    EXPECT_NEAR(Rate(), r, kRateTol);
}

// Rule (patched): the fixed point does not depend on the rate: at g = 0 (w = 1/2) the rate
// stops moving where delta/2 = rate 0.008/2 e, i.e. rate* = delta / (0.008 e), the same for
// every flow that sees the same RTT (the CoNEXT 2016 fix; the original rule has no such
// point). Two QPs, one at line rate and one cut to below rate*, fed the same constant RTT,
// converge to it from both sides. At an ACK RTT of 76416 ns (75000.32 ns after
// serialization, e = 0.5000064): rate* = 100 Mb/s / (0.008 x 0.5000064) = 25 Gb/s.
// Per sample the distance to rate* shrinks by (1 - 0.004 e) = 0.998: after 20000 samples
// it is e^-40 of the start.
TEST_F(TimelyTest, PatchedFixedPointIsRateIndependent)
{
    Make("Patched", kLine);
    Ptr<Timely> a = cc;
    Make("Patched", kLine);
    Ptr<Timely> b = cc;
    // b: 60 samples of 450 us (e = 7.97, w = 1/2 once rtt_diff = 0): each multiplies the
    // rate by 1 - 0.004 x 7.97 = 0.968 and adds 50 Mb/s: about 16 Gb/s at the end.
    for (int k = 0; k < 60; ++k)
    {
        Sample(450000);
    }
    CcAck ack;
    ack.ackedBytes = kSeg;
    ack.rtt = NanoSeconds(76416);
    const double fixed = kDelta / (kPatchedBeta * (76416 - kSerNs - kRttRefNs) / kRttRefNs);
    ASSERT_NEAR(fixed, 25e9, 1e6);
    ASSERT_LT(double(b->GetRate()), 0.8 * fixed);
    ASSERT_EQ(a->GetRate(), kLine);
    for (int k = 0; k < 20000; ++k)
    {
        a->OnAck(ack);
        b->OnAck(ack);
    }
    EXPECT_NEAR(double(a->GetRate()), fixed, 1e-3 * fixed);
    EXPECT_NEAR(double(b->GetRate()), fixed, 1e-3 * fixed);
}
