/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of RttProbeShared (one claim per NIC and destination, rtt-probe-shared.h),
 * one rule each, on a fake clock with a fake NIC peer group (CcPeerGroup); the last ones
 * without a peer group (RateLimitPerDestination: a claim of the controller's own).
 *
 * Defaults used below: line C = 100 Gb/s, target T = 13 us (Absolute), Beta 1, MaxMd 0.9,
 * MiFactor 0.1, AiPackets 1 (1 KB MTU: 8192 bit / 13 us = 630 Mb/s per update),
 * FlowScaleStep 4 us per halving below one MTU per T (630 Mb/s), FlowScaleMax 64 us,
 * GradientSpan 2 us, ProbeInterval = T, MinRateFraction 1/16384, PacingRecheck 50 us.
 */

#include "fake-cc-clock.h"

#include "ns3/core-module.h"
#include "ns3/rtt-probe-shared.h"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr double kLine = 100e9;
constexpr double kOneMtuPerT = 8192.0 / 13e-6; // bit/s, the AI cap and flow-scaling knee
/// Wire bytes of a 1 KB data packet (headers, preamble and gap included): what a QP
/// paying by credit pays per packet.
const double kWire = rdmawire::WireBytes(RdmaPacketType::DATA, 1024);

using rdmatest::FakeClock;

class RttProbeSharedTest : public ::testing::Test
{
  protected:
    /// A controller whose NIC has \p active QPs to the destination (this one included);
    /// \p withGroup: a NIC peer group (false: none, as with RateLimitPerDestination).
    void Make(uint32_t active = 1, bool withGroup = true)
    {
        clock.now = Time(0);
        group = CcPeerGroup{};
        group.activeQps = active;
        cc = MakeSibling(withGroup);
    }

    /// Another controller of the same NIC peer group (Make first).
    Ptr<RttProbeShared> MakeSibling(bool withGroup = true)
    {
        Ptr<RttProbeShared> c = CreateObject<RttProbeShared>();
        CcContext ctx;
        ctx.lineRate = static_cast<uint64_t>(kLine);
        ctx.baseRtt = NanoSeconds(4200);
        ctx.mtu = 1024;
        ctx.clock = &clock;
        ctx.peers = withGroup ? &group : nullptr;
        c->Init(ctx);
        return c;
    }

    /// The NIC's first data packet of the QP at \p t.
    void FirstSend(Time t)
    {
        clock.now = t;
        cc->OnSendEvent(CcSendEvent::FIRST_SEND);
        cc->OnSendEvent(CcSendEvent::SEND, 1024);
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
    Ptr<RttProbeShared> cc;
};

TEST_F(RttProbeSharedTest, IsNamedAndNeedsNoPeerRates)
{
    Make();
    EXPECT_EQ(cc->GetName(), "rtt-probe-shared");
    using CC = CongestionControl;
    EXPECT_EQ(cc->ImplementedHooks(),
              CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_PACING | CC::HOOK_PROBE);
    EXPECT_EQ(cc->GetWindow(), 0u); // a peer group: no window
}

// --- first rate and the shared claim ---------------------------------------------------

TEST_F(RttProbeSharedTest, ALoneQpStartsAtLineRate)
{
    Make(1);
    FirstSend(Time(0));
    EXPECT_EQ(Rate(), kLine);
}

TEST_F(RttProbeSharedTest, QpsStartingTogetherShareTheLine)
{
    // 1,000 QPs posted at once: none has sent, so the claim is the line, split 1,000 ways.
    Make(1000);
    FirstSend(Time(0));
    EXPECT_NEAR(Rate(), kLine / 1000, 1);
}

TEST_F(RttProbeSharedTest, ANewcomerTakesItsSiblingsLearnedClaim)
{
    // 99 siblings have learned a claim of 50 Gb/s (a sample at twice the target): the
    // 100th starts at 50 Gb/s / 100, not at line / 100.
    Make(99);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(26));
    ASSERT_NEAR(Rate() * 99, kLine / 2, 1e4);
    group.activeQps = 100;
    Ptr<RttProbeShared> newcomer = MakeSibling();
    newcomer->OnSendEvent(CcSendEvent::FIRST_SEND);
    EXPECT_NEAR(double(newcomer->GetRate()), kLine / 2 / 100, 1e3);
}

TEST_F(RttProbeSharedTest, JoinsAndLeavesChangeTheSplitNotTheTotal)
{
    Make(1000);
    FirstSend(Time(0));
    const double total = Rate() * 1000;
    group.activeQps = 1200; // 200 join
    EXPECT_NEAR(Rate() * 1200, total, 1200);
    group.activeQps = 800; // 400 leave
    EXPECT_NEAR(Rate() * 800, total, 800);
}

TEST_F(RttProbeSharedTest, SiblingsShareOneClaim)
{
    // One QP's sample (twice the target: half) changes its sibling's rate at once.
    Make(2);
    Ptr<RttProbeShared> sibling = MakeSibling();
    FirstSend(Time(0));
    sibling->OnSendEvent(CcSendEvent::FIRST_SEND);
    ASSERT_NEAR(double(sibling->GetRate()), kLine / 2, 1);
    Ack(Time(0), MicroSeconds(26));
    EXPECT_NEAR(double(sibling->GetRate()), kLine / 4, 1e3);
    EXPECT_NEAR(Rate(), kLine / 4, 1e3);
}

TEST_F(RttProbeSharedTest, ANackCutsTheSharedClaimOncePerRtt)
{
    // Two siblings lose packets in the same burst: one halving, not a quarter.
    Make(2);
    Ptr<RttProbeShared> sibling = MakeSibling();
    FirstSend(Time(0));
    sibling->OnSendEvent(CcSendEvent::FIRST_SEND);
    Ack(Time(0), MicroSeconds(10)); // an RTT of 10 us is known (below the target)
    const double before = Rate();
    cc->OnNack();
    clock.now += MicroSeconds(5);
    sibling->OnNack();
    EXPECT_NEAR(Rate(), before / 2, 1e3);
    clock.now += MicroSeconds(10); // an RTT later: a new episode
    sibling->OnNack();
    EXPECT_NEAR(Rate(), before / 4, 1e3);
}

// --- decrease ------------------------------------------------------------------------

TEST_F(RttProbeSharedTest, DecreaseIsProportionalToTheExcess)
{
    // Beta 1: rate x target / rtt. At 26 us (twice the target): half.
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(26));
    EXPECT_NEAR(Rate(), kLine / 2, 1e3);
}

