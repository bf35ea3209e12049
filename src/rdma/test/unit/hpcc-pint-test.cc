/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of PINT's one value (PintCode, PintMeter) and of the HPCC-PINT sender
 * (HpccPint), on a fake clock (no simulation).
 *
 * Specification (docs/design.md, "HPCC-PINT"; Ben Basat et al. SIGCOMM 2020):
 *  - code k of b bits stands for 2^-10 x base^k, base = 2^(20/(2^b - 1)); codes rise
 *    with u; Encode rounds at random so that E[Decode(Encode(u))] = u; no code exceeds
 *    2^b - 1;
 *  - a switch egress keeps u = (1 - w) u + w (qlen/(B T) + txRate/B), w = min(dt, T)/T,
 *    and a packet leaves with max(code, Encode(u));
 *  - the sender: W = Wc/(U/eta) + W_AI if U >= eta or incStage >= maxStage (stage 0),
 *    else Wc + W_AI (stage + 1); Wc and the stage change once per RTT; rate = W/T,
 *    W within [MinRate x T, line rate x T].
 * Numbers: B = 100 Gb/s, T = 10.24 us: B T = 128000 B = W_init, W_AI = 64 B (as
 * hpcc-test.cc), min window 1280 B.
 */

#include "fake-cc-clock.h"

#include "ns3/core-module.h"
#include "ns3/hpcc-pint.h"
#include "ns3/pint-code.h"
#include "ns3/pint-meter.h"
#include "ns3/rdma-header.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr int64_t kTNs = 10240;             // T
constexpr double kBT = 128000;              // B x T = W_init (bytes)
constexpr double kWai = 64;                 // W_AI (bytes)
constexpr double kWmin = 1280;              // MinRate x T (bytes)

TEST(PintCode, BaseFollowsFromTheBitBudget)
{
    // 2^b codes span 2^-10 .. 2^10: base^(2^b - 1) = 2^20.
    for (uint32_t b = 1; b <= 16; ++b)
    {
        EXPECT_NEAR(std::pow(PintCode::Base(b), PintCode::MaxCode(b)),
                    std::exp2(20),
                    1e-6 * std::exp2(20))
            << b;
        EXPECT_NEAR(PintCode::Decode(0, b), std::exp2(-10), 1e-15) << b;
        EXPECT_NEAR(PintCode::Decode(PintCode::MaxCode(b), b), std::exp2(10), 1e-9) << b;
        EXPECT_EQ(PintCode::Bytes(b), (b + 7) / 8) << b;
    }
    // 8 bits: within 1% of PINT's 1.05.
    EXPECT_NEAR(PintCode::Base(8), 1.05, 0.01);
    EXPECT_FALSE(PintCode::IsValidBits(0));
    EXPECT_FALSE(PintCode::IsValidBits(17));
}

TEST(PintCode, CodesAreMonotoneAndWithinTheBudget)
{
    for (uint32_t b : {1u, 4u, 8u, 12u, 16u})
    {
        uint32_t prevLow = 0;
        uint32_t prevHigh = 0;
        for (double u = 1e-4; u < 5000; u *= 1.013)
        {
            // Rounded down (draw ~1) and up (draw 0): both rise with u, at most K.
            const uint32_t low = PintCode::Encode(u, b, 0.999999999);
            const uint32_t high = PintCode::Encode(u, b, 0.0);
            EXPECT_LE(high, PintCode::MaxCode(b)) << b << " " << u;
            EXPECT_LE(low, high);
            EXPECT_GE(low, prevLow) << b << " " << u;
            EXPECT_GE(high, prevHigh) << b << " " << u;
            EXPECT_LE(high - low, 1u);
            // The two codes bracket u (inside the range).
            if (u > 1.001 * std::exp2(-10) && u < 0.999 * std::exp2(10))
            {
                EXPECT_LE(PintCode::Decode(low, b), u * (1 + 1e-12)) << b << " " << u;
                EXPECT_GE(PintCode::Decode(high, b), u * (1 - 1e-12)) << b << " " << u;
            }
            prevLow = low;
            prevHigh = high;
        }
        EXPECT_EQ(PintCode::Encode(1e9, b, 0.5), PintCode::MaxCode(b));
        EXPECT_EQ(PintCode::Encode(0, b, 0.0), 0);
    }
}

TEST(PintCode, RandomRoundingIsUnbiased)
{
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(7);
    for (uint32_t b : {4u, 8u})
    {
        const double step = PintCode::Base(b) - 1; // relative gap between two codes
        for (double u : {0.137, 0.5, 0.95, 1.0, 1.37, 3.3})
        {
            const int n = 200000;
            double sum = 0;
            for (int i = 0; i < n; ++i)
            {
                sum += PintCode::Decode(PintCode::Encode(u, b, rng->GetValue()), b);
            }
            const double mean = sum / n;
            // The error of one draw is at most a step (u x step); the mean of n draws
            // is within a few standard errors of u, far inside one step.
            const double tol = 5 * u * step / std::sqrt(double(n)) + 1e-12;
            EXPECT_NEAR(mean, u, tol) << "bits " << b << " u " << u;
            EXPECT_LT(std::abs(mean - u), u * step) << "bits " << b << " u " << u;
        }
    }
}

