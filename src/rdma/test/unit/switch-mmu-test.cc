/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of SwitchMmu, the shared-buffer MMU of a switch.
 *
 * Specification (docs/design.md, "Switch buffer, PFC and ECN"; switch-mmu.h):
 *  - shared capacity C = BufferSize - sum of the ports' reserved headroom;
 *  - dynamic Xoff = PfcAlpha x (C - shared used); static Xoff = StaticXoff;
 *  - a lossless ingress (port, class) pauses its upstream once its counter reaches Xoff;
 *    bytes still in flight then go to the port's headroom, admitted while it has room,
 *    refused (dropped) once it is full;
 *  - it resumes only when its headroom is empty and its counter <= Xoff - XonDelta;
 *  - ECN (RED) on the egress queue q: p = 0 for q <= Kmin, Pmax (q-Kmin)/(Kmax-Kmin) for
 *    Kmin < q <= Kmax, 1 for q > Kmax;
 *  - lossy classes (PFC off, or class not in LosslessClasses): tail drop when
 *    egress queue + frame > EgressAlpha x (C - shared used).
 * All numbers below are derived by hand from these rules.
 */

#include "ns3/core-module.h"
#include "ns3/switch-mmu.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint8_t kLossless = 3; // in the default LosslessClasses mask 0x7f
constexpr uint8_t kLossy = 7;    // not in 0x7f
constexpr uint32_t kPkt = 1000;

/// An MMU with \p ports ports, each with \p headroom bytes of headroom.
Ptr<SwitchMmu>
MakeMmu(uint64_t buffer, uint32_t ports, uint64_t headroom)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(buffer));
    mmu->SetAttribute("PfcAlpha", DoubleValue(0.125));
    mmu->SetAttribute("XonDelta", UintegerValue(2000));
    mmu->SetPortCount(ports);
    for (uint32_t p = 0; p < ports; ++p)
    {
        mmu->SetHeadroom(p, headroom);
    }
    mmu->AssignStreams(7);
    return mmu;
}

} // namespace

// Rule: dynamic Xoff = alpha x (BufferSize - reserved headroom - shared used).
TEST(SwitchMmu, DynamicXoffIsAlphaTimesFreeSharedBuffer)
{
    // 1,000,000 buffer - 4 x 10,000 headroom = 960,000 shared.
    Ptr<SwitchMmu> mmu = MakeMmu(1000000, 4, 10000);
    EXPECT_EQ(mmu->GetSharedCapacity(), 960000u);
    EXPECT_EQ(mmu->GetXoffThreshold(), 120000u); // 0.125 x 960,000

    ASSERT_TRUE(mmu->Admit(1, 2, kLossless, 8000));
    EXPECT_EQ(mmu->GetSharedUsed(), 8000u);
    EXPECT_EQ(mmu->GetXoffThreshold(), 119000u); // 0.125 x (960,000 - 8,000)

    ASSERT_TRUE(mmu->Admit(0, 2, kLossless, 40000));
    EXPECT_EQ(mmu->GetXoffThreshold(), 114000u); // 0.125 x (960,000 - 48,000)

    // More headroom on port 0 (50,000 instead of 10,000): reserved 80,000, shared 920,000.
    mmu->SetHeadroom(0, 50000);
    EXPECT_EQ(mmu->GetHeadroom(0), 50000u);
    EXPECT_EQ(mmu->GetSharedCapacity(), 920000u);
    EXPECT_EQ(mmu->GetXoffThreshold(), 109000u); // 0.125 x (920,000 - 48,000)
}