TEST_F(RttProbeSharedTest, RttAtTheTargetIsNoDecrease)
{
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(13));
    EXPECT_EQ(Rate(), kLine); // an increase, capped at line rate
}

TEST_F(RttProbeSharedTest, OneDecreaseIsAtMostMaxMd)
{
    // 1 ms against 13 us would be x0.013: MaxMd 0.9 keeps a tenth.
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MilliSeconds(1));
    EXPECT_NEAR(Rate(), kLine * 0.1, 1e3);
}

TEST_F(RttProbeSharedTest, AnOlderPacketBoundsTheRateItLeftAtAndDoesNotCompound)
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

TEST_F(RttProbeSharedTest, OneRegularUpdatePerRtt)
{
    // After the cut at 26 us (to 50 Gb/s), the next regular update needs a packet sent
    // after it: one sent at 20 us that saw 20 us only bounds the claim it left at (100
    // Gb/s x 13 / 20 = 65 Gb/s, above the claim: nothing); one sent at 27 us that saw the
    // same 20 us is an update, from 50 Gb/s (x 13 / 20).
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(26));
    ASSERT_NEAR(Rate(), kLine / 2, 1e3);
    Ack(MicroSeconds(20), MicroSeconds(20)); // sent before the cut
    EXPECT_NEAR(Rate(), kLine / 2, 1e3);
    Ack(MicroSeconds(27), MicroSeconds(20)); // sent after it
    EXPECT_NEAR(Rate(), kLine / 2 * 13 / 20, 1e3);
}

