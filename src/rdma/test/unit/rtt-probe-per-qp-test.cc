/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of RttProbe's per-QP mode (Preset Scalable, ShareWithPeers false: each QP
 * its own rate from its own samples, rtt-probe.h) and of the NIC's start budget, one rule
 * each, on a fake clock with a fake NIC (CcPeerGroup, CcNicGroup). The shared-claim rules
 * are in rtt-probe-scalable-test.cc.
 *
 * The fake NIC and the defaults used are in rtt-probe-per-qp-fixture.h. A QP here has
 * siblings on its NIC unless a test says otherwise; a QP alone on its NIC and the older
 * samples are in rtt-probe-alone-test.cc.
 */

#include "rtt-probe-per-qp-fixture.h"

#include "ns3/rtt-probe-start-budget.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;
using namespace rdmatest;

namespace
{

// --- the NIC's start budget ------------------------------------------------------------

TEST(RttProbeStartBudget, ABurstLeavesAtOnceThenOnePacketPerPacketTimeAtItsRate)
{
    // 1 Gb/s, two packets deep: two leave at once, the third one packet time later, the
    // fourth two, in the order asked.
    RttProbeStartBudget budget(1e9, 2 * kWire);
    const Time t = MicroSeconds(100);
    EXPECT_EQ(budget.Reserve(t, uint32_t(kWire)), t);
    EXPECT_EQ(budget.Reserve(t, uint32_t(kWire)), t);
    const double packet = PacketTime(1e9);
    EXPECT_NEAR((budget.Reserve(t, uint32_t(kWire)) - t).GetSeconds(), packet, 2e-9);
    EXPECT_NEAR((budget.Reserve(t, uint32_t(kWire)) - t).GetSeconds(), 2 * packet, 3e-9);
}

TEST(RttProbeStartBudget, RefillsAtItsRateUpToItsDepth)
{
    // Emptied, then idle for one packet time: one packet leaves at once, the next waits.
    RttProbeStartBudget budget(1e9, 2 * kWire);
    for (int i = 0; i < 2; ++i)
    {
        budget.Reserve(Time(0), uint32_t(kWire));
    }
    const Time later = NanoSeconds(int64_t(std::ceil(PacketTime(1e9) * 1e9)));
    EXPECT_EQ(budget.Reserve(later, uint32_t(kWire)), later);
    EXPECT_GT(budget.Reserve(later, uint32_t(kWire)), later);
    // Idle for a long time, it holds only its depth: two at once, not more.
    const Time much = MilliSeconds(1);
    EXPECT_EQ(budget.Reserve(much, uint32_t(kWire)), much);
    EXPECT_EQ(budget.Reserve(much, uint32_t(kWire)), much);
    EXPECT_GT(budget.Reserve(much, uint32_t(kWire)), much);
}

// --- start: first packet, first rate, first sample -------------------------------------

TEST_F(RttProbePerQpTest, QpsStartingTogetherOnANicAreSpreadAtTheStartShare)
{
    // With a budget one packet deep, the NIC's second new QP waits one packet time at
    // StartShare x line (1/32: 3.125 Gb/s), the third two.
    Ptr<RttProbe> a = Make(3, 3);
    a->SetAttribute("StartBurst", UintegerValue(uint32_t(kWire)));
    Ptr<RttProbe> b = Make(3, 3);
    Ptr<RttProbe> c = Make(3, 3);
    EXPECT_EQ(a->PacingDelay(0), Time(0));
    const double packet = PacketTime(kLine / 32);
    EXPECT_NEAR(b->PacingDelay(0).GetSeconds(), packet, 2e-9);
    EXPECT_NEAR(c->PacingDelay(0).GetSeconds(), 2 * packet, 3e-9);
    // Asked again when its turn comes, a QP keeps its reservation.
    clock.now = b->PacingDelay(0);
    EXPECT_EQ(b->PacingDelay(0), Time(0));
}

TEST_F(RttProbePerQpTest, OneOfSeveralQpsSendsOnePacketThenWaitsForItsFirstSample)
{
    Ptr<RttProbe> c = Make(2, 2);
    EXPECT_EQ(c->GetWindow(), 1024u);
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(5), 0);
    EXPECT_EQ(c->GetWindow(), 0u); // no window once it knows its path
}

TEST_F(RttProbePerQpTest, AQpAloneToItsDestinationStartsWithTheInitialWindow)
{
    // Alone (of its NIC's QPs) to its destination, a QP may send InitialWindow (16 KB)
    // before its first sample: a 16 KB message does not wait a round trip per packet.
    Ptr<RttProbe> c = Make(1, 3);
    EXPECT_EQ(c->GetWindow(), 16384u);
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(5), 0);
    EXPECT_EQ(c->GetWindow(), 0u);
}