TEST(PintMeter, EstimatesHpccUtilisationAndKeepsTheLargestCode)
{
    PintMeter m;
    m.SetBits(16); // fine steps: the code's value is within 0.03% of u
    m.SetBaseRtt(NanoSeconds(kTNs));
    m.AssignStream(3);
    const uint64_t bytesPerT = 128000; // line rate over T
    // First packet: queue term only (half a BDP queued: 0.5).
    uint16_t c = m.Stamp(0, 0, 0, 64000, 0, kLine);
    EXPECT_NEAR(m.GetUtilization(0), 0.5, 1e-12);
    EXPECT_NEAR(PintCode::Decode(c, 16), 0.5, 0.5 * (PintCode::Base(16) - 1));
    // A whole T at line rate with an empty queue: weight 1, u = 1.
    c = m.Stamp(0, 0, kTNs, 0, bytesPerT, kLine);
    EXPECT_NEAR(m.GetUtilization(0), 1.0, 1e-12);
    // Half a T at half rate with a queue of 0.9 B T: u = 0.5 x 1 + 0.5 x (0.9 + 0.5).
    c = m.Stamp(0, 0, kTNs + kTNs / 2, 115200, bytesPerT + bytesPerT / 4, kLine);
    EXPECT_NEAR(m.GetUtilization(0), 1.2, 1e-12);
    EXPECT_NEAR(PintCode::Decode(c, 16), 1.2, 1.2 * (PintCode::Base(16) - 1));
    // A larger code from upstream passes unchanged; a smaller one is replaced.
    const uint16_t big = PintCode::MaxCode(16) - 3;
    EXPECT_EQ(m.Stamp(0, big, 2 * kTNs, 115200, 2 * bytesPerT, kLine), big);
    EXPECT_GT(m.Stamp(0, 1, 2 * kTNs, 115200, 2 * bytesPerT, kLine), 1);
    // Another port has its own history.
    EXPECT_EQ(m.GetUtilization(1), 0.0);
}

TEST(PintCode, TheValueCostsItsBytesOnTheWireAndSurvivesThem)
{
    // ceil(b/8) bytes on a data packet and on an ACK, and the code read back from them.
    for (RdmaPacketType type : {RdmaPacketType::DATA, RdmaPacketType::ACK})
    {
        for (uint32_t b : {1u, 8u, 9u, 16u})
        {
            RdmaHeader h;
            h.type = type;
            h.payload = type == RdmaPacketType::DATA ? 1024 : 0;
            const uint32_t plain = h.GetSerializedSize();
            h.pintBytes = PintCode::Bytes(b);
            h.pintCode = static_cast<uint16_t>(PintCode::MaxCode(b) - 1);
            EXPECT_EQ(h.GetSerializedSize(), plain + (b + 7) / 8) << b;
            Ptr<Packet> p = CreateRdmaFrame(h);
            RdmaHeader back;
            p->RemoveHeader(back);
            EXPECT_EQ(back.pintBytes, h.pintBytes) << b;
            EXPECT_EQ(back.pintCode, h.pintCode) << b;
        }
    }
}

class HpccPintTest : public ::testing::Test
{
  protected:
    void Make(const std::vector<std::pair<std::string, std::string>>& attrs = {})
    {
        cc = CreateObject<HpccPint>();
        for (const auto& [k, v] : attrs)
        {
            cc->SetAttribute(k, StringValue(v));
        }
        clock.now = Time(0);
        CcContext ctx;
        ctx.lineRate = kLine;
        ctx.baseRtt = NanoSeconds(kTNs);
        ctx.fabricBaseRtt = NanoSeconds(kTNs);
        ctx.hops = 2;
        ctx.clock = &clock;
        cc->Init(ctx);
    }

    /// An ACK with value \p u, one microsecond later.
    void Ack(double u, uint32_t ackPsn, uint32_t sndNxt)
    {
        CcAck a;
        a.ackPsn = ackPsn;
        a.sndNxt = sndNxt;
        a.ackedBytes = 1024;
        a.hasPint = true;
        a.pintU = u;
        clock.now += MicroSeconds(1);
        cc->OnAck(a);
    }

    rdmatest::FakeClock clock;
    Ptr<HpccPint> cc;
};

