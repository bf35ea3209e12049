/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of RttProbe's default rule set (Preset Scalable, rtt-probe.h), one rule each,
 * on a fake clock with a fake NIC peer group (CcPeerGroup). The NvidiaSample rules are in
 * rtt-probe-test.cc.
 *
 * Defaults used below: line C = 100 Gb/s, target T = 13 us (Absolute), Beta 1, MaxMd 0.9,
 * MiFactor 0.1, AiPackets 1 (1 KB MTU: 8192 bit / 13 us = 630 Mb/s per update),
 * FlowScaleStep 4 us per halving below one MTU per T (630 Mb/s), FlowScaleMax 64 us,
 * GradientSpan 2 us, ProbeInterval = T, MinRateFraction 1/16384.
 */

#include "fake-cc-clock.h"
#include "ns3/core-module.h"
#include "ns3/rtt-probe.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr double kLine = 100e9;
constexpr double kOneMtuPerT = 8192.0 / 13e-6; // bit/s, the AI cap and flow-scaling knee

using rdmatest::FakeClock;

class RttProbeScalableTest : public ::testing::Test
{
  protected:
    /// A controller whose NIC has \p active QPs to the destination (this one included).
    void Make(uint32_t active = 1, bool withGroup = true)
    {
        cc = CreateObject<RttProbe>();
        clock.now = Time(0);
        group = CcPeerGroup{};
        group.activeQps = active;
        CcContext ctx;
        ctx.lineRate = static_cast<uint64_t>(kLine);
        ctx.baseRtt = NanoSeconds(4200);
        ctx.mtu = 1024;
        ctx.clock = &clock;
        ctx.peers = withGroup ? &group : nullptr;
        cc->Init(ctx);
    }

    /// The NIC's first data packet of the QP at \p t.
    void FirstSend(Time t)
    {
        clock.now = t;
        cc->OnFirstSend();
        cc->OnSend(1024);
    }

    /// The ACK of a packet sent at \p sent arrives after \p rtt.
    void Ack(Time sent, Time rtt)
    {
        clock.now = sent + rtt;
        CcAck a;
        a.rtt = rtt;
        cc->OnAck(a);
    }

    double Rate()
    {
        return double(cc->GetRate());
    }

    FakeClock clock;
    CcPeerGroup group;
    Ptr<RttProbe> cc;
};

TEST_F(RttProbeScalableTest, IsTheDefaultPreset)
{
    Make();
    EnumValue v;
    cc->GetAttribute("Preset", v);
    EXPECT_EQ(v.Get(), RttProbe::PRESET_SCALABLE);
}

// --- first rate and the shared claim ---------------------------------------------------

TEST_F(RttProbeScalableTest, ALoneQpStartsAtLineRate)
{
    Make(1);
    FirstSend(Time(0));
    EXPECT_EQ(Rate(), kLine);
}

TEST_F(RttProbeScalableTest, QpsStartingTogetherShareTheLine)
{
    // 1,000 QPs posted at once: none has sent, so the claim is the line, split 1,000 ways.
    Make(1000);
    FirstSend(Time(0));
    EXPECT_NEAR(Rate(), kLine / 1000, 1);
}

TEST_F(RttProbeScalableTest, ANewcomerTakesItsSiblingsLearnedClaim)
{
    // 99 siblings send at 10 Mb/s each (a claim of 990 Mb/s for 99): the 100th starts at
    // the same per-QP rate, not at line / 100 = 1 Gb/s.
    Make(100);
    group.ratedQps = 99;
    group.rateSum = 99 * uint64_t(10e6);
    FirstSend(MicroSeconds(500));
    EXPECT_NEAR(Rate(), 10e6, 1);
}

TEST_F(RttProbeScalableTest, JoinsAndLeavesChangeTheSplitNotTheTotal)
{
    Make(1000);
    FirstSend(Time(0));
    const double total = Rate() * 1000;
    group.activeQps = 1200; // 200 join
    EXPECT_NEAR(Rate() * 1200, total, 1200);
    group.activeQps = 800; // 400 leave
    EXPECT_NEAR(Rate() * 800, total, 800);
}

TEST_F(RttProbeScalableTest, WithoutSharingTheClaimIsTheQpsOwnRate)
{
    Make(1000);
    cc->SetAttribute("ShareWithPeers", BooleanValue(false));
    FirstSend(Time(0));
    EXPECT_EQ(Rate(), kLine);
}