// Rule: ShouldPause becomes true exactly when the ingress counter reaches Xoff.
// BufferSize 940,000 - 4 x 10,000 headroom -> C = 900,000. With one ingress counter c
// (all of the shared use), c reaches Xoff when c = 0.125 (900,000 - c), c = 900,000/9 =
// 100,000 = 100 frames of 1000 bytes. After 99 frames: c = 99,000 < Xoff = 0.125 x
// 801,000 = 100,125 (no pause); the 100th is admitted (100,000 <= 100,125) and then
// c = 100,000 = Xoff = 0.125 x 800,000.
TEST(SwitchMmu, PauseExactlyWhenIngressCounterReachesDynamicXoff)
{
    Ptr<SwitchMmu> mmu = MakeMmu(940000, 4, 10000);
    ASSERT_EQ(mmu->GetSharedCapacity(), 900000u);
    for (int k = 1; k <= 99; ++k)
    {
        ASSERT_TRUE(mmu->Admit(1, 2, kLossless, kPkt)) << "frame " << k;
        ASSERT_FALSE(mmu->ShouldPause(1, kLossless)) << "paused early, after frame " << k;
    }
    EXPECT_EQ(mmu->GetXoffThreshold(), 100125u);
    ASSERT_TRUE(mmu->Admit(1, 2, kLossless, kPkt));
    EXPECT_EQ(mmu->GetIngressBytes(1, kLossless), 100000u);
    EXPECT_EQ(mmu->GetXoffThreshold(), 100000u);
    EXPECT_EQ(mmu->GetHeadroomUsed(1, kLossless), 0u);
    EXPECT_TRUE(mmu->ShouldPause(1, kLossless));
    // Other (port, class) counters are unaffected.
    EXPECT_FALSE(mmu->ShouldPause(0, kLossless));
    EXPECT_FALSE(mmu->ShouldPause(1, 4));
}

namespace
{

/// The state of PauseExactlyWhenIngressCounterReachesDynamicXoff: port 1 class 3 holds
/// 100,000 shared bytes, Xoff = 100,000, paused.
Ptr<SwitchMmu>
MakePausedMmu()
{
    Ptr<SwitchMmu> mmu = MakeMmu(940000, 4, 10000);
    for (int k = 0; k < 100; ++k)
    {
        mmu->Admit(1, 2, kLossless, kPkt);
    }
    return mmu;
}

} // namespace

// Rule: once paused, further bytes go to the headroom and are admitted until it is full
// (10,000 bytes = 10 frames), then refused; the shared counters do not move.
TEST(SwitchMmu, HeadroomAbsorbsInFlightBytesThenDrops)
{
    Ptr<SwitchMmu> mmu = MakePausedMmu();
    ASSERT_TRUE(mmu->ShouldPause(1, kLossless));
    for (uint64_t k = 1; k <= 10; ++k)
    {
        ASSERT_TRUE(mmu->Admit(1, 2, kLossless, kPkt)) << "headroom frame " << k;
        EXPECT_EQ(mmu->GetHeadroomUsed(1, kLossless), k * kPkt);
        EXPECT_EQ(mmu->GetSharedUsed(), 100000u);
        EXPECT_EQ(mmu->GetIngressBytes(1, kLossless), 100000u + k * kPkt);
    }
    // Headroom full (10,000 of 10,000): the next frame is dropped, nothing changes.
    EXPECT_FALSE(mmu->Admit(1, 2, kLossless, kPkt));
    EXPECT_FALSE(mmu->Admit(1, 2, kLossless, 1)); // not even one byte fits
    EXPECT_EQ(mmu->GetHeadroomUsed(1, kLossless), 10000u);
    EXPECT_EQ(mmu->GetIngressBytes(1, kLossless), 110000u);
    EXPECT_EQ(mmu->GetEgressBytes(2, kLossless), 110000u);
    EXPECT_TRUE(mmu->ShouldPause(1, kLossless));

    // Another ingress port is not paused and still uses the shared pool:
    // its counter 0 + 1000 <= Xoff = 100,000.
    EXPECT_TRUE(mmu->Admit(0, 2, kLossless, kPkt));
    EXPECT_EQ(mmu->GetHeadroomUsed(0, kLossless), 0u);
    EXPECT_EQ(mmu->GetSharedUsed(), 101000u);
}