TEST_F(RttProbePerQpTest, ItsSecondPacketWaitsAGapAtTheRateItsFirstSampleGave)
{
    // One of two QPs: its first rate is half the line, and over the 33 us it waits for
    // its first sample it earns 200 KB of credit at that rate. The sample (33 us, the
    // target of 1/32 of one MTU per 13 us) gives it 19.7 Mb/s: its second packet is due
    // one packet's gap at that rate after its first, 449 us, not at once.
    Ptr<RttProbe> c = Make(2, 2);
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(33), 0);
    const double r = c->GetRate();
    ASSERT_NEAR(r, 8.0 * 1024 / 13e-6 / 32, 1);
    EXPECT_NEAR(c->PacingDelay(uint32_t(kWire)).GetSeconds(), PacketTime(r) - 33e-6, 2e-9);
}

TEST_F(RttProbePerQpTest, ItsFirstRateIsTheLineOverItsNicsQpsToTheDestination)
{
    Ptr<RttProbe> c = Make(250, 1000); // 250 to this destination, 1,000 in all
    Send(c, true);
    EXPECT_NEAR(double(c->GetRate()), kLine / 250, 1);
}

TEST_F(RttProbePerQpTest, AFirstSampleOnAnEmptyPathGivesOneOfSeveralQpsOnePacketPerRtt)
{
    // One of two QPs to the destination: its first rate is half the line; its first
    // window of one packet took 5 us, so it goes on at one packet per 5 us.
    Ptr<RttProbe> c = Make(2, 2);
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(5), 0);
    EXPECT_NEAR(double(c->GetRate()), kWire * 8 / 5e-6, 1e3);
}

TEST_F(RttProbePerQpTest, AFirstSampleOnAnEmptyPathLeavesAQpAloneToItsDestinationAtItsFirstRate)
{
    // Alone to its destination (whatever else its NIC sends), its first rate is the line,
    // and an empty path keeps it there.
    Ptr<RttProbe> c = Make(1, 1000);
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(5), 0);
    EXPECT_EQ(double(c->GetRate()), kLine);
}

TEST_F(RttProbePerQpTest, AFirstSampleAtEquilibriumGivesTheRateWhoseTargetItIs)
{
    // The QPs already there sit at their flow-scaled target: 13 us + 4 us per halving
    // below 630 Mb/s. A sample of 13 + 4 x 5 = 33 us is the target of 630 / 32 Mb/s.
    Ptr<RttProbe> c = Make(10, 10);
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(33), 0);
    const double expected = 8.0 * 1024 / 13e-6 / 32;
    EXPECT_NEAR(double(c->GetRate()), expected, expected * 1e-6);
    EXPECT_NEAR(c->GetTargetRtt().GetNanoSeconds(), 33000, 1); // its target is that RTT
}

// --- pacing by its own credit ----------------------------------------------------------

TEST_F(RttProbePerQpTest, ACutActsOnTheQpsNextPacket)
{
    // At 19.7 Mb/s (its first sample: 33 us) a packet's gap is 443 us. Halved by the ACK
    // of its next packet 66 us after it left (twice its 33 us target), the gap being
    // waited becomes 66 us at the old rate, then the rest of the packet at half of it.
    Ptr<RttProbe> c = Make();
    c->SetAttribute("GradientSpan", TimeValue(Time(0))); // the level rule alone
    c->SetAttribute("QpLevelGain", DoubleValue(1));      // rate x target / rtt
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(33), 0);
    const double r = c->GetRate();
    ASSERT_NEAR(r, 8.0 * 1024 / 13e-6 / 32, 1);
    const Time sent = clock.now;
    Send(c);
    EXPECT_NEAR(c->PacingDelay(uint32_t(kWire)).GetSeconds(), PacketTime(r), 2e-9);
    Ack(c, sent, MicroSeconds(66));
    ASSERT_NEAR(double(c->GetRate()), r / 2, r * 1e-6);
    const double earned = r / 8 * 66e-6;
    EXPECT_NEAR(c->PacingDelay(uint32_t(kWire)).GetSeconds(), (kWire - earned) * 8 / (r / 2), 2e-9);
}

TEST_F(RttProbePerQpTest, AQpIdleForIdleRestartSendsAtOnce)
{
    // At 10 Mb/s its gap is 0.87 ms. Drained (it sent all it had) at 1 ms, a message
    // posted 10 us later leaves at once from the start budget; one posted 5 us later
    // waits for its credit.
    for (const double idleUs : {5.0, 10.0})
    {
        Ptr<RttProbe> c = Make(1, 1);
        clock.now = Time(0);
        Send(c, true);
        Ack(c, Time(0), MicroSeconds(13 + 4 * 6), 0); // 630 / 64 Mb/s: ~9.8 Mb/s
        clock.now = MilliSeconds(1);
        Send(c);
        c->OnDrained();
        clock.now = MilliSeconds(1) + MicroSeconds(idleUs);
        const Time wait = c->PacingDelay(uint32_t(kWire));
        if (idleUs < 10)
        {
            EXPECT_GT(wait, MicroSeconds(500)) << "idle " << idleUs << " us";
        }
        else
        {
            EXPECT_EQ(wait, Time(0)) << "idle " << idleUs << " us";
        }
        nic.shared = nullptr; // a fresh NIC for the next case
    }
}

