/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the RTT-probe law (RttProbe, docs/design.md "RTT-probe: the law"), each
 * rule driven on a fake clock, no simulation. Line rate C = 100 Gb/s, base RTT B = 4.2
 * us, MTU 1 KB, the defaults: q0 = 2 us, s = 1 us, Gain 1/2, AdditiveIncrease 2%,
 * SparseUpdates 12, MaxIncrease 2, floor C / 2^14. Every expected value is computed from
 * the equations, never read from a run.
 */
#include "fake-cc-clock.h"

#include "ns3/core-module.h"
#include "ns3/rdma-wire.h"
#include "ns3/rtt-probe.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <string>

using namespace ns3;
using rdmatest::FakeClock;

namespace
{

constexpr double kLine = 100e9;
const Time kBase = NanoSeconds(4200);
const double kWire = rdmawire::WireBytes(RdmaPacketType::DATA, 1024);

/// The documented update (docs/design.md, "RTT-probe: the law"), for a QP at rate \p r
/// (target \p target, seconds) that sent at \p sent bit/s since its last update \p dt
/// ago, with a sample \p rtt and a trend \p g.
double
Law(double r, double target, double sent, double dt, double rtt, double g)
{
    const bool held = sent < 0.5 * r;
    const double base = held ? std::max(sent, kLine / 16384) : r;
    const double gg = 0.5 * g;
    const double trend = std::max(1 - gg, 1 / ((1 + gg) * (1 + gg)));
    dt = std::max(dt, rtt);
    double next;
    if (rtt <= target)
    {
        if (held)
        {
            return r;
        }
        next =
            base * (1 + 0.02 + 0.5 * (target - rtt) / target * std::min(1.0, target / dt)) * trend;
    }
    else
    {
        next = base * std::pow(target / rtt, 0.5 * std::min(1.0, 12 * target / dt)) * trend;
    }
    return std::clamp(std::min(next, 2 * base), kLine / 16384, kLine);
}

class RttProbeTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        Make();
    }

    /// A controller on a NIC whose peer group and start window it shares with siblings
    /// made by MakeSibling (\p jitter: PacingJitter).
    void Make(double jitter = 0)
    {
        clock.now = Time(0);
        nic = CcNicGroup{};
        group = CcPeerGroup{};
        group.nic = &nic;
        cc = MakeSibling(jitter);
    }

    Ptr<RttProbe> MakeSibling(double jitter = 0)
    {
        Ptr<RttProbe> c = CreateObject<RttProbe>();
        c->SetAttribute("PacingJitter", DoubleValue(jitter));
        CcContext ctx;
        ctx.lineRate = static_cast<uint64_t>(kLine);
        ctx.baseRtt = kBase;
        ctx.mtu = 1024;
        ctx.clock = &clock;
        ctx.peers = &group;
        c->Init(ctx);
        return c;
    }

    /// \p n packets of 1 KB sent at \p t.
    void Send(Time t, int n = 1, Ptr<RttProbe> c = nullptr)
    {
        clock.now = t;
        for (int i = 0; i < n; ++i)
        {
            (c ? c : cc)->OnSendEvent(CcSendEvent::SEND, 1024);
        }
    }

    /// The ACK of a packet sent at \p sent arrives after \p rtt, acknowledging \p acked
    /// bytes with \p inflight still out.
    void Ack(Time sent,
             Time rtt,
             uint64_t acked = 1024,
             uint64_t inflight = 0,
             Ptr<RttProbe> c = nullptr)
    {
        clock.now = sent + rtt;
        CcAck a;
        a.rtt = rtt;
        a.ackedBytes = acked;
        a.inflightBytes = inflight;
        (c ? c : cc)->OnAck(a);
    }

    double Rate() const
    {
        return double(cc->GetRate());
    }

    FakeClock clock;
    CcNicGroup nic;
    CcPeerGroup group;
    Ptr<RttProbe> cc;
};

} // namespace

TEST_F(RttProbeTest, HasAtMostTwelveAttributes)
{
    // The simplicity target: the default class has at most 12 parameters.
    const TypeId tid = RttProbe::GetTypeId();
    uint32_t supported = 0;
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        supported += tid.GetAttribute(i).supportLevel != TypeId::OBSOLETE;
    }
    EXPECT_LE(supported, 12u);
    EXPECT_EQ(cc->GetName(), "rtt-probe");
}