TEST_F(RttProbeScalableTest, BeforeItsFirstSampleAQpFollowsALowerSiblingVerdict)
{
    Make(10);
    FirstSend(Time(0));
    EXPECT_NEAR(Rate(), kLine / 10, 1);
    group.verdict = 1e9; // a sibling learned that the NIC may send 1 Gb/s there
    group.verdictTime = MicroSeconds(5);
    EXPECT_NEAR(Rate(), 1e9 / 10, 1);
    // Its own sample (below the target: an increase) takes over from the verdict.
    Ack(Time(0), MicroSeconds(5));
    EXPECT_GT(Rate(), 1e9 / 10);
    group.verdict = 1e6; // later verdicts no longer apply to it
    EXPECT_GT(Rate(), 1e9 / 10);
}

TEST_F(RttProbeScalableTest, EveryUpdatePublishesTheClaim)
{
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(26)); // twice the target: a cut
    EXPECT_NEAR(group.verdict, Rate(), 1);
    EXPECT_EQ(group.verdictTime, MicroSeconds(26));
}

// --- decrease ------------------------------------------------------------------------

TEST_F(RttProbeScalableTest, DecreaseIsProportionalToTheExcess)
{
    // Beta 1: rate x target / rtt. At 26 us (twice the target): half.
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(26));
    EXPECT_NEAR(Rate(), kLine / 2, 1e3);
}

TEST_F(RttProbeScalableTest, RttAtTheTargetIsNoDecrease)
{
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(13));
    EXPECT_EQ(Rate(), kLine); // an increase, capped at line rate
}

TEST_F(RttProbeScalableTest, OneDecreaseIsAtMostMaxMd)
{
    // 1 ms against 13 us would be x0.013: MaxMd 0.9 keeps a tenth.
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MilliSeconds(1));
    EXPECT_NEAR(Rate(), kLine * 0.1, 1e3);
}

TEST_F(RttProbeScalableTest, AnOlderPacketBoundsTheRateItLeftAtAndDoesNotCompound)
{
    // Update at 26 us (packet sent at 0): x0.5. Packets sent before that update (at 1 and
    // 2 us) report the same 26 us: they left at the full rate, whose bound is the same
    // half, so nothing more happens; one that waited 52 us bounds it to a quarter.
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(26));
    Ack(MicroSeconds(1), MicroSeconds(26));
    Ack(MicroSeconds(2), MicroSeconds(26));
    EXPECT_NEAR(Rate(), kLine / 2, 1e3);
    Ack(MicroSeconds(3), MicroSeconds(52));
    EXPECT_NEAR(Rate(), kLine / 4, 1e3);
}

TEST_F(RttProbeScalableTest, OneRegularUpdatePerRtt)
{
    // After the cut at 26 us, the next regular update needs a packet sent after it.
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(26));
    const double afterCut = Rate();
    Ack(MicroSeconds(20), MicroSeconds(10)); // sent before the cut, below the target
    EXPECT_EQ(Rate(), afterCut);             // no increase from a stale sample
    Ack(MicroSeconds(27), MicroSeconds(10)); // sent after it: an increase
    EXPECT_GT(Rate(), afterCut);
}

TEST_F(RttProbeScalableTest, GradientCutsByTheOverloadFactor)
{
    // The RTT grows 6 us per us of send time (7 senders at line rate into one port): the
    // senders offer 7x the drain rate, so each scales what it sent at by 1/7, although
    // the level alone (15 us against 13 us) would cut by only 13%.
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(12));         // first sample: increase, sets the reference
    Ack(MicroSeconds(13), MicroSeconds(3)); // below target again
    const double before = Rate();
    // A packet sent at 16.5 us (> 2 us after the reference at 13 us) with RTT 3 + 6 x 3.5
    Ack(NanoSeconds(16500), MicroSeconds(24));
    EXPECT_NEAR(Rate(), before / 7, before * 0.01);
}

TEST_F(RttProbeScalableTest, ShortSpansGiveNoGradient)
{
    // Samples 0.1 us apart (one packet time): their RTT difference is noise, the level
    // decides alone.
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(1));            // reference: sent at 0, 1 us
    Ack(NanoSeconds(1100), MicroSeconds(26)); // regular update, sent 1.1 us later
    EXPECT_NEAR(Rate(), kLine / 2, 1e3);
}

TEST_F(RttProbeScalableTest, NackHalvesOncePerEpisode)
{
    Make(1);
    FirstSend(Time(0));
    clock.now = MicroSeconds(5);
    CcAck a;
    a.ackPsn = 10;
    a.sndNxt = 40;
    cc->OnAck(a);
    cc->OnNack();
    EXPECT_NEAR(Rate(), kLine / 2, 1e3);
    cc->OnNack(); // same episode (nothing above 40 acknowledged yet)
    EXPECT_NEAR(Rate(), kLine / 2, 1e3);
}

// --- increase ------------------------------------------------------------------------