// --- rate rules ------------------------------------------------------------------------

TEST_F(RttProbePerQpTest, BelowTheTargetASurgeCuts)
{
    // Its first packet, sent at 0, took 4 us; its second, sent at 4 us (at its rate, one
    // packet per 4 us), takes 12: the queue grew 8 us in 4 us of sending, 2 s per s, so
    // the senders offer three times what it drains: rate / 3, though 12 us is below the
    // 13 us target. A slower growth (0.5 s per s) raises the rate instead.
    for (const double grownUs : {8.0, 2.0})
    {
        Ptr<RttProbe> c = Make(2, 2); // one of two QPs: one packet per first RTT
        c->SetAttribute("QpIncreaseDamping", DoubleValue(0)); // the surge rule alone
        clock.now = Time(0);
        Send(c, true);
        Ack(c, Time(0), MicroSeconds(4), 0);
        const double r = c->GetRate();
        ASSERT_NEAR(r, kWire * 8 / 4e-6, 1e3);
        Send(c);
        Ack(c, MicroSeconds(4), MicroSeconds(4 + grownUs));
        if (grownUs / 4 >= 1)
        {
            EXPECT_NEAR(double(c->GetRate()), r / (1 + grownUs / 4), r * 1e-6);
        }
        else
        {
            EXPECT_GT(double(c->GetRate()), r);
        }
        nic.shared = nullptr;
    }
}

TEST_F(RttProbePerQpTest, TheIncreaseGrowsWithTheTimeSinceTheLastUpdate)
{
    // Two QPs at the same rate and RTT below the target, one updated 100 us after its
    // last update, the other 400 us after: the second's multiplicative step is 4x
    // (MiFactor x (T - rtt) / rtt per MiPeriod), so a QP that samples more often (a
    // faster one) grows no faster per unit of time.
    double gain[2];
    const Time since[2] = {MicroSeconds(100), MicroSeconds(400)};
    for (int i = 0; i < 2; ++i)
    {
        Ptr<RttProbe> c = Make(1, 2);
        c->SetAttribute("AiRate", DoubleValue(0)); // the multiplicative part alone
        clock.now = Time(0);
        Send(c, true);
        Ack(c, Time(0), MicroSeconds(37), 0); // 630 / 64 Mb/s, target 37 us
        const double r = c->GetRate();
        const Time last = clock.now;
        clock.now = last + since[i] - MicroSeconds(8);
        Send(c);
        Ack(c, clock.now, MicroSeconds(8));
        gain[i] = c->GetRate() / r - 1;
        nic.shared = nullptr;
    }
    EXPECT_NEAR(gain[1], 4 * gain[0], gain[0] * 1e-3);
    // 0.1 x (37 - 8) / 8 x 100 / 500 = 7.25%
    EXPECT_NEAR(gain[0], 0.1 * 29.0 / 8 * 100 / 500, 1e-4);
}

TEST_F(RttProbePerQpTest, TheAdditiveIncreaseIsTheNicsAiRateSplitAmongItsQps)
{
    // AiRate 2 Gb/s per ms: 20 us after its last update a QP of a NIC with 2 QPs adds
    // 20 Mb/s, one of a NIC with 100 QPs 0.4 Mb/s.
    for (const uint32_t n : {2u, 100u})
    {
        Ptr<RttProbe> c = Make(1, n);
        c->SetAttribute("MiFactor", DoubleValue(0)); // the additive part alone
        clock.now = Time(0);
        Send(c, true);
        Ack(c, Time(0), MicroSeconds(37), 0);
        const double r = c->GetRate();
        const Time last = clock.now;
        clock.now = last + MicroSeconds(20) - MicroSeconds(8);
        Send(c);
        Ack(c, clock.now, MicroSeconds(8));
        EXPECT_NEAR(c->GetRate() - r, 2e12 * 20e-6 / n, 1e3) << n << " QPs";
        nic.shared = nullptr;
    }
}

