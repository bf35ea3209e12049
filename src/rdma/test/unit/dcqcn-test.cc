/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the DCQCN reaction point (Dcqcn): cuts, increases, timers and the
 * per-cut alpha rule, for every preset's timers, driven by a fake clock (no
 * simulation). The specification is in dcqcn-test-fixture.h.
 */
#include "dcqcn-test-fixture.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace dcqcntest;

// Rule: a flow starts at line rate with alpha = 1 (and target = line rate).
TEST_P(DcqcnPresetTest, StartsAtLineRateWithAlphaOne)
{
    EXPECT_EQ(dc->GetRate(), kLine);
    EXPECT_EQ(dc->GetTargetRate(), kLine);
    EXPECT_EQ(dc->GetAlpha(), 1.0);
    EXPECT_EQ(dc->GetName(), "dcqcn");
}

// Rule: first CNP (alpha = 1): R_C = line (1 - 1/2) = 50 Gb/s, R_T = line,
// alpha = (1-g) 1 + g = 1.
TEST_P(DcqcnPresetTest, FirstCnpHalvesRate)
{
    CnpAt(Time(0));
    EXPECT_EQ(dc->GetRate(), 50000000000ULL);
    EXPECT_EQ(dc->GetTargetRate(), kLine);
    EXPECT_DOUBLE_EQ(dc->GetAlpha(), 1.0);
}

// Rule: a later CNP cuts with the alpha updated in between.
//  paper: second CNP at 110 us = 2 tau' = 2 T: alpha decayed twice, a = (1-g)^2, and two
//         fast-recovery events (events 1 and 2 < F = 5): R_C = 100 - 50/2^2 = 87.5 Gb/s.
//  nic:   second CNP at 10 us (> 4 us cut interval): a = (1-g)^10, no timer event
//         (T = 300 us): R_C = 50 Gb/s.
//  Then R_C = R_C (1 - a/2), alpha = (1-g) a + g; R_T = R_C before the cut (paper, which
//  always clamps) or unchanged at line rate (nic: no timer event since the first cut).
TEST_P(DcqcnPresetTest, SecondCnpCutsWithUpdatedAlpha)
{
    CnpAt(Time(0));
    const Time t2 = spec.name == "paper" ? MicroSeconds(110) : MicroSeconds(10);
    const int64_t nAlpha = t2.GetTimeStep() / spec.alphaInterval.GetTimeStep();
    const int64_t nTimer = t2.GetTimeStep() / spec.timer.GetTimeStep();
    const double a = Decay(nAlpha);
    const double rcBefore = 100e9 - 50e9 / std::pow(2.0, double(nTimer));
    CnpAt(t2);
    EXPECT_EQ(double(dc->GetTargetRate()), spec.clampTargetRate ? rcBefore : 100e9);
    EXPECT_NEAR(double(dc->GetRate()), rcBefore * (1 - a / 2), kRateTol);
    EXPECT_NEAR(dc->GetAlpha(), (1 - spec.g) * a + spec.g, kAlphaTol);
    EXPECT_LT(dc->GetAlpha(), 1.0);
    // alpha < 1 makes this cut smaller than halving.
    EXPECT_GT(double(dc->GetRate()), rcBefore / 2);
}

// Rule: alpha decays by (1-g)^n after n whole alpha intervals without CNP (not before the
// first interval ends; partial intervals do not count). GetAlpha() reads the state, which
// advances when the NIC asks for the rate (lazy timers), so GetRate() comes first.
TEST_P(DcqcnPresetTest, AlphaDecaysPerIntervalWithoutCnp)
{
    CnpAt(Time(0)); // alpha = 1, alpha period restarts at 0
    const Time tau = spec.alphaInterval;
    RateAt(tau - NanoSeconds(1));
    EXPECT_EQ(dc->GetAlpha(), 1.0);
    RateAt(tau);
    EXPECT_NEAR(dc->GetAlpha(), Decay(1), kAlphaTol);
    RateAt(tau * 3 + tau / 2);
    EXPECT_NEAR(dc->GetAlpha(), Decay(3), kAlphaTol);
    RateAt(tau * 7);
    EXPECT_NEAR(dc->GetAlpha(), Decay(7), kAlphaTol);
    RateAt(tau * 100 + NanoSeconds(1));
    EXPECT_NEAR(dc->GetAlpha(), Decay(100), kAlphaTol);
}