TEST_F(RttProbeSharedTest, GradientCutsByTheOverloadFactor)
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

TEST_F(RttProbeSharedTest, ShortSpansGiveNoGradient)
{
    // Samples 0.1 us apart (one packet time): their RTT difference is noise, the level
    // decides alone.
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(1));            // reference: sent at 0, 1 us
    Ack(NanoSeconds(1100), MicroSeconds(26)); // regular update, sent 1.1 us later
    EXPECT_NEAR(Rate(), kLine / 2, 1e3);
}

TEST_F(RttProbeSharedTest, NackHalvesOncePerEpisode)
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

TEST_F(RttProbeSharedTest, SlowClaimsIncreaseMultiplicatively)
{
    // A claim of 1 Gb/s (two MaxMd cuts from the line), sent at for 500 us, grows by
    // MiFactor (5% here, within the send-rate validation's 10%) per update while that is
    // below the AI cap (630 Mb/s).
    Make(1);
    cc->SetAttribute("MiFactor", DoubleValue(0.05));
    FirstSend(Time(0));
    Ack(Time(0), MilliSeconds(1));
    cc->OnSendEvent(CcSendEvent::SEND, 1024);
    Ack(MilliSeconds(1), MilliSeconds(1));
    ASSERT_NEAR(Rate(), 1e9, 1e3);
    const Time gap = NanoSeconds(int64_t(kWire * 8 / 1e9 * 1e9));
    const Time end = clock.now + MicroSeconds(500);
    while (clock.now < end)
    {
        clock.now += gap;
        cc->OnSendEvent(CcSendEvent::SEND, 1024);
    }
    Ack(clock.now - MicroSeconds(5), MicroSeconds(5));
    EXPECT_NEAR(Rate(), 1.05e9, 1e3);
}

TEST_F(RttProbeSharedTest, TheSharedClaimGrowsOnlyWhileTheGroupSendsIt)
{
    // A claim of 10 Gb/s (one MaxMd cut) that the group does not send stays put; once it
    // has sent at that rate for a while, the same sample raises it (by the AI cap, 630
    // Mb/s, less than MiFactor's 1 Gb/s).
    Make(1);
    FirstSend(Time(0));
    Ack(Time(0), MilliSeconds(1));
    ASSERT_NEAR(Rate(), 10e9, 1e3);
    const double claim = Rate();
    clock.now = MilliSeconds(2);
    Ack(MilliSeconds(2) - MicroSeconds(5), MicroSeconds(5)); // idle group: no increase
    EXPECT_NEAR(Rate(), claim, 1);
    // Send at the claim for 500 us, ten time constants of the send-rate estimate.
    const Time gap = NanoSeconds(int64_t(kWire * 8 / claim * 1e9));
    const Time end = clock.now + MicroSeconds(500);
    while (clock.now < end)
    {
        clock.now += gap;
        cc->OnSendEvent(CcSendEvent::SEND, 1024);
    }
    Ack(clock.now - MicroSeconds(5), MicroSeconds(5)); // sent while the group sent
    EXPECT_NEAR(Rate(), claim + kOneMtuPerT, 1e3);
}

// --- pacing by credit (shared claim) ---------------------------------------------------