TEST_F(RttProbeTest, TargetGrowsByDelayPerHalvingBelowTheLine)
{
    // T(r) = B + q0 + s log2(C / r).
    EXPECT_NEAR(cc->TargetFor(kLine).GetSeconds(), 6.2e-6, 1e-12);
    EXPECT_NEAR(cc->TargetFor(kLine / 2).GetSeconds(), 7.2e-6, 1e-12);
    EXPECT_NEAR(cc->TargetFor(kLine / 7000).GetSeconds(),
                (kBase + MicroSeconds(2)).GetSeconds() + 1e-6 * std::log2(7000.0),
                1e-9); // the simulator counts time in ns
    // Clamped at the floor, C / 2^14: 14 halvings.
    EXPECT_NEAR(cc->TargetFor(1.0).GetSeconds(), 20.2e-6, 1e-12);
}

TEST_F(RttProbeTest, ANewQpSendsItsInitialWindowAtOnceAtLineRate)
{
    // W0 = C (B + q0) = 100G x 6.2 us / 8 = 77,500 bytes.
    EXPECT_EQ(cc->GetInitialWindow(), 77500u);
    EXPECT_TRUE(cc->IsStarting());
    EXPECT_EQ(cc->GetWindow(), 77500u);
    EXPECT_EQ(cc->GetRate(), uint64_t(kLine));
    // Its NIC's start window begins at one packet: the first packet leaves at once...
    EXPECT_EQ(cc->PacingDelay(0), Time(0));
}

TEST_F(RttProbeTest, TheStartWindowGrowsByWhatIsAcknowledgedWhileTheQueueDoesNotGrow)
{
    // Slow start of the NIC's start window: 1 packet, then + the bytes acknowledged.
    Send(Time(0));
    EXPECT_GT(cc->PacingDelay(uint32_t(kWire)), Time(0)) << "the window holds one packet";
    Ack(Time(0), kBase, 1024, 0);
    // The QP has its sample: it is paced by its rate now, not by the window.
    EXPECT_FALSE(cc->IsStarting());
    // A sibling that starts now finds a window of two packets.
    Ptr<RttProbe> b = MakeSibling();
    Send(clock.now, 1, b);
    EXPECT_EQ(b->PacingDelay(uint32_t(kWire)), Time(0));
    Send(clock.now, 1, b);
    EXPECT_GT(b->PacingDelay(uint32_t(kWire)), Time(0));
}

TEST_F(RttProbeTest, FirstUpdateActsOnTheRateTheStartAchieved)
{
    // One packet out at 0, its sample after 10 us: the start achieved one packet per 10
    // us. rtt 10 us is above T of that rate? r0 = 8 x 1106 / 10us = 884.8 Mb/s,
    // T(r0) = 6.2 + log2(100e9 / 884.8e6) = 6.2 + 6.82 = 13.0 us > 10: an increase.
    Send(Time(0));
    Ack(Time(0), MicroSeconds(10));
    const double r0 = 8 * kWire / 10e-6;
    const double target = cc->TargetFor(r0).GetSeconds();
    ASSERT_GT(target, 10e-6);
    // dt = max(10 us, rtt) = 10 us; headroom h = (T - rtt) / T x min(1, T / dt) = (T -
    // rtt) / T; rate = r0 (1 + 0.02 + 0.5 h).
    const double h = (target - 10e-6) / target;
    EXPECT_NEAR(Rate(), r0 * (1 + 0.02 + 0.5 * h), 2);
}

TEST_F(RttProbeTest, AtItsTargetARateOnlyProbes)
{
    // A start of one packet whose sample comes back at the target of the rate that start
    // achieved (the fixed point rtt = T(8 wire / rtt), found by iteration): no headroom,
    // no trend: the rate grows by AdditiveIncrease only.
    double rtt = 10e-6;
    for (int i = 0; i < 100; ++i)
    {
        rtt = cc->TargetFor(8 * kWire / rtt).GetSeconds();
    }
    const Time sample = NanoSeconds(std::llround(rtt * 1e9));
    Send(Time(0));
    Ack(Time(0), sample);
    const double r0 = 8 * kWire / sample.GetSeconds();
    EXPECT_NEAR(Rate(), r0 * 1.02, r0 * 1e-3);
}

TEST_F(RttProbeTest, AboveTheTargetTheCutIsThePowerOfTargetOverRttTimesTheTrend)
{
    // After the start, seven packets (not held back) sent after the update come back at
    // 4 x the target: r <- r (T / rtt)^k D(g), k = Gain min(1, 12 T / dt), and the trend
    // g against the NIC's first sample (sent at 0, 8 us), 9 us of sending earlier.
    Send(Time(0));
    Ack(Time(0), MicroSeconds(8));
    const double r1 = Rate();
    const Time t1 = clock.now;
    const Time target = cc->TargetFor(r1);
    Send(t1 + MicroSeconds(1), 7);
    const Time rtt = 4 * target;
    Ack(t1 + MicroSeconds(1), rtt, 1024, 6 * 1024);
    const double dt = (clock.now - t1).GetSeconds();
    const double g = (rtt - MicroSeconds(8)).GetSeconds() / 9e-6;
    const double expect = Law(r1, target.GetSeconds(), 7 * 8 * kWire / dt, dt, rtt.GetSeconds(), g);
    ASSERT_LT(expect, r1);
    EXPECT_NEAR(Rate(), expect, expect * 1e-6);
}

