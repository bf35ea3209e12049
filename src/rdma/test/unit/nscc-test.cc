/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of NSCC, the Ultra Ethernet transport's sender-side congestion control, as
 * htsim implements it (ultraethernet/uet-htsim, htsim/sim/uec.cpp), driven by a fake
 * clock (no simulation).
 *
 * Specification (docs/design.md, "NSCC"), window W in payload bytes, delay = RTT - base
 * RTT, target = the network RTT by default:
 *  - no echo, delay >= target: fair increase, fi x acked into the pending increase;
 *  - no echo, delay < target: proportional increase, alpha (target - delay) acked into
 *    it; below FastIncreaseDelay for more than a window of bytes, W += acked x fi_scale;
 *  - echo, delay >= target: W *= max(1 - gamma (D - target) / D, 0.5), D the averaged
 *    delay, if D > target and a base RTT has passed since the last cut;
 *  - echo, delay < target: nothing;
 *  - pending / W (and eta once per AdjustPeriod) join W after 8 MTUs of ACKs or an
 *    AdjustPeriod;
 *  - QuickAdapt: after an interval of base RTT + target that saw a NACK or a delay above
 *    4 x target and acknowledged fewer than maxwnd / 8 bytes, W = those bytes, and echoes
 *    for the bytes then in flight are ignored;
 *  - W within [1 MTU, 1.5 BDP]; rate = W x wire / payload x 8 / base RTT.
 *
 * Context: 100 Gb/s, MTU 1024 B (1106 wire bytes), base RTT 10 us (the network's too):
 * a = 125 KB / 150 KB = 5/6, b = 10/12 = 5/6, target 10 us, BDP 125000 B, maxwnd 187500 B.
 */

#include "fake-cc-clock.h"

#include "ns3/core-module.h"
#include "ns3/nscc.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr uint32_t kMtu = 1024;
constexpr double kWire = 1106; // wire bytes of a full data packet
constexpr double kA = 125000.0 / 150000.0;
constexpr double kB = 10.0 / 12.0;
constexpr double kFi = 5 * kMtu * kA;
constexpr double kEta = 0.15 * kMtu * kA;
constexpr double kAlpha = 4 * kMtu * kA * kB / 10e-6; // bytes per second below target
constexpr double kFiScale = 0.25 * kA;
constexpr double kMaxWnd = 187500;
constexpr double kTol = 1e-6;

class NsccTest : public ::testing::Test
{
  protected:
    /// A controller with the given attributes (name -> value string), at t = 1 us.
    void Make(std::vector<std::pair<std::string, std::string>> attributes = {},
              Time fabricRtt = MicroSeconds(10),
              uint64_t line = kLine)
    {
        cc = CreateObject<Nscc>();
        for (const auto& [k, v] : attributes)
        {
            cc->SetAttribute(k, StringValue(v));
        }
        CcContext ctx;
        ctx.lineRate = line;
        ctx.baseRtt = MicroSeconds(10);
        ctx.fabricBaseRtt = fabricRtt;
        ctx.mtu = kMtu;
        ctx.hops = 2;
        ctx.clock = &clock;
        clock.now = MicroSeconds(1);
        cc->Init(ctx);
    }

    /// An ACK of one MTU, \p delay above the base RTT, \p inflight bytes left, 100 ns on.
    void Ack(Time delay, bool ece = false, uint64_t inflight = 20 * kMtu)
    {
        clock.now += NanoSeconds(100);
        CcAck a;
        a.ackedBytes = kMtu;
        a.rtt = MicroSeconds(10) + delay;
        a.ecnEcho = ece;
        a.inflightBytes = inflight;
        cc->OnAck(a);
    }

    double W() const
    {
        return cc->GetCwnd();
    }

    rdmatest::FakeClock clock;
    Ptr<Nscc> cc;
};

/// A period long enough that no eta step or timed fulfilment happens in a test.
const std::pair<std::string, std::string> kNoPeriod{"AdjustPeriod", "1s"};

} // namespace