// Rule: ShouldResume only after the headroom drained and counter <= Xoff - XonDelta.
// From 100,000 shared + 10,000 headroom: releases 1..10 drain the headroom (counter stays
// 100,000 = Xoff: no resume). Release 11: c = 99,000, Xoff = 0.125 x 801,000 = 100,125,
// 99,000 + 2,000 > 100,125: no resume (and no pause: hysteresis band). Release 12:
// c = 98,000, Xoff = 0.125 x 802,000 = 100,250, 98,000 + 2,000 <= 100,250: resume.
TEST(SwitchMmu, ResumeOnlyAfterHeadroomDrainedAndBelowXoffMinusXonDelta)
{
    Ptr<SwitchMmu> mmu = MakePausedMmu();
    for (int k = 0; k < 10; ++k)
    {
        ASSERT_TRUE(mmu->Admit(1, 2, kLossless, kPkt));
    }
    ASSERT_EQ(mmu->GetHeadroomUsed(1, kLossless), 10000u);
    EXPECT_FALSE(mmu->ShouldResume(1, kLossless));

    for (uint64_t k = 1; k <= 10; ++k)
    {
        mmu->Release(1, 2, kLossless, kPkt);
        EXPECT_EQ(mmu->GetHeadroomUsed(1, kLossless), 10000u - k * kPkt);
        EXPECT_EQ(mmu->GetSharedUsed(), 100000u); // headroom drains first
        EXPECT_FALSE(mmu->ShouldResume(1, kLossless)) << "release " << k;
    }
    EXPECT_TRUE(mmu->ShouldPause(1, kLossless)); // counter still at Xoff

    mmu->Release(1, 2, kLossless, kPkt); // 11
    EXPECT_EQ(mmu->GetIngressBytes(1, kLossless), 99000u);
    EXPECT_EQ(mmu->GetXoffThreshold(), 100125u);
    EXPECT_FALSE(mmu->ShouldResume(1, kLossless));
    EXPECT_FALSE(mmu->ShouldPause(1, kLossless));

    mmu->Release(1, 2, kLossless, kPkt); // 12
    EXPECT_EQ(mmu->GetXoffThreshold(), 100250u);
    EXPECT_TRUE(mmu->ShouldResume(1, kLossless));
}

// Rule: with DynamicXoff=false, Xoff is StaticXoff whatever the shared use.
// StaticXoff 5000, XonDelta 2000: pause at 5 frames, resume once c <= 3000.
TEST(SwitchMmu, StaticXoff)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(1000000));
    mmu->SetAttribute("DynamicXoff", BooleanValue(false));
    mmu->SetAttribute("StaticXoff", UintegerValue(5000));
    mmu->SetAttribute("XonDelta", UintegerValue(2000));
    mmu->SetPortCount(4);
    for (uint32_t p = 0; p < 4; ++p)
    {
        mmu->SetHeadroom(p, 10000);
    }
    EXPECT_EQ(mmu->GetXoffThreshold(), 5000u);
    // Fill the shared pool with a lossy class: the static threshold does not move.
    ASSERT_TRUE(mmu->Admit(0, 3, kLossy, 300000));
    EXPECT_EQ(mmu->GetXoffThreshold(), 5000u);

    for (int k = 1; k <= 4; ++k)
    {
        ASSERT_TRUE(mmu->Admit(1, 2, kLossless, kPkt));
        EXPECT_FALSE(mmu->ShouldPause(1, kLossless)) << "after frame " << k;
    }
    ASSERT_TRUE(mmu->Admit(1, 2, kLossless, kPkt)); // c = 5000 = Xoff
    EXPECT_TRUE(mmu->ShouldPause(1, kLossless));
    ASSERT_TRUE(mmu->Admit(1, 2, kLossless, kPkt)); // to headroom
    EXPECT_EQ(mmu->GetHeadroomUsed(1, kLossless), 1000u);
    EXPECT_EQ(mmu->GetIngressBytes(1, kLossless), 6000u);

    mmu->Release(1, 2, kLossless, kPkt); // headroom empty, c = 5000: 7000 > 5000
    EXPECT_FALSE(mmu->ShouldResume(1, kLossless));
    mmu->Release(1, 2, kLossless, kPkt); // c = 4000: 6000 > 5000
    EXPECT_FALSE(mmu->ShouldResume(1, kLossless));
    mmu->Release(1, 2, kLossless, kPkt); // c = 3000: 5000 <= 5000
    EXPECT_TRUE(mmu->ShouldResume(1, kLossless));
}