TEST_F(RttProbeTest, ASparseQpTakesASmallerShareOfTheCutFromWhatItSent)
{
    // The same kind of excess, seen by a QP whose updates are 1 ms apart and that sent one
    // packet in that time: held back, it is cut from what it sent, with k = 6 T / dt.
    Send(Time(0));
    Ack(Time(0), MicroSeconds(8));
    const double r1 = Rate();
    const Time t1 = clock.now;
    const Time target = cc->TargetFor(r1);
    const Time later = t1 + MilliSeconds(1);
    Send(later);
    Ack(later, 2 * target);
    const double dt = (clock.now - t1).GetSeconds();
    ASSERT_LT(0.5 * 12 * target.GetSeconds() / dt, 0.5) << "a sparse update";
    const double g = (2 * target - MicroSeconds(8)).GetSeconds() / later.GetSeconds();
    const double expect =
        Law(r1, target.GetSeconds(), 8 * kWire / dt, dt, 2 * target.GetSeconds(), g);
    EXPECT_NEAR(Rate(), expect, expect * 1e-6);
    EXPECT_LT(Rate(), 0.5 * r1);
}

TEST_F(RttProbeTest, OnlyPacketsSentAfterTheLastUpdateUpdate)
{
    // Swift's once per RTT: the ACK of a packet that left before the last update changes
    // nothing.
    Send(Time(0), 3);
    Ack(Time(0), MicroSeconds(8), 1024, 2048);
    const double r1 = Rate();
    Ack(Time(0), MicroSeconds(40), 1024, 1024); // left at 0, before the update at 8 us
    EXPECT_EQ(Rate(), r1);
}

TEST_F(RttProbeTest, AGrowingQueueCutsByTheTrendOfTheNicsSamples)
{
    // Two siblings to the same destination: the NIC keeps their samples. The second's
    // sample, 20 us after the first's in send time, saw the queueing delay grow by 10 us:
    // g = 0.5, and its first update is cut by max(1 - g / 2, 1 / (1 + g / 2)^2) = 0.75.
    Ptr<RttProbe> b = MakeSibling();
    Send(Time(0));
    Ack(Time(0), MicroSeconds(8));
    Send(MicroSeconds(20), 1, b);
    Ack(MicroSeconds(20), MicroSeconds(18), 1024, 0, b);
    const double r0 = 8 * kWire / 18e-6;
    const double target = b->TargetFor(r0).GetSeconds();
    const double expect = Law(r0, target, r0, 18e-6, 18e-6, 0.5);
    EXPECT_NEAR(double(b->GetRate()), expect, expect * 1e-6);
    // Without the trend it would have been larger by 1 / 0.75.
    EXPECT_NEAR(Law(r0, target, r0, 18e-6, 18e-6, 0) * 0.75, expect, expect * 1e-9);
}

TEST_F(RttProbeTest, NoUpdateMoreThanDoublesTheRate)
{
    // An empty path and a QP far below its target: one update at most doubles it.
    Send(Time(0));
    Ack(Time(0), MicroSeconds(100)); // start: one packet per 100 us
    const double r1 = Rate();
    const Time t1 = clock.now;
    Send(t1 + MicroSeconds(1));
    Ack(t1 + MicroSeconds(1), kBase); // the queue is gone, the trend says it drains
    EXPECT_LE(Rate(), 2 * r1 + 1);
}

TEST_F(RttProbeTest, AHeldBackQpDoesNotGrowBelowItsTarget)
{
    // RFC 7661: a QP that sent less than half its rate (its NIC or application held it
    // back) does not grow a rate it cannot use, and is not cut either.
    Send(Time(0));
    Ack(Time(0), MicroSeconds(8));
    const double r1 = Rate();
    const Time later = clock.now + MilliSeconds(2);
    Send(later); // one packet in 2 ms: far below r1
    Ack(later, kBase);
    EXPECT_EQ(Rate(), r1);
}