// Rule: the defaults are htsim's (initNsccParams, initNscc, main_uec.cpp); the optional
// hooks are OnAck and GetWindow.
TEST(NsccDefaults, MatchHtsim)
{
    Ptr<Nscc> n = CreateObject<Nscc>();
    auto dbl = [&n](const char* name) {
        DoubleValue v;
        n->GetAttribute(name, v);
        return v.Get();
    };
    EXPECT_EQ(dbl("FairIncrease"), 5.0);
    EXPECT_EQ(dbl("Eta"), 0.15);
    EXPECT_EQ(dbl("ProportionalIncrease"), 4.0);
    EXPECT_EQ(dbl("FastIncreaseScale"), 0.25);
    EXPECT_EQ(dbl("Gamma"), 0.8);
    EXPECT_EQ(dbl("MaxDecrease"), 0.5);
    EXPECT_EQ(dbl("DelayWeight"), 0.0125);
    EXPECT_EQ(dbl("QaThreshold"), 4.0);
    EXPECT_EQ(dbl("MaxWindow"), 1.5);
    EXPECT_EQ(dbl("AdjustBytes"), 8.0);
    UintegerValue gate;
    n->GetAttribute("QaGate", gate);
    EXPECT_EQ(gate.Get(), 3u);
    TimeValue t;
    n->GetAttribute("ReferenceRtt", t);
    EXPECT_EQ(t.Get(), MicroSeconds(12));
    n->GetAttribute("FastIncreaseDelay", t);
    EXPECT_EQ(t.Get(), MicroSeconds(1));
    n->GetAttribute("ReferenceBdp", gate);
    EXPECT_EQ(gate.Get(), 150000u); // 100 Gb/s x 12 us
    EXPECT_EQ(n->GetName(), "nscc");
    EXPECT_EQ(n->ImplementedHooks(), CongestionControl::HOOK_ACK | CongestionControl::HOOK_WINDOW);
}

// Rule: parameters out of their range are refused by their checkers (a scenario then
// stops with exit code 2, cli-test).
TEST(NsccDefaults, RefusesOutOfRangeParameters)
{
    Ptr<Nscc> n = CreateObject<Nscc>();
    EXPECT_FALSE(n->SetAttributeFailSafe("Gamma", DoubleValue(1.5)));
    EXPECT_FALSE(n->SetAttributeFailSafe("MaxDecrease", DoubleValue(-0.1)));
    EXPECT_FALSE(n->SetAttributeFailSafe("DelayWeight", DoubleValue(0)));
    EXPECT_FALSE(n->SetAttributeFailSafe("MaxWindow", DoubleValue(0)));
    EXPECT_FALSE(n->SetAttributeFailSafe("QaGate", UintegerValue(32)));
    EXPECT_FALSE(n->SetAttributeFailSafe("ReferenceRtt", TimeValue(Time(0))));
    EXPECT_FALSE(n->SetAttributeFailSafe("ReferenceBdp", UintegerValue(0)));
    EXPECT_FALSE(n->SetAttributeFailSafe("TargetDelay", TimeValue(MicroSeconds(-1))));
}