// Rule: RED marking probability: 0 at/below Kmin, Pmax (q-Kmin)/(Kmax-Kmin) between,
// Pmax at Kmax, 1 above Kmax. Kmin 100,000, Kmax 500,000, Pmax 0.2.
TEST(SwitchMmu, MarkProbabilityPiecewiseLinear)
{
    Ptr<SwitchMmu> mmu = MakeMmu(32 << 20, 4, 0);
    mmu->SetEcnThresholds(2, 100000, 500000, 0.2);
    EXPECT_EQ(mmu->MarkProbability(2, 0), 0.0);
    EXPECT_EQ(mmu->MarkProbability(2, 50000), 0.0);
    EXPECT_EQ(mmu->MarkProbability(2, 100000), 0.0); // at Kmin
    // One byte above Kmin: 0.2 x 1/400,000 = 5e-7.
    EXPECT_DOUBLE_EQ(mmu->MarkProbability(2, 100001), 5e-7);
    EXPECT_DOUBLE_EQ(mmu->MarkProbability(2, 200000), 0.05); // 0.2 x 1/4
    EXPECT_DOUBLE_EQ(mmu->MarkProbability(2, 300000), 0.1);  // 0.2 x 1/2
    EXPECT_DOUBLE_EQ(mmu->MarkProbability(2, 500000), 0.2);  // at Kmax: Pmax
    EXPECT_EQ(mmu->MarkProbability(2, 500001), 1.0);         // above Kmax
    EXPECT_EQ(mmu->MarkProbability(2, 10000000), 1.0);
}

// Rule: ports take the Kmin/Kmax/Pmax attributes by default (set before SetPortCount).
// Kmin 400 KB = 409,600, Kmax 1600 KB = 1,638,400, Pmax 0.2: midpoint 1,024,000 -> 0.1.
TEST(SwitchMmu, DefaultEcnThresholdsFromAttributes)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("Kmin", UintegerValue(400 * 1024));
    mmu->SetAttribute("Kmax", UintegerValue(1600 * 1024));
    mmu->SetAttribute("Pmax", DoubleValue(0.2));
    mmu->SetPortCount(3);
    mmu->SetEcnThresholds(0, 1000, 2000, 0.5); // only port 0 changes
    for (uint32_t p = 1; p < 3; ++p)
    {
        EXPECT_EQ(mmu->MarkProbability(p, 409600), 0.0);
        EXPECT_DOUBLE_EQ(mmu->MarkProbability(p, 1024000), 0.1);
        EXPECT_EQ(mmu->MarkProbability(p, 1638401), 1.0);
    }
    EXPECT_DOUBLE_EQ(mmu->MarkProbability(0, 1500), 0.25); // 0.5 x 500/1000
}