TEST_F(RttProbeSharedTest, ACutHoldsBackEveryQpOfTheGroupAtOnce)
{
    // Two QPs at 50 Gb/s each. B sends a frame of W = kWire bytes at 0 (its next is due
    // after W / 6.25 ns). At 100 ns A's sample halves the claim: B has earned 625 bytes
    // and earns the remaining W - 625 at 25 Gb/s (3.125 bytes/ns), later than the gap.
    Make(2);
    cc->SetAttribute("PacingJitter", DoubleValue(0));
    Ptr<RttProbeShared> b = MakeSibling();
    b->SetAttribute("PacingJitter", DoubleValue(0));
    FirstSend(Time(0));
    b->OnSendEvent(CcSendEvent::FIRST_SEND);
    b->OnSendEvent(CcSendEvent::SEND, 1024);
    clock.now = NanoSeconds(100);
    CcAck a;
    a.rtt = MicroSeconds(26);
    cc->OnAck(a); // half
    clock.now = NanoSeconds(174);
    const double due = 100 + (kWire - 625) / 3.125;
    ASSERT_GT(due, 174 + 10);
    EXPECT_NEAR(b->PacingDelay(kWire).GetNanoSeconds(), due - 174, 1);
    clock.now = NanoSeconds(int64_t(std::ceil(due)));
    EXPECT_EQ(b->PacingDelay(kWire), Time(0));
}

TEST_F(RttProbeSharedTest, CreditIsEarnedAtTheShareInForce)
{
    // One QP of a group whose size doubles halfway through its gap: the second half of
    // the frame is earned at half the rate.
    Make(1);
    cc->SetAttribute("PacingJitter", DoubleValue(0));
    FirstSend(Time(0)); // 100 Gb/s: 12.5 bytes/ns
    clock.now = NanoSeconds(43);
    group.activeQps = 2;                         // from here 50 Gb/s
    cc->OnSendEvent(CcSendEvent::PEERS_CHANGED); // as the NIC calls it
    clock.now = NanoSeconds(87);
    const double due = 43 + (kWire - 43 * 12.5) / 6.25; // the rest at 6.25 bytes/ns
    EXPECT_NEAR(cc->PacingDelay(kWire).GetNanoSeconds(), due - 87, 1);
}

TEST_F(RttProbeSharedTest, ANewcomersFirstPacketWaitsAtMostOneGap)
{
    // 1,000 QPs at 100 Mb/s: the gap is kWire x 80 ns; a newcomer's first packet goes at
    // a random point of it, the same point when asked again.
    Make(1000);
    const double gapNs = kWire * 80;
    std::vector<Ptr<RttProbeShared>> qps;
    double sum = 0;
    for (int i = 0; i < 200; ++i)
    {
        qps.push_back(MakeSibling());
        const Time d = qps.back()->PacingDelay(0);
        EXPECT_LE(d.GetNanoSeconds(), gapNs + 1);
        EXPECT_EQ(qps.back()->PacingDelay(0), d);
        sum += d.GetNanoSeconds();
    }
    EXPECT_NEAR(sum / 200, gapNs / 2, gapNs * 0.1); // uniform: the mean is half a gap
}

TEST_F(RttProbeSharedTest, JitterKeepsTheMeanRate)
{
    // One of 1,000 QPs (100 Mb/s, a gap of kWire x 80 ns) sending whenever its credit
    // allows, with PacingJitter 0.5: 2,000 frames take 2,000 gaps within 2%.
    Make(1000);
    FirstSend(Time(0));
    const Time start = clock.now;
    for (int i = 0; i < 2000; ++i)
    {
        clock.now += cc->PacingDelay(kWire);
        cc->OnSendEvent(CcSendEvent::SEND, 1024);
    }
    const double gaps = (clock.now - start).GetNanoSeconds() / (kWire * 80);
    EXPECT_NEAR(gaps, 2000, 40);
}

TEST_F(RttProbeSharedTest, OnlyASharedClaimAsksForRechecks)
{
    // A shared claim changes with its siblings' samples, so a waiting QP must look again
    // within PacingRecheck; without a peer group (one controller per destination) a rise
    // reaches the NIC with its ACK (RdmaNic::Repace) and every gap is its own credit.
    Make(1);
    EXPECT_EQ(cc->PacingRecheck(), MicroSeconds(50));
    EXPECT_FALSE(cc->PacesByCredit());
    Make(1, false);
    EXPECT_EQ(cc->PacingRecheck(), Time::Max());
    EXPECT_TRUE(cc->PacesByCredit());
}