// Rule: fi, eta, alpha and fi_scale scale with a = network BDP / (100 Gb/s x 12 us) and b =
// target / 12 us; the target is the network RTT; maxwnd = 1.5 x line rate x base RTT.
TEST_F(NsccTest, DerivesItsConstantsFromTheNetwork)
{
    Make();
    EXPECT_EQ(cc->GetTargetDelay(), MicroSeconds(10));
    EXPECT_NEAR(cc->GetScalingA(), kA, kTol);
    EXPECT_NEAR(cc->GetScalingB(), kB, kTol);
    EXPECT_NEAR(cc->GetFi(), kFi, kTol);
    EXPECT_NEAR(cc->GetEta(), kEta, kTol);
    EXPECT_NEAR(cc->GetAlpha() / kAlpha, 1, kTol);
    EXPECT_NEAR(cc->GetFastIncreaseScale(), kFiScale, kTol);
    EXPECT_NEAR(cc->GetMaxCwnd(), kMaxWnd, kTol);
    EXPECT_NEAR(W(), kMaxWnd, kTol); // htsim starts at maxwnd
    EXPECT_EQ(cc->GetRate(), kLine); // 1.5 BDP paced over one RTT: clamped to line rate

    // The reference network itself: a = 1, b = 1 at a 12 us target, so fi = 5 MTU, eta =
    // 0.15 MTU, alpha x target = 4 MTU (htsim's comment: a = 1 "for 400Gbps" at its
    // 4 KB MTU and its own RTT; these are the definitions, not that network).
    Make({}, MicroSeconds(12));
    EXPECT_NEAR(cc->GetScalingA(), 1, kTol);
    EXPECT_NEAR(cc->GetScalingB(), 1, kTol);
    EXPECT_NEAR(cc->GetFi(), 5.0 * kMtu, kTol);
    EXPECT_NEAR(cc->GetEta(), 0.15 * kMtu, kTol);
    EXPECT_NEAR(cc->GetAlpha() * 12e-6, 4.0 * kMtu, 1e-6);
    // 400 Gb/s, same RTT: four times the BDP, four times each increase.
    Make({}, MicroSeconds(12), 4 * kLine);
    EXPECT_NEAR(cc->GetFi(), 20.0 * kMtu, 1e-6);
    EXPECT_NEAR(cc->GetMaxCwnd(), 1.5 * 4 * 125000, 1e-6);

    // A set target delay changes b and the target, not a.
    Make({{"TargetDelay", "6us"}});
    EXPECT_EQ(cc->GetTargetDelay(), MicroSeconds(6));
    EXPECT_NEAR(cc->GetScalingA(), kA, kTol);
    EXPECT_NEAR(cc->GetScalingB(), 0.5, kTol);
    // alpha x target is the same 4 MTU x a x b at any target: here b = 0.5.
    EXPECT_NEAR(cc->GetAlpha() * 6e-6, 4 * kMtu * kA * 0.5, 1e-6);
    // No fabric RTT in the context: the path's base RTT is the network's.
    Make({}, Time(0));
    EXPECT_EQ(cc->GetTargetDelay(), MicroSeconds(10));
}

// Rule: no echo, delay at or above target: fair increase, fi x acked bytes pending, W
// unchanged until the fulfilment; then W += pending / W.
TEST_F(NsccTest, NoEcnHighDelayIsAFairIncrease)
{
    Make({{"InitialWindow", "50000"}, kNoPeriod});
    for (int i = 0; i < 8; ++i)
    {
        Ack(MicroSeconds(10));
        EXPECT_EQ(cc->GetLastResponse(), Nscc::FAIR_INCREASE);
        EXPECT_NEAR(cc->GetPendingIncrease(), (i + 1) * kFi * kMtu, 1e-3);
        EXPECT_EQ(W(), 50000);
    }
    // The 9th MTU passes AdjustBytes (8 MTUs): W += 9 fi MTU / W.
    Ack(MicroSeconds(12));
    EXPECT_EQ(cc->GetLastResponse(), Nscc::FAIR_INCREASE);
    EXPECT_NEAR(W(), 50000 + 9 * kFi * kMtu / 50000, 1e-6);
    EXPECT_EQ(cc->GetPendingIncrease(), 0);
}

// Rule: no echo, delay below target: proportional increase, alpha (target - delay) acked.
TEST_F(NsccTest, NoEcnLowDelayIsAProportionalIncrease)
{
    Make({{"InitialWindow", "50000"}, kNoPeriod});
    Ack(MicroSeconds(4));
    EXPECT_EQ(cc->GetLastResponse(), Nscc::PROPORTIONAL_INCREASE);
    EXPECT_NEAR(cc->GetPendingIncrease() / (kAlpha * kMtu * 6e-6), 1, 1e-9);
    Ack(MicroSeconds(8));
    EXPECT_NEAR(cc->GetPendingIncrease() / (kAlpha * kMtu * 8e-6), 1, 1e-9);
    EXPECT_EQ(W(), 50000);
}