TEST_F(HpccPintTest, DeclaresPintNotInt)
{
    Make();
    EXPECT_EQ(cc->GetName(), "hpcc-pint");
    EXPECT_TRUE(cc->NeedsPint());
    EXPECT_FALSE(cc->NeedsInt());
    EXPECT_EQ(cc->ImplementedHooks(),
              CongestionControl::HOOK_ACK | CongestionControl::HOOK_WINDOW |
                  CongestionControl::HOOK_PINT);
    EXPECT_DOUBLE_EQ(cc->GetInitialWindow(), kBT);
    EXPECT_DOUBLE_EQ(cc->GetWindowAi(), kWai);
    EXPECT_EQ(cc->GetRate(), kLine);
}

TEST_F(HpccPintTest, MultiplicativeStepOnTheOneValue)
{
    Make();
    // U = 1.9 = 2 eta: W = W_init / 2 + W_AI, and Wc follows (the first ACK ends an RTT).
    Ack(1.9, 1, 100);
    EXPECT_NEAR(cc->GetCurrentWindow(), kBT / 2 + kWai, 1e-6);
    EXPECT_NEAR(cc->GetReferenceWindow(), kBT / 2 + kWai, 1e-6);
    EXPECT_NEAR(double(cc->GetRate()), (kBT / 2 + kWai) * 8 / (kTNs * 1e-9), 1);
    // Within the same RTT: W is recomputed from Wc, not compounded.
    Ack(1.9, 50, 120);
    EXPECT_NEAR(cc->GetCurrentWindow(), (kBT / 2 + kWai) / 2 + kWai, 1e-6);
    EXPECT_NEAR(cc->GetReferenceWindow(), kBT / 2 + kWai, 1e-6);
    // An ACK without a PINT value changes nothing.
    CcAck none;
    none.ackPsn = 101;
    none.sndNxt = 130;
    cc->OnAck(none);
    EXPECT_NEAR(cc->GetReferenceWindow(), kBT / 2 + kWai, 1e-6);
    // Past the recorded sndNxt (100): the new W becomes Wc.
    Ack(0.95, 101, 130);
    EXPECT_NEAR(cc->GetCurrentWindow(), kBT / 2 + 2 * kWai, 1e-6);
    EXPECT_NEAR(cc->GetReferenceWindow(), kBT / 2 + 2 * kWai, 1e-6);
}

TEST_F(HpccPintTest, AdditiveStepsBelowEtaUntilMaxStage)
{
    Make({{"MaxStage", "2"}});
    Ack(1.9, 1, 10); // W = Wc = W_init/2 + W_AI, stage 0
    const double w0 = kBT / 2 + kWai;
    Ack(0.5, 11, 20); // below eta, stage 0 < 2: additive
    EXPECT_NEAR(cc->GetReferenceWindow(), w0 + kWai, 1e-6);
    EXPECT_EQ(cc->GetIncStage(), 1u);
    Ack(0.5, 21, 30);
    EXPECT_NEAR(cc->GetReferenceWindow(), w0 + 2 * kWai, 1e-6);
    EXPECT_EQ(cc->GetIncStage(), 2u);
    // Stage 2 = MaxStage: multiplicative even below eta (grows by eta/U).
    Ack(0.5, 31, 40);
    EXPECT_NEAR(cc->GetReferenceWindow(), (w0 + 2 * kWai) / (0.5 / 0.95) + kWai, 1e-6);
    EXPECT_EQ(cc->GetIncStage(), 0u);
}

TEST_F(HpccPintTest, WindowStaysWithinItsBounds)
{
    Make();
    for (uint32_t i = 1; i <= 30; ++i)
    {
        Ack(1000, 10 * i, 10 * i + 5); // a hopeless queue: down to the floor
        EXPECT_GE(cc->GetCurrentWindow(), kWmin - 1e-9);
    }
    EXPECT_NEAR(cc->GetCurrentWindow(), kWmin, 1e-9);
    EXPECT_EQ(cc->GetRate(), 1000000000ULL);
    for (uint32_t i = 31; i <= 80; ++i)
    {
        Ack(0.001, 10 * i, 10 * i + 5); // idle: up to line rate, never above
        EXPECT_LE(cc->GetCurrentWindow(), kBT + 1e-9);
    }
    EXPECT_NEAR(cc->GetCurrentWindow(), kBT, 1e-9);
    EXPECT_EQ(cc->GetRate(), kLine);
}

TEST_F(HpccPintTest, SampleProbabilityIgnoresAShareOfTheAcks)
{
    Make({{"SampleProbability", "0.25"}});
    // Every used ACK with U = 2 eta halves Wc (one RTT each); count how many were used.
    int used = 0;
    double wc = cc->GetReferenceWindow();
    for (uint32_t i = 1; i <= 4000; ++i)
    {
        Ack(1.9, i, i);
        if (cc->GetReferenceWindow() != wc)
        {
            ++used;
            wc = cc->GetReferenceWindow();
        }
        if (wc <= 2 * kWmin)
        {
            Make({{"SampleProbability", "0.25"}}); // start over before the floor
            wc = cc->GetReferenceWindow();
        }
    }
    EXPECT_NEAR(used / 4000.0, 0.25, 0.03);
}

} // namespace