// Rule: the decay is the same whether the rate is asked every few ns or once at the end.
TEST_P(DcqcnPresetTest, LazyAlphaDecayEqualsStepwise)
{
    Ptr<Dcqcn> first = dc;
    CnpAt(Time(0));
    Make(GetParam()); // second instance on the same clock
    Ptr<Dcqcn> second = dc;
    CnpAt(Time(0));
    const Time end = spec.alphaInterval * 40 + spec.alphaInterval / 3;
    for (Time t = Time(0); t <= end; t += spec.alphaInterval / 7)
    {
        clock.now = t;
        first->GetRate();
    }
    clock.now = end;
    first->GetRate();
    second->GetRate();
    EXPECT_NEAR(first->GetAlpha(), Decay(40), kAlphaTol);
    EXPECT_NEAR(second->GetAlpha(), Decay(40), kAlphaTol);
    EXPECT_NEAR(double(first->GetRate()), double(second->GetRate()), kRateTol);
}

// Rule: after one increase-timer period, the first event is fast recovery:
// R_C = (R_T + R_C)/2 = (100 + 50)/2 = 75 Gb/s, R_T unchanged at line rate.
TEST_P(DcqcnPresetTest, FastRecoveryAfterOneTimerPeriod)
{
    CnpAt(Time(0));
    RateAt(spec.timer - NanoSeconds(1));
    EXPECT_EQ(dc->GetRate(), 50000000000ULL); // no event yet
    EXPECT_EQ(RateAt(spec.timer), 75000000000ULL);
    EXPECT_EQ(dc->GetTargetRate(), kLine);
}

// Rule: the first F timer events after a cut are fast recovery (R_T unchanged,
// R_C = (R_T + R_C)/2), the (F+1)th is additive (R_T += R_AI). R_T is below line rate
// here (TwoCuts: paper 50 Gb/s, nic 75 Gb/s), so an additive step is visible.
//  paper (F = 5): events 1..5 fast recovery, event 6: R_T = 50 Gb/s + 40 Mb/s;
//  nic   (F = 1): event 1 fast recovery,     event 2: R_T = 75 Gb/s + 20 Mb/s.
TEST_P(DcqcnPresetTest, FastRecoveryLastsFEvents)
{
    TwoCuts();
    double rc = double(dc->GetRate());
    const double rt = TargetAfterTwoCuts();
    for (uint32_t k = 1; k <= spec.f; ++k)
    {
        const uint64_t r = RateAt(SecondCut() + spec.timer * int64_t(k));
        EXPECT_EQ(double(dc->GetTargetRate()), rt) << "event " << k << " should be fast recovery";
        rc = (rt + rc) / 2;
        EXPECT_NEAR(double(r), rc, kRateTol) << "event " << k;
    }
    const uint64_t r = RateAt(SecondCut() + spec.timer * int64_t(spec.f + 1));
    EXPECT_EQ(double(dc->GetTargetRate()), rt + spec.rai) << "event F+1 should be additive";
    EXPECT_NEAR(double(r), (rt + spec.rai + rc) / 2, kRateTol);
}

// Rule: a cut restarts the increase timer and the alpha period: after the second cut at
// t2 (paper: 10 us, not a multiple of T = tau' = 55 us after the first cut), neither alpha
// nor the rate changes before t2 + tau' and t2 + T; at t2 + T the first increase event
// raises R_C, and alpha has decayed floor(T / tau') times (paper 1, nic 300).
TEST_P(DcqcnPresetTest, CutRestartsIncreaseTimerAndAlphaPeriod)
{
    TwoCuts();
    const uint64_t rc = dc->GetRate();
    const double alpha = dc->GetAlpha();
    const Time t2 = SecondCut();
    EXPECT_EQ(RateAt(t2 + std::min(spec.alphaInterval, spec.timer) - NanoSeconds(1)), rc);
    EXPECT_EQ(dc->GetAlpha(), alpha);
    EXPECT_EQ(RateAt(t2 + spec.timer - NanoSeconds(1)), rc);
    EXPECT_GT(RateAt(t2 + spec.timer), rc);
    const int64_t n = spec.timer.GetTimeStep() / spec.alphaInterval.GetTimeStep();
    EXPECT_NEAR(dc->GetAlpha(), alpha * Decay(n), kAlphaTol);
}