// Rule: below FastIncreaseDelay (1 us) for more than a window of bytes, each ACK adds
// acked x fi_scale to W at once, until a delay at or above 1 us.
TEST_F(NsccTest, NearZeroDelayForAWindowIsAFastIncrease)
{
    Make({{"InitialWindow", "4096"}, kNoPeriod});
    for (int i = 0; i < 4; ++i) // 1024 .. 4096 bytes: not more than W
    {
        Ack(NanoSeconds(500));
        EXPECT_EQ(cc->GetLastResponse(), Nscc::PROPORTIONAL_INCREASE) << i;
    }
    Ack(NanoSeconds(500)); // 5120 > 4096
    EXPECT_EQ(cc->GetLastResponse(), Nscc::FAST_INCREASE);
    EXPECT_NEAR(W(), 4096 + kMtu * kFiScale, 1e-9);
    Ack(NanoSeconds(100));
    EXPECT_EQ(cc->GetLastResponse(), Nscc::FAST_INCREASE);
    EXPECT_NEAR(W(), 4096 + 2 * kMtu * kFiScale, 1e-9);
    Ack(MicroSeconds(2)); // ends it, and restarts the count
    EXPECT_EQ(cc->GetLastResponse(), Nscc::PROPORTIONAL_INCREASE);
    Ack(NanoSeconds(500));
    EXPECT_EQ(cc->GetLastResponse(), Nscc::PROPORTIONAL_INCREASE);
}

// Rule: echo and delay at or above target: W *= max(1 - gamma (D - target) / D, 0.5),
// at most once per base RTT, only while the averaged delay D exceeds the target.
TEST_F(NsccTest, EcnHighDelayIsAMultiplicativeDecrease)
{
    // DelayWeight 1: D is the last sample.
    Make({{"InitialWindow", "100000"}, {"DelayWeight", "1"}, kNoPeriod});
    clock.now = MicroSeconds(20); // a base RTT after the start (no cut yet)
    Ack(MicroSeconds(15), true);
    EXPECT_EQ(cc->GetLastResponse(), Nscc::MULTIPLICATIVE_DECREASE);
    EXPECT_NEAR(cc->GetAvgDelay(), 15e-6, 1e-15);
    const double once = 100000 * (1 - 0.8 * 5.0 / 15.0);
    EXPECT_NEAR(W(), once, 1e-6);
    // Within a base RTT of the cut: none.
    Ack(MicroSeconds(15), true);
    EXPECT_EQ(cc->GetLastResponse(), Nscc::MULTIPLICATIVE_DECREASE);
    EXPECT_NEAR(W(), once, 1e-6);
    // After it, a large excess is cut by half at most (1 - 0.8 x 30/40 = 0.4 < 0.5).
    clock.now += MicroSeconds(10);
    Ack(MicroSeconds(40), true);
    EXPECT_NEAR(W(), once * 0.5, 1e-6);
}

// Rule: the decrease reads the averaged delay: a first marked high sample with D still
// below target does not cut (htsim's D moves by 1.25% per sample).
TEST_F(NsccTest, DecreaseWaitsForTheAveragedDelay)
{
    Make({{"InitialWindow", "100000"}, kNoPeriod});
    clock.now = MicroSeconds(20);
    Ack(MicroSeconds(15), true);
    EXPECT_EQ(cc->GetLastResponse(), Nscc::MULTIPLICATIVE_DECREASE);
    EXPECT_NEAR(cc->GetAvgDelay(), 0.0125 * 15e-6, 1e-15);
    EXPECT_EQ(W(), 100000);
}

// Rule: echo with delay below target: no change (the mark is another path's).
TEST_F(NsccTest, EcnLowDelayChangesNothing)
{
    Make({{"InitialWindow", "50000"}, kNoPeriod});
    clock.now = MicroSeconds(20);
    Ack(MicroSeconds(5), true);
    EXPECT_EQ(cc->GetLastResponse(), Nscc::NO_CHANGE);
    EXPECT_EQ(W(), 50000);
    EXPECT_EQ(cc->GetPendingIncrease(), 0);
}