TEST_F(RttProbeTest, ANackHalvesOncePerEpisode)
{
    Send(Time(0), 4);
    Ack(Time(0), MicroSeconds(8), 1024, 3072);
    const double r1 = Rate();
    CcAck a;
    a.ackPsn = 1;
    a.sndNxt = 4;
    cc->OnAck(a);
    cc->OnNack();
    EXPECT_NEAR(Rate(), r1 / 2, 1);
    cc->OnNack(); // the same episode: every PSN below 4 is not yet acknowledged
    EXPECT_NEAR(Rate(), r1 / 2, 1);
    a.ackPsn = 4;
    a.sndNxt = 6;
    cc->OnAck(a);
    cc->OnNack(); // a new episode
    EXPECT_NEAR(Rate(), r1 / 4, 1);
}

TEST_F(RttProbeTest, NeverBelowTheFloorNorAboveTheLine)
{
    Send(Time(0));
    Ack(Time(0), MilliSeconds(100)); // a huge RTT
    EXPECT_GE(Rate(), kLine / 16384 - 1);
    for (int i = 0; i < 40; ++i)
    {
        cc->OnNack();
        CcAck a;
        a.ackPsn = uint32_t(10 * (i + 1));
        a.sndNxt = uint32_t(10 * (i + 1));
        cc->OnAck(a);
    }
    EXPECT_GE(Rate(), kLine / 16384 - 1);
    EXPECT_LE(Rate(), kLine);
}

TEST_F(RttProbeTest, ACutLengthensTheGapBeingWaited)
{
    // Pacing by its own credit: the gap after a packet is its wire size at the rate in
    // force when the NIC asks, so a cut at an ACK during the gap lengthens it.
    Send(Time(0));
    Ack(Time(0), MicroSeconds(8));
    const Time t = clock.now + MicroSeconds(1);
    Send(t);
    clock.now = t;
    const Time before = cc->PacingDelay(uint32_t(kWire));
    EXPECT_NEAR(before.GetSeconds(), 8 * kWire / Rate(), 1e-9);
    Ack(t, MilliSeconds(1)); // far above the target: a cut
    clock.now = t;
    EXPECT_GT(cc->PacingDelay(uint32_t(kWire)), before);
}

TEST_F(RttProbeTest, JitterKeepsTheMeanGapAndNeverBeatsTheLine)
{
    Make(0.5);
    Send(Time(0));
    Ack(Time(0), MicroSeconds(8));
    const double r = Rate();
    const double mean = 8 * kWire / r;
    double sum = 0;
    const int n = 4000;
    for (int i = 0; i < n; ++i)
    {
        const Time t = clock.now;
        cc->OnSendEvent(CcSendEvent::SEND, 1024);
        const Time gap = cc->PacingDelay(uint32_t(kWire));
        EXPECT_GE(gap.GetSeconds(), 8 * kWire / kLine - 1e-9);
        sum += gap.GetSeconds();
        clock.now = t + gap;
    }
    // The mean of n draws of U(1 - j, 1 + j) x mean, j = min(0.5, 1 - r / C).
    const double j = std::min(0.5, 1 - r / kLine);
    EXPECT_NEAR(sum / n, mean, 4 * j * mean / std::sqrt(3.0 * n) + 1e-9);
}

TEST_F(RttProbeTest, AnIdleQpStartsAgain)
{
    Send(Time(0));
    cc->OnSendEvent(CcSendEvent::DRAINED);
    Ack(Time(0), MicroSeconds(8)); // all acknowledged
    EXPECT_FALSE(cc->IsStarting());
    clock.now = MicroSeconds(50);
    EXPECT_EQ(cc->PacingDelay(uint32_t(kWire)), Time(0)); // its next message leaves at once
    EXPECT_TRUE(cc->IsStarting());
}

TEST_F(RttProbeTest, TheOldPresetKeysAreObsoleteWithTheirSuccessorNamed)
{
    // (TypeId::LookupAttributeByName aborts on an obsolete attribute: read the list.)
    const TypeId tid = RttProbe::GetTypeId();
    std::map<std::string, TypeId::AttributeInformation> byName;
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        byName[tid.GetAttribute(i).name] = tid.GetAttribute(i);
    }
    ASSERT_EQ(byName.count("ShareWithPeers"), 1u);
    EXPECT_EQ(byName["ShareWithPeers"].supportLevel, TypeId::OBSOLETE);
    EXPECT_NE(byName["ShareWithPeers"].supportMsg.find("rtt-probe-shared"), std::string::npos);
    ASSERT_EQ(byName.count("Preset"), 1u);
    EXPECT_EQ(byName["Preset"].supportLevel, TypeId::OBSOLETE);
    EXPECT_NE(byName["Preset"].supportMsg.find("rtt-probe-nvidia"), std::string::npos);
}
