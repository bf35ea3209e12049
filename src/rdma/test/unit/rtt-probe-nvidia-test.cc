/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of NVIDIA's RTT sample algorithm (RttProbeNvidia, the published reference of
 * the RTT-probe no-PFC controller), driven by a fake clock (no simulation).
 *
 * Specification (docs/design.md, "RTT-probe", reference
 * parameterisation of NVIDIA's RTT sample algorithm, rates relative to line rate):
 *  - the controller asks for an RTT probe about once per RTT, one outstanding; it asks
 *    again after the NIC reports a timeout;
 *  - start at line rate; per probe answer: rtt >= HighRtt (150 us): x0.8; rtt > target
 *    (13 us): x0.9; else + 5% of line rate; a NACK halves the rate; rate within
 *    [line / 2^14, line].
 * Module choices (rtt-probe-nvidia.h):
 *  - ProbeInterval 0 = the target RTT: a probe at most every 13 us, sent to sent;
 *  - NACK: Immediate mode, one cut per loss episode (NACKs before everything sent up to
 *    the cutting NACK is acknowledged are the same episode); OnHighRtt mode (NVIDIA):
 *    the NACK waits for a sample >= HighRtt and replaces its x0.8 by x0.5;
 *  - LateProbeDecrease (default on): a probe still out after k target RTTs stands for k
 *    samples above the target (k-th applied once elapsed > k x 13 us, x0.8 from the
 *    first k with k x 13 us >= 150 us, i.e. k = 12, which is also the last one), so
 *    answers within 2 x 13 us count exactly as in the reference rule.
 *
 * Line rate 100 Gb/s, base RTT 4.2 us (the 1 us star: 4 x 1 us + serialization).
 * Rates are doubles returned truncated to whole bit/s: EXPECT_NEAR(.., 2).
 */

#include "fake-cc-clock.h"

#include "ns3/core-module.h"
#include "ns3/rtt-probe-nvidia.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <string>

using namespace ns3;

namespace
{

constexpr double kLine = 100e9;  // bit/s
constexpr double kRateTol = 2.0; // bit/s, see header

using rdmatest::FakeClock;

class RttProbeNvidiaTest : public ::testing::Test
{
  protected:
    void Make(const std::map<std::string, std::string>& attributes = {},
              Time baseRtt = NanoSeconds(4200))
    {
        cc = CreateObject<RttProbeNvidia>();
        for (const auto& [name, value] : attributes)
        {
            cc->SetAttribute(name, StringValue(value));
        }
        clock.now = Time(0);
        CcContext ctx;
        ctx.lineRate = static_cast<uint64_t>(kLine);
        ctx.baseRtt = baseRtt;
        ctx.mtu = 1024;
        ctx.hops = 2;
        ctx.fabricBaseRtt = ctx.baseRtt;
        ctx.clock = &clock;
        cc->Init(ctx);
    }

    double RateAt(Time t)
    {
        clock.now = t;
        return double(cc->GetRate());
    }

    /// The NIC's sequence for one probe: asked for at \p sent, answered after \p rtt.
    void Probe(Time sent, Time rtt)
    {
        clock.now = sent;
        ASSERT_TRUE(cc->WantsProbe());
        clock.now = sent + rtt;
        cc->OnProbeResponse(rtt);
    }

    /// The NIC's sequence for a NACK: OnAck with the cumulative ACK and the sender's
    /// next PSN, then OnNack.
    void Nack(Time t, uint32_t ackPsn, uint32_t sndNxt)
    {
        clock.now = t;
        CcAck ack;
        ack.ackPsn = ackPsn;
        ack.sndNxt = sndNxt;
        cc->OnAck(ack);
        cc->OnNack();
    }

    FakeClock clock;
    Ptr<RttProbeNvidia> cc;
};

// --- probing ---------------------------------------------------------------------

TEST_F(RttProbeNvidiaTest, IsNamedAndAsksOnlyForAcksAndProbes)
{
    Make();
    EXPECT_EQ(cc->GetName(), "rtt-probe-nvidia");
    EXPECT_EQ(cc->ImplementedHooks(), CongestionControl::HOOK_ACK | CongestionControl::HOOK_PROBE);
}

TEST_F(RttProbeNvidiaTest, StartsAtLineRate)
{
    Make();
    EXPECT_EQ(RateAt(Time(0)), kLine);
}

TEST_F(RttProbeNvidiaTest, AsksForAProbeAtOnce)
{
    // Nothing is known about the path yet: the first packet is preceded by a probe.
    Make();
    EXPECT_TRUE(cc->WantsProbe());
}

TEST_F(RttProbeNvidiaTest, OneProbeOutstanding)
{
    // Asked at 0, neither answered nor timed out: no second probe, however long after
    // (1 ms is 77 probe intervals).
    Make();
    ASSERT_TRUE(cc->WantsProbe());
    for (Time t : {NanoSeconds(1), MicroSeconds(13), MicroSeconds(100), MilliSeconds(1)})
    {
        clock.now = t;
        EXPECT_FALSE(cc->WantsProbe()) << t;
    }
}

TEST_F(RttProbeNvidiaTest, AtMostOneProbePerIntervalDefaultIsTargetRtt)
{
    // ProbeInterval 0 = the target RTT, 13 us: answered after 5 us, the next probe may
    // leave 13 us after the previous one left, not before.
    Make();
    EXPECT_EQ(cc->GetProbeInterval(), MicroSeconds(13));
    Probe(Time(0), MicroSeconds(5));
    clock.now = MicroSeconds(13) - NanoSeconds(1);
    EXPECT_FALSE(cc->WantsProbe());
    clock.now = MicroSeconds(13);
    EXPECT_TRUE(cc->WantsProbe());
}

TEST_F(RttProbeNvidiaTest, AtMostOneProbePerGivenInterval)
{
    Make({{"ProbeInterval", "20us"}});
    Probe(MicroSeconds(3), MicroSeconds(5));
    clock.now = MicroSeconds(23) - NanoSeconds(1);
    EXPECT_FALSE(cc->WantsProbe());
    clock.now = MicroSeconds(23);
    EXPECT_TRUE(cc->WantsProbe());
}

TEST_F(RttProbeNvidiaTest, ProbesBackToBackWhenTheRttExceedsTheInterval)
{
    // One per RTT: answered after 20 us > 13 us, the next probe may leave at once.
    Make();
    Probe(Time(0), MicroSeconds(20));
    EXPECT_TRUE(cc->WantsProbe());
}

TEST_F(RttProbeNvidiaTest, AsksAgainAfterProbeTimeout)
{
    // The NIC's probe timeout (300 us) fired: the next packet may carry a new probe.
    Make();
    ASSERT_TRUE(cc->WantsProbe());
    clock.now = MicroSeconds(300);
    cc->OnProbeTimeout();
    EXPECT_FALSE(cc->IsProbeOutstanding());
    EXPECT_TRUE(cc->WantsProbe());
}

// --- rate rules on answers (reference rule) --------------------------------------

TEST_F(RttProbeNvidiaTest, DecreaseAboveTarget)
{
    // 20 us > 13 us target (and < 2 x 13 us: one sample in both modes): x0.9.
    Make();
    Probe(Time(0), MicroSeconds(20));
    EXPECT_NEAR(RateAt(MicroSeconds(20)), 0.9 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, DecreaseAboveTargetAbsoluteDefault)
{
    // The default target is 13 us absolute (NVIDIA BASE_RTT), whatever the base RTT:
    // with a 2 us base, a 14 us answer is above it and cuts (x0.9), while a 12 us answer,
    // six times the base, is below it and increases (90 + 5 = 95 Gb/s).
    Make({}, MicroSeconds(2));
    EXPECT_EQ(cc->GetTargetRtt(), MicroSeconds(13));
    Probe(Time(0), MicroSeconds(14));
    EXPECT_NEAR(RateAt(MicroSeconds(14)), 0.9 * kLine, kRateTol);
    Probe(MicroSeconds(14), MicroSeconds(12));
    EXPECT_NEAR(RateAt(MicroSeconds(26)), 0.95 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, RttEqualToTargetIsNotAbove)
{
    // After one cut (90 Gb/s), an answer of exactly 13 us increases: 90 + 5 = 95 Gb/s.
    Make();
    Probe(Time(0), MicroSeconds(20));
    Probe(MicroSeconds(20), MicroSeconds(13));
    EXPECT_NEAR(RateAt(MicroSeconds(33)), 0.95 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, StrongerDecreaseAtHighRtt)
{
    // Reference rule (LateProbeDecrease off): one answer of 150 us (>= HighRtt): x0.8.
    Make({{"LateProbeDecrease", "false"}});
    Probe(Time(0), MicroSeconds(150));
    EXPECT_NEAR(RateAt(MicroSeconds(150)), 0.8 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, JustBelowHighRttIsTheNormalDecrease)
{
    Make({{"LateProbeDecrease", "false"}});
    Probe(Time(0), MicroSeconds(150) - NanoSeconds(1));
    EXPECT_NEAR(RateAt(MicroSeconds(150)), 0.9 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, AdditiveIncreaseBelowTarget)
{
    // 100 -> 90 (20 us), then 5 us < 13 us: + 5% of line = 95 Gb/s.
    Make();
    Probe(Time(0), MicroSeconds(20));
    Probe(MicroSeconds(20), MicroSeconds(5));
    EXPECT_NEAR(RateAt(MicroSeconds(25)), 0.95 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, AiStepIsAFractionOfLineRate)
{
    // AiStep 0.01: 90 + 1 = 91 Gb/s.
    Make({{"AiStep", "0.01"}});
    Probe(Time(0), MicroSeconds(20));
    Probe(MicroSeconds(20), MicroSeconds(5));
    EXPECT_NEAR(RateAt(MicroSeconds(25)), 0.91 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, NeverAboveLineRate)
{
    // At line rate, an answer below the target leaves it at line rate (100 + 5 clamped).
    Make();
    Probe(Time(0), MicroSeconds(5));
    EXPECT_EQ(RateAt(MicroSeconds(5)), kLine);
}

TEST_F(RttProbeNvidiaTest, NeverBelowTheFloor)
{
    // 20 NACKs cutting each (episodes off): 100G x 2^-20 < line / 2^14 = 6103515.625
    // bit/s: clamped to the floor.
    Make({{"NackOncePerEpisode", "false"}});
    for (int i = 0; i < 20; ++i)
    {
        Nack(MicroSeconds(i), 0, 100);
    }
    EXPECT_NEAR(RateAt(MicroSeconds(20)), kLine / 16384, kRateTol);
}

// --- NACK --------------------------------------------------------------------------

TEST_F(RttProbeNvidiaTest, NackHalvesAtOnce)
{
    Make();
    Nack(MicroSeconds(1), 10, 50);
    EXPECT_NEAR(RateAt(MicroSeconds(1)), 0.5 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, NacksOfOneEpisodeCutOnce)
{
    // Cut at a NACK with PSNs up to 49 sent; NACKs while the cumulative ACK is below 50
    // report the same episode (selective repeat NACKs every packet behind a hole).
    Make();
    Nack(MicroSeconds(1), 10, 50);
    Nack(MicroSeconds(2), 10, 60);
    Nack(MicroSeconds(30), 49, 90);
    EXPECT_NEAR(RateAt(MicroSeconds(30)), 0.5 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, NackAfterTheEpisodeCutsAgain)
{
    // Everything up to PSN 49 acknowledged (ACK PSN 50): a new loss, 50 -> 25 Gb/s.
    Make();
    Nack(MicroSeconds(1), 10, 50);
    Nack(MicroSeconds(40), 50, 90);
    EXPECT_NEAR(RateAt(MicroSeconds(40)), 0.25 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, EveryNackCutsWithoutEpisodes)
{
    Make({{"NackOncePerEpisode", "false"}});
    Nack(MicroSeconds(1), 10, 50);
    Nack(MicroSeconds(2), 10, 60);
    EXPECT_NEAR(RateAt(MicroSeconds(2)), 0.25 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, NackFactorIsAnAttribute)
{
    Make({{"NackFactor", "0.7"}});
    Nack(MicroSeconds(1), 10, 50);
    EXPECT_NEAR(RateAt(MicroSeconds(1)), 0.7 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, OnHighRttNackWaitsForAHighSample)
{
    // NVIDIA mode: the NACK alone changes nothing; a 20 us answer is the normal x0.9 and
    // leaves the NACK pending; a 150 us answer then applies x0.5 instead of x0.8:
    // 100 x 0.9 x 0.5 = 45 Gb/s.
    Make({{"NackMode", "OnHighRtt"}, {"LateProbeDecrease", "false"}});
    Nack(MicroSeconds(1), 10, 50);
    EXPECT_EQ(RateAt(MicroSeconds(1)), kLine);
    Probe(MicroSeconds(2), MicroSeconds(20));
    EXPECT_NEAR(RateAt(MicroSeconds(22)), 0.9 * kLine, kRateTol);
    Probe(MicroSeconds(40), MicroSeconds(150));
    EXPECT_NEAR(RateAt(MicroSeconds(190)), 0.45 * kLine, kRateTol);
}

// --- late probes -----------------------------------------------------------------

TEST_F(RttProbeNvidiaTest, LateProbeDecreasesOncePerTargetRttWaited)
{
    // Probe out at 0: nothing at 13 us (not above the target), x0.9 just after, x0.81
    // just after 26 us, each seen by the NIC's next GetRate().
    Make();
    ASSERT_TRUE(cc->WantsProbe());
    EXPECT_EQ(RateAt(MicroSeconds(13)), kLine);
    EXPECT_NEAR(RateAt(MicroSeconds(13) + NanoSeconds(1)), 0.9 * kLine, kRateTol);
    EXPECT_NEAR(RateAt(MicroSeconds(26) + NanoSeconds(1)), 0.81 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, LateAnswerAddsOnlyWhatIsStillDue)
{
    // Two decreases applied while waiting (27 us); the answer at 30 us stands for the
    // same two (13 and 26 < 30): no third.
    Make();
    ASSERT_TRUE(cc->WantsProbe());
    ASSERT_NEAR(RateAt(MicroSeconds(27)), 0.81 * kLine, kRateTol);
    clock.now = MicroSeconds(30);
    cc->OnProbeResponse(MicroSeconds(30));
    EXPECT_NEAR(RateAt(MicroSeconds(30)), 0.81 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, LateAnswerCountsOncePerTargetRtt)
{
    // No GetRate() while waiting: the 30 us answer applies both decreases at once.
    Make();
    Probe(Time(0), MicroSeconds(30));
    EXPECT_NEAR(RateAt(MicroSeconds(30)), 0.81 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, LateDecreasesStopAtHighRtt)
{
    // k x 13 us < 150 us for k = 1..11 (x0.9 each); k = 12 (156 us) is the high-RTT
    // decrease (x0.8) and the last one a probe stands for, however long it is out.
    Make();
    ASSERT_TRUE(cc->WantsProbe());
    const double expected = std::pow(0.9, 11) * 0.8 * kLine;
    EXPECT_NEAR(RateAt(MicroSeconds(157)), expected, kRateTol);
    EXPECT_NEAR(RateAt(MicroSeconds(299)), expected, kRateTol);
}

TEST_F(RttProbeNvidiaTest, ProbeTimeoutAppliesTheLateDecreases)
{
    // Timeout at 300 us with no GetRate() in between: the 12 decreases are applied.
    Make();
    ASSERT_TRUE(cc->WantsProbe());
    clock.now = MicroSeconds(300);
    cc->OnProbeTimeout();
    EXPECT_NEAR(RateAt(MicroSeconds(300)), std::pow(0.9, 11) * 0.8 * kLine, kRateTol);
}

TEST_F(RttProbeNvidiaTest, ProbeTimeoutIsNoSignalInTheReferenceRule)
{
    Make({{"LateProbeDecrease", "false"}});
    ASSERT_TRUE(cc->WantsProbe());
    clock.now = MicroSeconds(300);
    cc->OnProbeTimeout();
    EXPECT_EQ(RateAt(MicroSeconds(300)), kLine);
}

// --- targets and ACK RTTs --------------------------------------------------------

TEST_F(RttProbeNvidiaTest, BasePlusMarginTarget)
{
    // Target = base RTT 4.2 us + margin 9 us = 13.2 us; the probe interval follows it.
    Make({{"TargetMode", "BasePlusMargin"}});
    EXPECT_EQ(cc->GetTargetRtt(), NanoSeconds(13200));
    EXPECT_EQ(cc->GetProbeInterval(), NanoSeconds(13200));
}

TEST_F(RttProbeNvidiaTest, AckRttsIgnoredByDefault)
{
    Make();
    clock.now = MicroSeconds(100);
    CcAck ack;
    ack.rtt = MicroSeconds(100);
    cc->OnAck(ack);
    EXPECT_EQ(RateAt(MicroSeconds(100)), kLine);
}

TEST_F(RttProbeNvidiaTest, AckRttsFeedTheRuleOncePerRtt)
{
    // UseAckRtt: an ACK RTT of 20 us at 20 us (one max(13, 20) us after Init) is a sample
    // (x0.9); a second one 1 us later is inside that RTT and ignored.
    Make({{"UseAckRtt", "true"}});
    CcAck ack;
    ack.rtt = MicroSeconds(20);
    clock.now = MicroSeconds(20);
    cc->OnAck(ack);
    clock.now = MicroSeconds(21);
    cc->OnAck(ack);
    EXPECT_NEAR(RateAt(MicroSeconds(21)), 0.9 * kLine, kRateTol);
}

} // namespace