// Rule: the averaged delay takes an unmarked sample above target as base RTT / 4 and
// any other sample as it is.
TEST_F(NsccTest, AveragedDelayDiscountsUnmarkedHighSamples)
{
    Make({{"DelayWeight", "1"}, kNoPeriod});
    Ack(MicroSeconds(20));
    EXPECT_NEAR(cc->GetAvgDelay(), 2.5e-6, 1e-15);
    Ack(MicroSeconds(20), true);
    EXPECT_NEAR(cc->GetAvgDelay(), 20e-6, 1e-15);
    Ack(MicroSeconds(3));
    EXPECT_NEAR(cc->GetAvgDelay(), 3e-6, 1e-15);
}

// Rule: eta joins W once per AdjustPeriod (the network RTT), with the pending increase;
// an AdjustPeriod without eta step also fulfils the pending increase.
TEST_F(NsccTest, EtaOncePerAdjustPeriod)
{
    Make({{"InitialWindow", "50000"}});
    Ack(MicroSeconds(10)); // t = 1.1 us: pending fi MTU
    EXPECT_EQ(W(), 50000);
    clock.now = MicroSeconds(10) + NanoSeconds(500);
    Ack(MicroSeconds(10)); // t = 10.6 us > 10 us since the last step
    EXPECT_NEAR(W(), 50000 + 2 * kFi * kMtu / 50000 + kEta, 1e-6);
    const double w1 = W();
    for (int i = 0; i < 9; ++i) // 9 MTUs: a fulfilment by bytes, no eta
    {
        Ack(MicroSeconds(10));
    }
    EXPECT_NEAR(W(), w1 + 9 * kFi * kMtu / w1, 1e-6);
}

// Rule: QuickAdapt after a delay above 4 x target: at the end of the interval (base RTT +
// target) in which fewer than maxwnd >> 3 bytes were acknowledged, W = those bytes; then
// echoes for the bytes in flight at that moment are ignored.
TEST_F(NsccTest, QuickAdaptOnLargeDelay)
{
    Make({kNoPeriod});
    Ack(Time(0)); // t = 1.1 us: starts the first interval, to 21.1 us
    Ack(MicroSeconds(50));
    EXPECT_NE(cc->GetLastResponse(), Nscc::QUICK_ADAPT); // the interval has not ended
    clock.now = MicroSeconds(22);
    Ack(MicroSeconds(50), false, 5 * kMtu); // 2 MTUs in this interval, 5 in flight
    EXPECT_EQ(cc->GetLastResponse(), Nscc::QUICK_ADAPT);
    EXPECT_EQ(W(), 2 * kMtu);
    // Echoes for the 5 MTUs in flight are ignored; unmarked ACKs are not.
    Ack(MicroSeconds(50), true);
    EXPECT_EQ(cc->GetLastResponse(), Nscc::IGNORED);
    EXPECT_EQ(W(), 2 * kMtu);
    Ack(MicroSeconds(5));
    EXPECT_EQ(cc->GetLastResponse(), Nscc::PROPORTIONAL_INCREASE);
    for (int i = 0; i < 2; ++i) // 3 and 4 MTUs acknowledged since
    {
        Ack(MicroSeconds(5), true);
        EXPECT_EQ(cc->GetLastResponse(), Nscc::IGNORED);
    }
    Ack(MicroSeconds(5), true); // 5 MTUs acknowledged since: counted again
    EXPECT_EQ(cc->GetLastResponse(), Nscc::NO_CHANGE);
}

// Rule: QuickAdapt needs the interval's acknowledged bytes below maxwnd >> 3 (23437 B):
// a QP that delivered more keeps its window (the delay is then no sign of starvation).
TEST_F(NsccTest, QuickAdaptGatedByDeliveredBytes)
{
    Make({kNoPeriod});
    Ack(Time(0)); // starts the interval (its bytes count in none)
    for (int i = 0; i < 23; ++i)
    {
        Ack(Time(0));
    }
    clock.now = MicroSeconds(22);
    Ack(MicroSeconds(50)); // the 24th MTU of the interval: 24576 B
    EXPECT_EQ(cc->GetLastResponse(), Nscc::FAIR_INCREASE);
    EXPECT_NEAR(W(), kMaxWnd, 1e-6);
    // The next interval (to 42 us) delivered one MTU: QuickAdapt to it.
    clock.now = MicroSeconds(43);
    Ack(MicroSeconds(50));
    EXPECT_EQ(cc->GetLastResponse(), Nscc::QUICK_ADAPT);
    EXPECT_EQ(W(), kMtu);
}

