/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of RttProbe's per-QP mode for a QP alone on its NIC (no sibling with work:
 * the rules of a claim of its own, with an additive increase in time) and of the older
 * samples, one rule each, on the fake NIC of rtt-probe-per-qp-fixture.h.
 */

#include "rtt-probe-per-qp-fixture.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace rdmatest;

namespace
{

/// One MTU per target RTT (1 KB, 13 us): AiPackets' increase per target RTT.
const double kOneMtuPerTarget = 8.0 * 1024 / 13e-6;

TEST_F(RttProbePerQpTest, AQpAloneOnItsNicGrowsTheSameBitsPerSecondWhateverItsRate)
{
    // Two QPs alone on their NICs, one at about 10 Mb/s and one at about 315 Mb/s (their
    // first samples, 37 us and 17 us, are the flow-scaled targets of those rates), each
    // sampled 20 us after its first sample below its target: both add one MTU per
    // target RTT per target RTT for 20 us, 970 Mb/s. A multiplicative step (MiFactor)
    // would keep the 32x ratio of their rates for good, and an increase capped at
    // 1.1 x what each sent would too.
    for (const double firstUs : {37.0, 17.0})
    {
        Ptr<RttProbe> c = Make(1, 1);
        clock.now = Time(0);
        Send(c, true);
        Ack(c, Time(0), NanoSeconds(int64_t(firstUs * 1000)), 0);
        const double r = c->GetRate();
        ASSERT_LT(r, kOneMtuPerTarget) << firstUs; // below one MTU per target RTT
        const Time last = clock.now;
        clock.now = last + MicroSeconds(20) - MicroSeconds(8);
        Send(c);
        Ack(c, clock.now, MicroSeconds(8));
        EXPECT_NEAR(c->GetRate() - r, kOneMtuPerTarget * 20e-6 / 13e-6, 1e3) << firstUs;
        nic.shared = nullptr;
    }
}

TEST_F(RttProbePerQpTest, AboveTheTargetAQpAloneOnItsNicCutsByTheLevelAsAFlow)
{
    // Alone on its NIC and to its destination, on an empty path it keeps the line; a
    // packet sent after that sample sees 26 us against the 13 us target: the cut is
    // Beta x (26 - 13) / 26 = 50% of the rate it left at (a claim of its own), not the
    // gentler proportional-derivative cut of a QP among siblings (QpLevelGain 0.2: 10%).
    Ptr<RttProbe> c = Make(1, 1);
    c->SetAttribute("GradientSpan", TimeValue(Time(0))); // the level alone
    clock.now = Time(0);
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(8), 0);
    ASSERT_EQ(c->GetRate(), uint64_t(kLine));
    const Time sent = clock.now;
    Send(c);
    Ack(c, sent, MicroSeconds(26));
    EXPECT_NEAR(double(c->GetRate()), kLine * 0.5, 1e3);
}

TEST_F(RttProbePerQpTest, AnOlderAckBoundsTheRateItsPacketLeftAtNotTheRateAlreadyCut)
{
    // A QP with a sibling on its NIC is cut at its regular update (p2's ACK, 26 us
    // against 13 us) from what it sent, R1. It then sends at R1. The ACK of p3, sent
    // before that update, reports 40 us: it bounds the rate p3 left at (the line) by
    // (1 - 0.2 x 27 / 40), far above R1, so R1 stands. Bounding the rate the QP now sends
    // at, R1, would cut it again, and again at every older ACK: a fast QP has an RTT's
    // worth of them in flight.
    Ptr<RttProbe> c = Make(1, 2);
    c->SetAttribute("GradientSpan", TimeValue(Time(0))); // the level alone
    c->SetAttribute("FlowScaleStep", TimeValue(Time(0)));
    clock.now = Time(0);
    Send(c, true);
    Ack(c, Time(0), MicroSeconds(8), 0);
    ASSERT_EQ(c->GetRate(), uint64_t(kLine));
    clock.now = MicroSeconds(8);
    Send(c); // p2
    clock.now = MicroSeconds(9);
    Send(c); // p3: 1 us after p2, what it sends is 8.85 Gb/s
    Ack(c, MicroSeconds(8), MicroSeconds(26));
    const double r1 = c->GetRate();
    ASSERT_NEAR(r1, kWire * 8 / 1e-6 * (1 - 0.2 * 13 / 26), 1e3);
    clock.now = MicroSeconds(40);
    Send(c);
    clock.now += NanoSeconds(int64_t(std::ceil(PacketTime(r1) * 1e9)));
    Send(c); // one packet time at R1 after the last: it sends at R1
    Ack(c, MicroSeconds(9), MicroSeconds(40));
    EXPECT_NEAR(double(c->GetRate()), r1, 1e3);
}

} // namespace