// Rule: once past fast recovery (and with no byte-counter events, so never hyper), every
// timer event adds R_AI to R_T and sets R_C = (R_T + R_C)/2. Checked on events F+2..F+7,
// which are additive whatever the convention for counting the current event.
TEST_P(DcqcnPresetTest, AdditiveIncreaseAddsRai)
{
    TwoCuts();
    RateAt(SecondCut() + spec.timer * int64_t(spec.f + 1));
    double rt = double(dc->GetTargetRate());
    double rc = double(dc->GetRate());
    for (uint32_t k = spec.f + 2; k <= spec.f + 7; ++k)
    {
        const uint64_t r = RateAt(SecondCut() + spec.timer * int64_t(k));
        rt += spec.rai;
        rc = (rt + rc) / 2;
        EXPECT_EQ(double(dc->GetTargetRate()), rt) << "event " << k;
        EXPECT_NEAR(double(r), rc, kRateTol) << "event " << k;
    }
}

// Rule: R_C never goes below the minimum rate, however many CNPs arrive (paper 100 Mb/s,
// nic 1 Gb/s), and reaches it. CNPs are spaced so that each one cuts (paper: every CNP;
// nic: one cut per 4 us, CNPs every 5 us).
TEST_P(DcqcnPresetTest, RateNeverBelowMinRate)
{
    const Time gap = spec.name == "paper" ? MicroSeconds(1) : MicroSeconds(5);
    for (int i = 0; i < 200; ++i)
    {
        CnpAt(gap * i);
        const uint64_t r = dc->GetRate();
        ASSERT_GE(double(r), spec.minRate) << "after CNP " << i;
    }
    EXPECT_EQ(double(dc->GetRate()), spec.minRate);
}

// Rule: R_C and R_T never exceed line rate, with timer events and (paper) byte-counter
// events driving additive and hyper increase for 2 s; in the end both are at line rate.
TEST_P(DcqcnPresetTest, RateNeverAboveLineRate)
{
    CnpAt(Time(0));
    CnpAt(MicroSeconds(10));
    const Time step = spec.timer / 3;
    for (Time t = MicroSeconds(10); t < Seconds(2); t += step)
    {
        clock.now = t;
        if (spec.byteCounter > 0)
        {
            dc->OnSendEvent(CcSendEvent::SEND,
                            uint32_t(spec.byteCounter)); // one byte-counter event per step
        }
        ASSERT_LE(dc->GetRate(), kLine) << "at " << t;
        ASSERT_LE(dc->GetTargetRate(), kLine) << "at " << t;
    }
    EXPECT_EQ(dc->GetRate(), kLine);
    EXPECT_EQ(dc->GetTargetRate(), kLine);
}

// Rule (paper preset, RateDecreaseInterval 0): every CNP cuts at once, even 1 ns apart.
// alpha stays 1 (no decay within 55 us): 100 -> 50 -> 25 -> 12.5 Gb/s.
TEST_F(DcqcnTest, PaperEveryCnpCutsImmediately)
{
    Make("paper");
    CnpAt(Time(0));
    CnpAt(NanoSeconds(1));
    EXPECT_EQ(dc->GetRate(), 25000000000ULL);
    CnpAt(NanoSeconds(1));
    EXPECT_EQ(dc->GetRate(), 12500000000ULL);
    EXPECT_EQ(dc->GetTargetRate(), 25000000000ULL);
}