// Rule: ShouldMarkEcn marks with probability MarkProbability(queue): queue 300,000 with
// Kmin 100,000 / Kmax 500,000 / Pmax 0.2 -> p = 0.1. Over 20,000 draws the count is
// Binomial(20000, 0.1): mean 2000, sigma = sqrt(20000 x 0.1 x 0.9) = 42.4; accept 3 sigma
// (127). Queue at Kmin: never; queue above Kmax: always.
TEST(SwitchMmu, ShouldMarkEcnFrequencyMatchesProbability)
{
    Ptr<SwitchMmu> mmu = MakeMmu(32 << 20, 4, 0);
    mmu->SetEcnThresholds(2, 100000, 500000, 0.2);
    mmu->SetEcnThresholds(3, 100000, 500000, 0.2);
    mmu->SetEcnThresholds(1, 100000, 500000, 0.2);
    ASSERT_TRUE(mmu->Admit(0, 2, kLossless, 300000));
    ASSERT_TRUE(mmu->Admit(1, 3, kLossy, 100000)); // exactly Kmin
    ASSERT_TRUE(mmu->Admit(2, 1, kLossy, 500001)); // just above Kmax

    const int draws = 20000;
    int marked = 0;
    for (int i = 0; i < draws; ++i)
    {
        marked += mmu->ShouldMarkEcn(2, kLossless) ? 1 : 0;
    }
    const double sigma = std::sqrt(draws * 0.1 * 0.9);
    EXPECT_NEAR(marked, 2000.0, 3 * sigma);

    int atKmin = 0;
    int aboveKmax = 0;
    for (int i = 0; i < 2000; ++i)
    {
        atKmin += mmu->ShouldMarkEcn(3, kLossy) ? 1 : 0;
        aboveKmax += mmu->ShouldMarkEcn(1, kLossy) ? 1 : 0;
    }
    EXPECT_EQ(atKmin, 0);
    EXPECT_EQ(aboveKmax, 2000);
    // Marking follows the (port, class) queue: class 4 of port 2 is empty.
    EXPECT_FALSE(mmu->ShouldMarkEcn(2, 4));
}

// Rule: EcnEnabled=false never marks, even above Kmax.
TEST(SwitchMmu, NoMarkingWhenEcnDisabled)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("EcnEnabled", BooleanValue(false));
    mmu->SetPortCount(4);
    mmu->SetEcnThresholds(2, 100000, 500000, 0.2);
    ASSERT_TRUE(mmu->Admit(0, 2, kLossless, 600000));
    EXPECT_EQ(mmu->MarkProbability(2, 600000), 1.0); // the probability itself is 1
    int marked = 0;
    for (int i = 0; i < 1000; ++i)
    {
        marked += mmu->ShouldMarkEcn(2, kLossless) ? 1 : 0;
    }
    EXPECT_EQ(marked, 0);
}

// Rule: lossy mode (PfcEnabled=false): drop when egress queue + frame > EgressAlpha x free
// shared buffer. Buffer 1,000,000, no headroom, EgressAlpha 0.5, one queue q = 1000 k:
// frame k+1 admitted iff 1000 k + 1000 <= 0.5 (1,000,000 - 1000 k), i.e. k <= 332.67:
// 333 frames admitted (q = 333,000); the 334th: 334,000 > 0.5 x 667,000 = 333,500 -> drop.
TEST(SwitchMmu, LossyModeDropsAtDynamicEgressThreshold)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(1000000));
    mmu->SetAttribute("PfcEnabled", BooleanValue(false));
    mmu->SetAttribute("EgressAlpha", DoubleValue(0.5));
    mmu->SetPortCount(4);
    for (uint8_t c = 0; c < 8; ++c)
    {
        EXPECT_FALSE(mmu->IsLossless(c));
    }
    int admitted = 0;
    while (mmu->Admit(1, 2, kLossless, kPkt))
    {
        ++admitted;
        ASSERT_LE(admitted, 1000) << "never dropped";
    }
    EXPECT_EQ(admitted, 333);
    EXPECT_EQ(mmu->GetEgressBytes(2, kLossless), 333000u);
    EXPECT_EQ(mmu->GetSharedUsed(), 333000u);
    EXPECT_FALSE(mmu->ShouldPause(1, kLossless)); // no PFC in lossy mode
    EXPECT_EQ(mmu->GetHeadroomUsed(1, kLossless), 0u);
    // Another egress queue is empty: 0 + 1000 <= 0.5 x 667,000.
    EXPECT_TRUE(mmu->Admit(1, 3, kLossless, kPkt));
}

// Rule: headroom is set aside only when some class is lossless. Buffer 1,000,000 with
// 4 x 10,000 headroom: PFC on -> 960,000 shared; PFC off, or no lossless class ->
// 1,000,000 shared.
TEST(SwitchMmu, HeadroomReservedOnlyWhenSomeClassIsLossless)
{
    for (int mode = 0; mode < 3; ++mode)
    {
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        mmu->SetAttribute("BufferSize", UintegerValue(1000000));
        if (mode == 1)
        {
            mmu->SetAttribute("PfcEnabled", BooleanValue(false));
        }
        if (mode == 2)
        {
            mmu->SetAttribute("LosslessClasses", UintegerValue(0));
        }
        mmu->SetPortCount(4);
        for (uint32_t p = 0; p < 4; ++p)
        {
            mmu->SetHeadroom(p, 10000);
        }
        EXPECT_EQ(mmu->GetSharedCapacity(), mode == 0 ? 960000u : 1000000u) << "mode " << mode;
    }
}