// --- flow-scaled target ----------------------------------------------------------------

TEST_F(RttProbeSharedTest, TargetIsTheBaseAboveOneMtuPerRtt)
{
    Make(1);
    FirstSend(Time(0));
    EXPECT_EQ(cc->GetTargetRtt(), MicroSeconds(13));
}

TEST_F(RttProbeSharedTest, TargetGrowsPerHalvingBelowOneMtuPerRtt)
{
    // 1,024 QPs sharing the line: 97.7 Mb/s each, log2(630 / 97.7) = 2.69 halvings below
    // the knee: 13 + 4 x 2.69 = 23.8 us. A QP below its peers aims higher and gains.
    Make(1024);
    FirstSend(Time(0));
    const double halvings = std::log2(kOneMtuPerT / (kLine / 1024));
    EXPECT_NEAR(cc->GetTargetRtt().GetNanoSeconds() / 1e3, 13 + 4 * halvings, 0.01);
}

TEST_F(RttProbeSharedTest, FlowScalingIsBounded)
{
    // 16,384 QPs at the rate floor (6.1 Mb/s): 6.7 halvings would add 27 us; with
    // FlowScaleMax 16 us the target stops at 29 us.
    Make(16384);
    cc->SetAttribute("FlowScaleMax", TimeValue(MicroSeconds(16)));
    FirstSend(Time(0));
    EXPECT_EQ(cc->GetTargetRtt(), MicroSeconds(29));
}

// --- probes ----------------------------------------------------------------------------

TEST_F(RttProbeSharedTest, NoProbeWhileDataFeedbackFlows)
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

TEST_F(RttProbeSharedTest, ProbesWhenFeedbackIsOverdueAndItsAgeBoundsTheRate)
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

TEST_F(RttProbeSharedTest, SamplingTheRateChangesNothing)
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

TEST_F(RttProbeSharedTest, NeverBelowThePerQpFloor)
{
    Make(1000);
    FirstSend(Time(0));
    for (int i = 0; i < 50; ++i)
    {
        Ack(MicroSeconds(1000 * i), MilliSeconds(1));
    }
    EXPECT_NEAR(Rate(), kLine / 16384, 1);
}

// --- without a peer group (RateLimitPerDestination) ------------------------------------

TEST_F(RttProbeSharedTest, WithoutAPeerGroupOnePacketUntilTheFirstSample)
{
    Make(1, false);
    FirstSend(Time(0));
    EXPECT_EQ(Rate(), kLine);
    EXPECT_EQ(cc->GetWindow(), 1024u);
    Ack(Time(0), MicroSeconds(5));
    EXPECT_EQ(cc->GetWindow(), 0u);
}

TEST_F(RttProbeSharedTest, WithoutAPeerGroupTheFirstSampleReadsTheRateOfItsTarget)
{
    // 21 us is the flow-scaled target of the rate two halvings below one MTU per T.
    Make(1, false);
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(21));
    EXPECT_NEAR(Rate(), kOneMtuPerT / 4, 1);
}

TEST_F(RttProbeSharedTest, WithoutAPeerGroupTheIncreaseIsAdditiveInTime)
{
    // First sample below the target (the line is kept), a cut to half (no gradient), then
    // a sample 10 us after that update: + one MTU per T per T, for 10 us.
    Make(1, false);
    cc->SetAttribute("GradientSpan", TimeValue(Time(0)));
    FirstSend(Time(0));
    Ack(Time(0), MicroSeconds(10));
    Ack(MicroSeconds(10), MicroSeconds(26));
    ASSERT_NEAR(Rate(), kLine / 2, 1e3);
    Ack(MicroSeconds(36), MicroSeconds(10));
    EXPECT_NEAR(Rate(), kLine / 2 + kOneMtuPerT * 10 / 13, 1e3);
}

} // namespace