// Rule (nic preset, RateDecreaseInterval 4 us): a CNP within 4 us of the last cut does
// not cut at once; the cut is applied when the interval ends (at 4 us), once, however
// many CNPs arrived in the interval. CNPs at 0 (cut to 50 Gb/s), 1, 2 and 3 us.
// At +2 us: still 50 Gb/s. At 4 us: alpha has decayed 4 periods since 0, a = (1-g)^4,
// R_C = 50 (1 - a/2) Gb/s, alpha = (1-g) a + g, R_T stays at line rate (no timer event
// since the first cut, ClampTargetRate false); at +5 us the same rate (no second cut) and
// alpha one more decay.
TEST_F(DcqcnTest, NicDefersCnpInsideRateDecreaseInterval)
{
    Make("nic");
    CnpAt(Time(0));
    ASSERT_EQ(dc->GetRate(), 50000000000ULL);
    CnpAt(MicroSeconds(1));
    EXPECT_EQ(dc->GetRate(), 50000000000ULL); // not cut immediately
    EXPECT_EQ(RateAt(MicroSeconds(2)), 50000000000ULL);
    CnpAt(MicroSeconds(2));
    CnpAt(MicroSeconds(3));
    EXPECT_EQ(RateAt(MicroSeconds(4) - NanoSeconds(1)), 50000000000ULL);

    const double a = Decay(4);
    const double cut = 50e9 * (1 - a / 2);
    EXPECT_NEAR(double(RateAt(MicroSeconds(4))), cut, kRateTol);
    EXPECT_EQ(dc->GetTargetRate(), kLine);
    EXPECT_NEAR(dc->GetAlpha(), (1 - spec.g) * a + spec.g, kAlphaTol);

    EXPECT_NEAR(double(RateAt(MicroSeconds(5))), cut, kRateTol); // one cut, not three
    EXPECT_NEAR(dc->GetAlpha(), ((1 - spec.g) * a + spec.g) * (1 - spec.g), kAlphaTol);
}

// Rule (nic preset): after a deferred cut at 4 us, a CNP at 5 us is again inside an
// interval (4..8 us) and is applied at 8 us. alpha just before the 8 us cut:
// a2 = ((1-g) (1-g)^4 + g) (1-g)^4; R_C = cut1 (1 - a2/2); R_T still at line rate (no
// timer event since the first cut).
TEST_F(DcqcnTest, NicDeferredCutsAreSpacedByTheInterval)
{
    Make("nic");
    CnpAt(Time(0));
    CnpAt(MicroSeconds(1));
    const double a1 = Decay(4);
    const double cut1 = 50e9 * (1 - a1 / 2);
    CnpAt(MicroSeconds(5)); // applies the 4 us cut, then defers this one
    EXPECT_NEAR(double(dc->GetRate()), cut1, kRateTol);
    EXPECT_NEAR(double(RateAt(MicroSeconds(8) - NanoSeconds(1))), cut1, kRateTol);
    const double a2 = ((1 - spec.g) * a1 + spec.g) * Decay(4);
    const double r8 = double(RateAt(MicroSeconds(8)));
    EXPECT_NEAR(r8, cut1 * (1 - a2 / 2), 2 * kRateTol); // cut1 itself carries < 1 bit/s
    EXPECT_EQ(dc->GetTargetRate(), kLine);
}

// Rule (ClampTargetRate): paper (true): every cut sets R_T = R_C, so back-to-back cuts
// (0 and 10 us, no timer event between) leave R_T = 50 Gb/s. nic (false): the second cut
// keeps R_T = line rate; a cut that follows a timer event sets R_T = R_C: after the 10 us
// cut, the timer fires at 310 us (R_C rises), and a CNP at 311 us sets R_T to the R_C of
// 311 us.
TEST_P(DcqcnPresetTest, TargetRateOnCutFollowsClampRule)
{
    CnpAt(Time(0));
    CnpAt(MicroSeconds(10));
    EXPECT_EQ(dc->GetTargetRate(), spec.clampTargetRate ? 50000000000ULL : kLine);
    const Time afterTimer = MicroSeconds(10) + spec.timer + MicroSeconds(1);
    const double rcBefore = double(RateAt(afterTimer));
    CnpAt(afterTimer);
    EXPECT_NEAR(double(dc->GetTargetRate()), rcBefore, 1.0); // R_T = R_C, both truncated
}