// Rule: with PFC on, a class outside LosslessClasses follows the lossy rule too:
// EgressAlpha 1, buffer 100,000 no headroom: q + 1000 <= 100,000 - q -> q <= 49,500:
// 50 frames (q = 50,000), the 51st: 51,000 > 50,000 -> drop.
TEST(SwitchMmu, ClassOutsideLosslessMaskIsLossy)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(100000));
    mmu->SetAttribute("EgressAlpha", DoubleValue(1.0));
    mmu->SetAttribute("LosslessClasses", UintegerValue(0x08)); // only class 3
    mmu->SetPortCount(2);
    EXPECT_TRUE(mmu->IsLossless(3));
    EXPECT_FALSE(mmu->IsLossless(0));
    EXPECT_FALSE(mmu->IsLossless(7));
    int admitted = 0;
    while (mmu->Admit(0, 1, 0, kPkt) && admitted < 1000)
    {
        ++admitted;
    }
    EXPECT_EQ(admitted, 50);
    EXPECT_FALSE(mmu->ShouldPause(0, 0));
}

// Rule: Release returns every counter to zero once all admitted bytes have left
// (lossless shared + headroom, lossy), and Xoff returns to alpha x C = 112,500.
TEST(SwitchMmu, ReleaseReturnsCountersToZero)
{
    Ptr<SwitchMmu> mmu = MakePausedMmu(); // 100 frames port 1 -> 2, class 3
    for (int k = 0; k < 10; ++k)
    {
        ASSERT_TRUE(mmu->Admit(1, 2, kLossless, kPkt)); // headroom
    }
    for (int k = 0; k < 50; ++k)
    {
        ASSERT_TRUE(mmu->Admit(3, 1, kLossy, kPkt));
    }
    ASSERT_EQ(mmu->GetHeadroomUsed(1, kLossless), 10000u);
    for (int k = 0; k < 110; ++k)
    {
        mmu->Release(1, 2, kLossless, kPkt);
    }
    for (int k = 0; k < 50; ++k)
    {
        mmu->Release(3, 1, kLossy, kPkt);
    }
    EXPECT_EQ(mmu->GetSharedUsed(), 0u);
    EXPECT_EQ(mmu->GetIngressBytes(1, kLossless), 0u);
    EXPECT_EQ(mmu->GetHeadroomUsed(1, kLossless), 0u);
    EXPECT_EQ(mmu->GetEgressBytes(2, kLossless), 0u);
    EXPECT_EQ(mmu->GetIngressBytes(3, kLossy), 0u);
    EXPECT_EQ(mmu->GetEgressBytes(1, kLossy), 0u);
    EXPECT_EQ(mmu->GetXoffThreshold(), 112500u); // 0.125 x 900,000
    EXPECT_FALSE(mmu->ShouldPause(1, kLossless));
    EXPECT_TRUE(mmu->ShouldResume(1, kLossless));
}