// Rule: a NACK marks QuickAdapt due: it runs at once if the interval has ended, else on
// the first ACK after it (whatever its delay), and a NACK that does not run it takes one
// MTU off W. Disabled, QuickAdapt never runs.
TEST_F(NsccTest, QuickAdaptAfterNack)
{
    Make({{"InitialWindow", "50000"}, kNoPeriod});
    Ack(Time(0)); // starts the interval, to 21.1 us
    cc->OnNack();
    EXPECT_EQ(W(), 50000 - kMtu);
    Ack(Time(0));
    clock.now = MicroSeconds(22);
    Ack(Time(0)); // low delay, but the NACK made it due: 2 MTUs in the interval
    EXPECT_EQ(cc->GetLastResponse(), Nscc::QUICK_ADAPT);
    EXPECT_EQ(W(), 2 * kMtu);

    Make({{"InitialWindow", "50000"}, kNoPeriod});
    Ack(Time(0));
    Ack(Time(0));
    Ack(Time(0));
    clock.now = MicroSeconds(22);
    cc->OnNack(); // the interval has ended: at once, to the 2 MTUs acknowledged
    EXPECT_EQ(cc->GetLastResponse(), Nscc::QUICK_ADAPT);
    EXPECT_EQ(W(), 2 * kMtu);

    Make({{"InitialWindow", "50000"}, {"QuickAdapt", "false"}, kNoPeriod});
    Ack(Time(0));
    clock.now = MicroSeconds(22);
    cc->OnNack();
    EXPECT_EQ(W(), 50000 - kMtu);
    Ack(MicroSeconds(50));
    EXPECT_EQ(cc->GetLastResponse(), Nscc::FAIR_INCREASE);
}

// Rule: W stays within [1 MTU, 1.5 BDP]; the BDP follows the smallest RTT sample; the
// pacing rate sends W in one base RTT, in wire bytes.
TEST_F(NsccTest, WindowBoundsAndPacing)
{
    Make({{"InitialWindow", "1500"}, kNoPeriod});
    cc->OnTimeout();
    EXPECT_EQ(W(), kMtu);
    cc->OnTimeout();
    EXPECT_EQ(W(), kMtu);
    EXPECT_EQ(cc->GetWindow(), kMtu);

    Make({{"InitialWindow", "10000000"}, kNoPeriod});
    EXPECT_EQ(W(), cc->GetMaxCwnd());
    EXPECT_NEAR(W(), kMaxWnd, 1e-6);
    for (int i = 0; i < 400; ++i) // fast increase, on and on
    {
        Ack(Time(0));
        ASSERT_LE(W(), cc->GetMaxCwnd());
    }
    EXPECT_EQ(W(), cc->GetMaxCwnd());
    // A smaller RTT sample (6 us): BDP and maxwnd shrink with it, and W with them.
    Ack(MicroSeconds(-4));
    EXPECT_EQ(cc->GetBaseRtt(), MicroSeconds(6));
    EXPECT_NEAR(cc->GetMaxCwnd(), 1.5 * 12.5e9 * 6e-6, 1e-6);
    EXPECT_NEAR(W(), cc->GetMaxCwnd(), 1e-6);

    // Pacing: W x wire / payload x 8 bits in one base RTT.
    Make({{"InitialWindow", "62500"}, kNoPeriod});
    EXPECT_NEAR(double(cc->GetRate()), 62500 * kWire / kMtu * 8 / 10e-6, 1);
    EXPECT_EQ(cc->GetWindow(), 62500u);
}