TEST_F(RttProbeScalableTest, SlowQpsIncreaseMultiplicatively)
{
    // 1,000 QPs: the claim grows by MiFactor (10%) per update while that is below the
    // AI cap; the per-QP rate follows the claim.
    Make(1000);
    group.ratedQps = 999;
    group.rateSum = 999 * uint64_t(5e6); // claim 5 Gb/s
    FirstSend(Time(0));
    const double before = Rate();
    Ack(Time(0), MicroSeconds(20)); // target at 5 Mb/s is far above 20 us
    EXPECT_NEAR(Rate(), before * 1.1, 1);
}

TEST_F(RttProbeScalableTest, FastQpsIncreaseAdditively)
{
    // A claim of 50 Gb/s would grow 5 Gb/s by MiFactor: capped at one MTU per target
    // RTT, 630 Mb/s.
    Make(1);
    group.ratedQps = 1;
    group.rateSum = uint64_t(50e9);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(5));
    EXPECT_NEAR(Rate(), 50e9 + kOneMtuPerT, 1e3);
}

// --- flow-scaled target ----------------------------------------------------------------

TEST_F(RttProbeScalableTest, TargetIsTheBaseAboveOneMtuPerRtt)
{
    Make(1);
    FirstSend(Time(0));
    EXPECT_EQ(cc->GetTargetRtt(), MicroSeconds(13));
}

TEST_F(RttProbeScalableTest, TargetGrowsPerHalvingBelowOneMtuPerRtt)
{
    // 1,024 QPs sharing the line: 97.7 Mb/s each, log2(630 / 97.7) = 2.69 halvings below
    // the knee: 13 + 4 x 2.69 = 23.8 us. A QP below its peers aims higher and gains.
    Make(1024);
    FirstSend(Time(0));
    const double halvings = std::log2(kOneMtuPerT / (kLine / 1024));
    EXPECT_NEAR(cc->GetTargetRtt().GetNanoSeconds() / 1e3, 13 + 4 * halvings, 0.01);
}

TEST_F(RttProbeScalableTest, FlowScalingIsBounded)
{
    // 16,384 QPs at the rate floor (6.1 Mb/s): 6.7 halvings would add 27 us; with
    // FlowScaleMax 16 us the target stops at 29 us.
    Make(16384);
    cc->SetAttribute("FlowScaleMax", TimeValue(MicroSeconds(16)));
    FirstSend(Time(0));
    EXPECT_EQ(cc->GetTargetRtt(), MicroSeconds(29));
}

// --- probes ----------------------------------------------------------------------------

TEST_F(RttProbeScalableTest, NoProbeWhileDataFeedbackFlows)
{
    // The data packets are the probes: nothing in flight, or a sample within the probe
    // interval, means no probe packet.
    Make(1);
    FirstSend(Time(0));
    clock.now = MicroSeconds(1);
    EXPECT_FALSE(cc->WantsProbe()); // in flight, but a sample is not overdue yet
    Ack(Time(0), MicroSeconds(5));
    clock.now = MicroSeconds(100);
    EXPECT_FALSE(cc->WantsProbe()); // nothing in flight
}

TEST_F(RttProbeScalableTest, ProbesWhenFeedbackIsOverdueAndItsAgeBoundsTheRate)
{
    // Data in flight and no sample for 13 us: a probe; while it waits, its age is a lower
    // bound on the RTT: at 52 us the rate is already a quarter of what it left at.
    Make(1);
    FirstSend(Time(0));
    clock.now = MicroSeconds(14);
    ASSERT_TRUE(cc->WantsProbe());
    EXPECT_FALSE(cc->WantsProbe()); // one outstanding
    clock.now = MicroSeconds(14 + 52);
    EXPECT_NEAR(Rate(), kLine / 4, 1e3);
    cc->OnProbeResponse(MicroSeconds(52)); // the answer adds nothing more
    EXPECT_NEAR(Rate(), kLine / 4, 1e3);
}

TEST_F(RttProbeScalableTest, SamplingTheRateChangesNothing)
{
    // GetRate() between events (a cc.csv sampler) must not change later decisions.
    auto run = [this](bool sample) {
        Make(1);
        FirstSend(Time(0));
        clock.now = MicroSeconds(14);
        cc->WantsProbe();
        if (sample)
        {
            for (int us = 15; us < 60; us += 3)
            {
                clock.now = MicroSeconds(us);
                Rate();
            }
        }
        Ack(MicroSeconds(1), MicroSeconds(60));
        Ack(MicroSeconds(61), MicroSeconds(8));
        return Rate();
    };
    EXPECT_EQ(run(false), run(true));
}

TEST_F(RttProbeScalableTest, NeverBelowThePerQpFloor)
{
    Make(1000);
    FirstSend(Time(0));
    for (int i = 0; i < 50; ++i)
    {
        Ack(MicroSeconds(1000 * i), MilliSeconds(1));
    }
    EXPECT_NEAR(Rate(), kLine / 16384, 1);
}

} // namespace