// Rule: GetMaxEgressBytes is the largest single (port, class) egress queue ever seen.
TEST(SwitchMmu, MaxEgressBytesIsLargestQueueEverSeen)
{
    Ptr<SwitchMmu> mmu = MakeMmu(32 << 20, 4, 0);
    EXPECT_EQ(mmu->GetMaxEgressBytes(), 0u);
    ASSERT_TRUE(mmu->Admit(0, 2, kLossless, 5000));
    ASSERT_TRUE(mmu->Admit(0, 3, kLossless, 3000));
    EXPECT_EQ(mmu->GetMaxEgressBytes(), 5000u);
    mmu->Release(0, 2, kLossless, 5000);
    EXPECT_EQ(mmu->GetMaxEgressBytes(), 5000u); // a maximum, not the current queue
    ASSERT_TRUE(mmu->Admit(0, 2, kLossless, 2000));
    EXPECT_EQ(mmu->GetMaxEgressBytes(), 5000u);
    ASSERT_TRUE(mmu->Admit(1, 3, kLossless, 4000)); // port 3 class 3: 7000
    EXPECT_EQ(mmu->GetMaxEgressBytes(), 7000u);
    // Port 3 now holds 13,000 over two classes, but no single queue exceeds 7000.
    ASSERT_TRUE(mmu->Admit(1, 3, 4, 6000));
    EXPECT_EQ(mmu->GetMaxEgressBytes(), 7000u);
}

// Rule (invariant): headroom is reserved once per port, for its lossless classes
// (switch-mmu.h; RdmaTopology sizes one round trip per port), so the lossless classes of
// one ingress port together cannot hold more than that port's headroom.
// Port 1, headroom 10,000: classes 3 and 4 each reach their Xoff, then each gets 10
// in-flight frames: at most 10,000 bytes in total may be admitted to headroom.
TEST(SwitchMmu, PortHeadroomIsSharedByItsLosslessClasses)
{
    Ptr<SwitchMmu> mmu = MakeMmu(940000, 4, 10000);
    for (uint8_t c : {uint8_t(3), uint8_t(4)})
    {
        int guard = 0;
        while (!mmu->ShouldPause(1, c) && guard++ < 1000)
        {
            ASSERT_TRUE(mmu->Admit(1, 2, c, kPkt));
        }
        ASSERT_TRUE(mmu->ShouldPause(1, c));
    }
    for (int k = 0; k < 10; ++k)
    {
        mmu->Admit(1, 2, 3, kPkt);
        mmu->Admit(1, 2, 4, kPkt);
    }
    const uint64_t used = mmu->GetHeadroomUsed(1, 3) + mmu->GetHeadroomUsed(1, 4);
    EXPECT_LE(used, mmu->GetHeadroom(1));
}

// Rule (invariant): the bytes held by the switch (shared pool + headroom in use) never
// exceed BufferSize. BufferSize 100,000, 2 ports x 10,000 headroom: C = 80,000 shared.
// Static Xoff 40,000 (oversubscribed, as static thresholds usually are): port 0 classes 3
// and 4 take 40,000 each and fill the pool; then every lossless (port, class) of ports 0
// and 1 (classes 3, 4) is offered 10 more frames, which can only go to headroom. Only
// 2 x 10,000 headroom is reserved, so at most 80,000 + 20,000 = 100,000 bytes may be held.
TEST(SwitchMmu, HeldBytesNeverExceedBufferSize)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(100000));
    mmu->SetAttribute("DynamicXoff", BooleanValue(false));
    mmu->SetAttribute("StaticXoff", UintegerValue(40000));
    mmu->SetPortCount(2);
    mmu->SetHeadroom(0, 10000);
    mmu->SetHeadroom(1, 10000);
    ASSERT_EQ(mmu->GetSharedCapacity(), 80000u);
    for (uint8_t c : {uint8_t(3), uint8_t(4)})
    {
        for (int k = 0; k < 40; ++k)
        {
            ASSERT_TRUE(mmu->Admit(0, 1, c, kPkt));
        }
    }
    ASSERT_EQ(mmu->GetSharedUsed(), 80000u);
    for (int k = 0; k < 10; ++k)
    {
        for (uint32_t port : {0u, 1u})
        {
            mmu->Admit(port, 1 - port, 3, kPkt);
            mmu->Admit(port, 1 - port, 4, kPkt);
        }
    }
    uint64_t held = mmu->GetSharedUsed();
    for (uint32_t p = 0; p < 2; ++p)
    {
        for (uint8_t c = 0; c < 8; ++c)
        {
            held += mmu->GetHeadroomUsed(p, c);
        }
    }
    EXPECT_LE(held, 100000u);
}