TEST_F(RttProbePerQpTest, ACutActsOnWhatTheQpSentNotOnARateItsNicDidNotLetItUse)
{
    // Its rate is 1.74 Gb/s (one of two QPs, one packet per its first RTT, 5 us), but
    // its NIC let its last two packets go 87 us apart (0.1 Gb/s). A sample of twice the
    // target (no flow scaling, no gradient here, a level gain of 1) halves what it sent:
    // 0.05 Gb/s.
    Ptr<RttProbe> c = Make(2, 2);
    c->SetAttribute("FlowScaleStep", TimeValue(Time(0)));
    c->SetAttribute("GradientSpan", TimeValue(Time(0)));
    c->SetAttribute("QpLevelGain", DoubleValue(1));
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(5), 0);
    clock.now = MicroSeconds(10);
    Send(c);
    const double used = kWire * 8 / 87e-6;
    clock.now = MicroSeconds(97);
    Send(c);
    Ack(c, MicroSeconds(97), MicroSeconds(26));
    EXPECT_NEAR(double(c->GetRate()), used / 2, used * 1e-3);
}

TEST_F(RttProbePerQpTest, ACutReadsWhatTheQpSentThroughItsPacingJitter)
{
    // With PacingJitter each packet's price is its wire size x (1 + u): a gap that a
    // jittered price made longer is the QP's rate, not a lower one. Sent when its credit
    // allows, whatever the draw, a sample of twice the target halves the rate itself.
    for (const uint32_t seed : {1u, 2u, 3u})
    {
        RngSeedManager::SetRun(seed);
        Ptr<RttProbe> c = Make(2, 2);
        c->SetAttribute("PacingJitter", DoubleValue(0.5));
        c->SetAttribute("FlowScaleStep", TimeValue(Time(0)));
        c->SetAttribute("GradientSpan", TimeValue(Time(0)));
        c->SetAttribute("QpLevelGain", DoubleValue(1));
        clock.now = Time(0);
        Send(c, true);
        Ack(c, Time(0), MicroSeconds(5), 0);
        const double r = c->GetRate();
        Send(c);
        clock.now += c->PacingDelay(uint32_t(kWire));
        Send(c);
        Ack(c, clock.now, MicroSeconds(26));
        EXPECT_NEAR(double(c->GetRate()), r / 2, r * 1e-3) << "run " << seed;
        nic.shared = nullptr;
    }
}

TEST_F(RttProbePerQpTest, AboveTheTargetADrainingQueueStopsTheCut)
{
    // One packet per 26 us (its first RTT), 26 us above a 13 us target (no flow
    // scaling): a steady queue (g = 0) cuts by QpLevelGain x (26 - 13) / 26 = 10%; a
    // queue that shrank 4 us over the 26 us between its packets (g = -0.15) is draining
    // as fast as the level asks, so the QP does not cut (the QPs sampled before it have).
    for (const double rttUs : {26.0, 22.0})
    {
        Ptr<RttProbe> c = Make(2, 2);
        c->SetAttribute("FlowScaleStep", TimeValue(Time(0)));
        clock.now = Time(0);
        Send(c, true);
        Ack(c, Time(0), MicroSeconds(26), 0);
        const double r = c->GetRate();
        ASSERT_NEAR(r, kWire * 8 / 26e-6, 1e3);
        const Time sent = clock.now;
        Send(c);
        Ack(c, sent, MicroSeconds(rttUs));
        if (rttUs == 26.0)
        {
            EXPECT_NEAR(double(c->GetRate()), r * (1 - 0.2 * 13 / 26), r * 1e-6);
        }
        else
        {
            EXPECT_GE(double(c->GetRate()), r);
        }
        nic.shared = nullptr;
    }
}

TEST_F(RttProbePerQpTest, BelowTheTargetAGrowingQueueDampsTheIncrease)
{
    // One packet per 5 us, 5 us RTT, below its 13 us target: with a steady queue it
    // grows 10% (MiFactor, the cap of what it sent x 1.1); a queue that grew 0.5 us
    // over its 5 us of sending (g = 0.1, far below a surge) takes 6 x 0.1 off that
    // step (QpIncreaseDamping): the senders already offer more than the port drains.
    for (const double rttUs : {5.0, 5.5})
    {
        Ptr<RttProbe> c = Make(2, 2);
        c->SetAttribute("FlowScaleStep", TimeValue(Time(0)));
        c->SetAttribute("AiRate", DoubleValue(0)); // the multiplicative part alone
        clock.now = Time(0);
        Send(c, true);
        Ack(c, Time(0), MicroSeconds(5), 0);
        const double r = c->GetRate();
        const Time sent = clock.now;
        Send(c);
        Ack(c, sent, NanoSeconds(int64_t(rttUs * 1000)));
        const double g = (rttUs - 5) / 5;
        EXPECT_NEAR(double(c->GetRate()), r * (1 + 0.1 - 6 * g), r * 1e-6) << rttUs;
        nic.shared = nullptr;
    }
}

} // namespace