// Rule (paper preset, B = 10 MB): hyper increase once both the timer and the byte counter
// have counted F = 5 events since the cut: R_T += i R_HAI, i = min(T_cnt, BC) - F + 1.
// After the two cuts (R_T 50 Gb/s): 5 timer events (fast recovery, R_T unchanged), then
// SEND (10 MB) x 5: byte events with BC = 0..4 before them, T_cnt = 5: additive
// (+40 Mb/s each); the 6th OnSend (BC = T_cnt = 5): hyper, i = 1 (+400 Mb/s); the 7th
// (BC 6, T 5): i = 1; timer event 6 (T 5, BC 7): i = 1; timer event 7 (T 6, BC 7): i = 2.
TEST_F(DcqcnTest, PaperHyperIncreaseAfterFTimerAndFByteEvents)
{
    Make("paper");
    TwoCuts();
    const Time t0 = SecondCut();
    for (int k = 1; k <= 5; ++k)
    {
        RateAt(t0 + spec.timer * k);
        EXPECT_EQ(dc->GetTargetRate(), 50000000000ULL) << "timer event " << k;
    }
    clock.now = t0 + spec.timer * 5 + MicroSeconds(1);
    double rt = 50e9;
    for (int j = 1; j <= 5; ++j)
    {
        dc->OnSendEvent(CcSendEvent::SEND, 10000000);
        rt += spec.rai;
        EXPECT_EQ(double(dc->GetTargetRate()), rt) << "byte event " << j << " (additive)";
    }
    dc->OnSendEvent(CcSendEvent::SEND, 10000000);
    rt += spec.rhai;
    EXPECT_EQ(double(dc->GetTargetRate()), rt) << "byte event 6 (hyper, i = 1)";
    dc->OnSendEvent(CcSendEvent::SEND, 10000000);
    rt += spec.rhai;
    EXPECT_EQ(double(dc->GetTargetRate()), rt) << "byte event 7 (hyper, i = 1)";
    RateAt(t0 + spec.timer * 6);
    rt += spec.rhai;
    EXPECT_EQ(double(dc->GetTargetRate()), rt) << "timer event 6 (hyper, i = 1)";
    RateAt(t0 + spec.timer * 7);
    rt += 2 * spec.rhai;
    EXPECT_EQ(double(dc->GetTargetRate()), rt) << "timer event 7 (hyper, i = 2)";
}

// Rule (paper preset): in hyper increase the step is i R_HAI with i = min(T_cnt, BC) - F + 1:
// with T_cnt = 10 timer events fixed, successive byte events raise i by exactly 1 up to
// 10 - 5 + 1 = 6, then i stays 6. Each byte event before hyper is additive (+R_AI).
// (This holds whichever event is counted first, see PaperHyperIncreaseAfterF...)
TEST_F(DcqcnTest, PaperHyperStepGrowsByRhaiUpToTimerCount)
{
    Make("paper");
    TwoCuts();
    const Time t0 = SecondCut();
    RateAt(t0 + spec.timer * 10);
    clock.now = t0 + spec.timer * 10 + MicroSeconds(1);
    std::vector<int> steps; // i of each hyper event
    double prev = double(dc->GetTargetRate());
    for (int j = 1; j <= 16; ++j)
    {
        dc->OnSendEvent(CcSendEvent::SEND, 10000000);
        const double rt = double(dc->GetTargetRate());
        const double d = rt - prev;
        prev = rt;
        if (d == spec.rai)
        {
            EXPECT_TRUE(steps.empty()) << "additive after hyper at byte event " << j;
            continue;
        }
        const double i = d / spec.rhai;
        ASSERT_EQ(i, std::round(i)) << "step " << d << " is not a multiple of R_HAI";
        steps.push_back(int(i));
    }
    ASSERT_GE(steps.size(), 8u);
    EXPECT_EQ(steps.front(), 1);
    for (size_t k = 1; k < steps.size(); ++k)
    {
        EXPECT_EQ(steps[k], std::min(steps[k - 1] + 1, 6)) << "hyper event " << k;
    }
    EXPECT_EQ(steps.back(), 6);
}

// Rule (nic preset): the byte counter is off (B = 0): sending never raises the rate.
TEST_F(DcqcnTest, NicByteCounterOff)
{
    Make("nic");
    CnpAt(Time(0));
    clock.now = MicroSeconds(1);
    for (int i = 0; i < 100; ++i)
    {
        dc->OnSendEvent(CcSendEvent::SEND, 1000000000);
    }
    EXPECT_EQ(dc->GetRate(), 50000000000ULL);
    EXPECT_EQ(dc->GetTargetRate(), kLine);
}

INSTANTIATE_TEST_SUITE_P(
    Presets,
    DcqcnPresetTest,
    ::testing::Values(std::string("paper"), std::string("nic"), std::string("hpcc_sim")),
    [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });
