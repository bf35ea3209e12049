/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the θ-PowerTCP sender (ThetaPowerTcp), driven by RTT samples on a fake
 * clock (no simulation).
 *
 * Specification (docs/design.md, "θ-PowerTCP"; Addanki et al. NSDI 2022, Algorithm 2),
 * per ACK with an RTT sample θ, against the previous sample (dt between them):
 *   Γ = max(dθ/dt + 1, MinCurrent) θ / (f τ), τ the path's base RTT (the paper's law:
 *   MinCurrent 0, f = TargetRttFactor 1; the defaults 0.5 and 1.05 are ns3-datacenter's
 *   guards); Γs = (Γs (τ - dt) + Γ dt) / τ (dt capped at τ), starting at 1;
 *   W = γ (W_prev / Γs + β) + (1 - γ) W within [MinRate τ, W_max]; W_prev the window one
 *   τ ago (snapshots every τ/4); rate = W / τ. No INT.
 * Numbers: B = 100 Gb/s, τ = 10.24 us, B τ = 128000 B, β = 192 B, W_min = 128 B.
 */

#include "fake-cc-clock.h"

#include "ns3/congestion-control.h"
#include "ns3/core-module.h"
#include "ns3/theta-power-tcp.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL;
constexpr int64_t kTauNs = 10240;
constexpr double kBdp = 128000;
constexpr double kBeta = 192;
constexpr double kWmin = 128;
constexpr double kGamma = 0.9;

constexpr double
Tol(double x)
{
    // 1e-6: W_prev is kept as a float snapshot (power-window.h)
    return 1e-6 * (x < 0 ? -x : x) + 1e-9;
}

class ThetaPowerTcpTest : public ::testing::Test
{
  protected:
    /// A controller with the paper's law (no guards) unless \p guards, then \p attrs.
    void Make(const std::vector<std::pair<std::string, std::string>>& attrs = {},
              bool guards = false)
    {
        cc = CreateObject<ThetaPowerTcp>();
        if (!guards)
        {
            cc->SetAttribute("MinCurrent", StringValue("0"));
            cc->SetAttribute("TargetRttFactor", StringValue("1"));
        }
        for (const auto& [k, v] : attrs)
        {
            cc->SetAttribute(k, StringValue(v));
        }
        clock.now = MicroSeconds(100);
        CcContext ctx;
        ctx.lineRate = kLine;
        ctx.baseRtt = NanoSeconds(kTauNs);
        ctx.fabricBaseRtt = NanoSeconds(2 * kTauNs); // a longer path elsewhere: not τ
        ctx.mtu = 1024;
        ctx.hops = 2;
        ctx.clock = &clock;
        cc->Init(ctx);
    }

    /// An ACK \p dtNs after the previous one, with RTT sample \p rttNs.
    void Ack(int64_t dtNs, int64_t rttNs, uint32_t ackPsn = 5, uint32_t sndNxt = 20)
    {
        clock.now += NanoSeconds(dtNs);
        CcAck a;
        a.ackPsn = ackPsn;
        a.sndNxt = sndNxt;
        a.ackedBytes = 1024;
        a.rtt = NanoSeconds(rttNs);
        cc->OnAck(a);
    }

    rdmatest::FakeClock clock;
    Ptr<ThetaPowerTcp> cc;
};

} // namespace

TEST_F(ThetaPowerTcpTest, NeedsNoIntAndStartsAtTheBdp)
{
    Make();
    EXPECT_FALSE(cc->NeedsInt());
    EXPECT_EQ(cc->GetName(), "theta-powertcp");
    EXPECT_EQ(cc->ImplementedHooks(), CongestionControl::HOOK_ACK | CongestionControl::HOOK_WINDOW);
    EXPECT_EQ(cc->GetTau(), NanoSeconds(kTauNs)); // the path's base RTT
    EXPECT_NEAR(cc->GetCurrentWindow(), kBdp, Tol(kBdp));
    EXPECT_NEAR(cc->GetBeta(), kBeta, Tol(kBeta));
    EXPECT_NEAR(cc->GetMinWindow(), kWmin, Tol(kWmin));
    EXPECT_EQ(cc->GetRate(), kLine);
    // The first sample has no gradient; a sample without a timestamp is none.
    Ack(1000, kTauNs);
    Ack(1000, 0);
    EXPECT_DOUBLE_EQ(cc->GetSmoothedPower(), 1.0);
    EXPECT_NEAR(cc->GetCurrentWindow(), kBdp, Tol(kBdp));
}

// Rule: Γ = (dθ/dt + 1) θ / τ on an RTT ramp. The RTT rises by 512 ns every 1024 ns (a
// queue growing at half the line rate over line rate: gradient 0.5); each sample weighs
// dt/τ = 0.1 in Γs.
TEST_F(ThetaPowerTcpTest, PowerFromAnRttRamp)
{
    Make();
    Ack(0, kTauNs, 1, 10);
    double smoothed = 1;
    double w = kBdp;
    for (int k = 1; k <= 5; ++k)
    {
        const double theta = kTauNs + 512.0 * k;
        Ack(1024, static_cast<int64_t>(theta));
        const double g = 1.5 * theta / kTauNs;
        smoothed = 0.9 * smoothed + 0.1 * g;
        EXPECT_NEAR(cc->GetSmoothedPower(), smoothed, Tol(smoothed)) << k;
        w = kGamma * (kBdp / smoothed + kBeta) + (1 - kGamma) * w;
        EXPECT_NEAR(cc->GetCurrentWindow(), w, Tol(w)) << k;
        EXPECT_NEAR(cc->GetPrevWindow(), kBdp, Tol(kBdp)) << k; // less than τ in
    }
    EXPECT_EQ(cc->GetRate(), static_cast<uint64_t>(std::llround(w * 8 / (kTauNs * 1e-9))));
    // A flat RTT of 2τ sampled over a whole τ: no gradient, Γ = θ/τ = 2 replaces Γs.
    Ack(kTauNs, 2 * kTauNs);
    Ack(kTauNs, 2 * kTauNs);
    EXPECT_NEAR(cc->GetSmoothedPower(), 2.0, Tol(2.0));
    // A draining queue: the RTT falls from 2τ to 1.5τ over τ, gradient -0.5:
    // Γ = 0.5 x 1.5 = 0.75.
    Ack(kTauNs, 3 * kTauNs / 2);
    EXPECT_NEAR(cc->GetSmoothedPower(), 0.75, Tol(0.75));
}

// Rule: W_prev is the window one τ ago. With ACKs τ apart it is the previous ACK's W, and
// each W is computed from the one before that: W_k = γ (W_{k-2} / Γ + β) + (1 - γ) W_{k-1}.
TEST_F(ThetaPowerTcpTest, PrevWindowIsTheWindowOneTauAgo)
{
    Make();
    Ack(0, 2 * kTauNs);
    std::vector<double> w = {kBdp, kBdp};
    for (int k = 0; k < 6; ++k)
    {
        Ack(kTauNs, 2 * kTauNs); // flat RTT of 2τ over τ: Γ = 2
        const double prev = w[w.size() - 2];
        w.push_back(kGamma * (prev / 2 + kBeta) + (1 - kGamma) * w.back());
        EXPECT_NEAR(cc->GetCurrentWindow(), w.back(), Tol(w.back())) << k;
        EXPECT_NEAR(cc->GetPrevWindow(), w[w.size() - 2], Tol(w[w.size() - 2])) << k;
    }
}

// Rule (the defaults' guards): the power is 1 at an RTT of 1.05 τ, and the current term
// is at least 0.5 however fast the RTT falls.
TEST_F(ThetaPowerTcpTest, DefaultGuards)
{
    Make({}, true);
    Ack(0, kTauNs * 105 / 100);
    Ack(kTauNs, kTauNs * 105 / 100);
    EXPECT_NEAR(cc->GetSmoothedPower(), 1.0, 1e-9);
    Ack(kTauNs, kTauNs * 4);
    Ack(kTauNs, kTauNs); // gradient -3: the current term is floored at 0.5
    EXPECT_NEAR(cc->GetSmoothedPower(), 0.5 / 1.05, 1e-9);
}

// Rule: W stays within [MinRate x τ, W_max]; a falling RTT (Γ <= 0) asks for W_max.
TEST_F(ThetaPowerTcpTest, WindowFloorsAndCaps)
{
    Make({{"Beta", "1"}}); // the default β would settle W at Γ β / (Γ - 1), above the floor
    Ack(0, kTauNs, 1, 10);
    for (int k = 0; k < 50; ++k)
    {
        Ack(kTauNs, 100 * kTauNs, 100 + k, 100 + k); // Γ = 100 (and more at the step)
    }
    EXPECT_NEAR(cc->GetCurrentWindow(), kWmin, Tol(kWmin));
    EXPECT_EQ(cc->GetRate(), 100000000u);
    // The RTT falls by 2τ over τ: gradient -2, Γ < 0 replaces Γs (the paper's law, no
    // floor of the current); the law floors the smoothed power: W_max.
    Ack(kTauNs, 98 * kTauNs, 200, 200);
    Ack(kTauNs, 96 * kTauNs, 201, 201);
    EXPECT_NEAR(cc->GetCurrentWindow(), kBdp, Tol(kBdp));
    EXPECT_EQ(cc->GetRate(), kLine);

    Make({{"MaxWindow", "64000"}, {"Beta", "1000"}, {"BaseRtt", "20480ns"}});
    EXPECT_EQ(cc->GetTau(), NanoSeconds(2 * kTauNs));
    EXPECT_NEAR(cc->GetCurrentWindow(), 64000, Tol(64000));
    EXPECT_NEAR(cc->GetBeta(), 1000, Tol(1000));
    EXPECT_EQ(cc->GetRate(), kLine / 4); // 64000 B per 20.48 us
}
