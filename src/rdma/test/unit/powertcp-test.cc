/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the PowerTCP sender (PowerTcp), driven by hand-built INT records
 * (IntHop::Pack) and a fake clock (no simulation).
 *
 * Specification (docs/design.md, "PowerTCP"; Addanki et al. NSDI 2022, Algorithm 1), per
 * ACK, per forward hop i against the previous ACK's record of that hop (dt, B_i bytes/s):
 *   Γ_i = (dq_i/dt + txRate_i) (q_i + B_i τ) / (B_i^2 τ); Γ = max_i Γ_i, Δt its dt;
 *   Γs = (Γs (τ - Δt) + Γ Δt) / τ (Δt capped at τ), Γs starting at 1;
 *   W = γ (W_prev / Γs + β) + (1 - γ) W within [MinRate τ, W_max];
 *   W_prev = the window one τ ago (snapshots of W every τ/4, the newest at least τ old);
 *   the current is floored at MinCurrent x B_i (0.5); rate = W / τ; W starts at line
 *   rate x τ = W_max.
 *
 * Numbers, chosen so that every INT field is exact (tx in 128-byte units, queue in
 * 80-byte units): B = 100 Gb/s = 12.5e9 B/s, τ = 10.24 us, B τ = 128000 B;
 * β = 150 Mb/s x τ / 8 = 192 B; W_min = 100 Mb/s x τ / 8 = 128 B;
 * B for τ: 128000 B = 1000 x 128; B τ / 2 = 64000 B = 800 x 80.
 */

#include "fake-cc-clock.h"

#include "ns3/congestion-control.h"
#include "ns3/core-module.h"
#include "ns3/int-hop.h"
#include "ns3/power-tcp.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr int64_t kTauNs = 10240;           // τ
constexpr double kBdp = 128000;             // B τ (bytes)
constexpr double kBeta = 192;               // default β (bytes)
constexpr double kWmin = 128;               // MinRate x τ (bytes)
constexpr double kGamma = 0.9;

constexpr double
Tol(double x)
{
    // 1e-6: W_prev is kept as a float snapshot (power-window.h)
    return 1e-6 * (x < 0 ? -x : x) + 1e-9;
}

/// What one hop saw between the previous ACK's record and this one.
struct Step
{
    uint64_t dtsNs;   ///< time since this hop's previous record
    uint64_t txBytes; ///< bytes the hop sent meanwhile
    uint64_t qlen;    ///< queue left behind by the packet (bytes)
};

class PowerTcpTest : public ::testing::Test
{
  protected:
    void Make(uint32_t switches = 1,
              const std::vector<std::pair<std::string, std::string>>& attrs = {})
    {
        cc = CreateObject<PowerTcp>();
        for (const auto& [k, v] : attrs)
        {
            cc->SetAttribute(k, StringValue(v));
        }
        clock.now = Time(0);
        CcContext ctx;
        ctx.lineRate = kLine;
        ctx.baseRtt = NanoSeconds(kTauNs / 2); // a shorter path: τ is the fabric's
        ctx.fabricBaseRtt = NanoSeconds(kTauNs);
        ctx.mtu = 1024;
        ctx.hops = switches + 1;
        ctx.clock = &clock;
        cc->Init(ctx);
        ts.assign(rdmawire::kMaxIntHops, 0);
        tx.assign(rdmawire::kMaxIntHops, 0);
    }

    CcAck Ack(const std::vector<Step>& steps, uint32_t ackPsn, uint32_t sndNxt)
    {
        CcAck a;
        a.ackPsn = ackPsn;
        a.sndNxt = sndNxt;
        a.ackedBytes = 1024;
        a.intHops = static_cast<uint8_t>(steps.size());
        uint64_t longest = 0;
        for (size_t i = 0; i < steps.size(); ++i)
        {
            ts[i] += steps[i].dtsNs;
            tx[i] += steps[i].txBytes;
            a.intStack[i] = IntHop::Pack(kLine, ts[i], tx[i], steps[i].qlen);
            longest = std::max(longest, steps[i].dtsNs);
        }
        clock.now += NanoSeconds(longest);
        return a;
    }

    /// The first ACK (stores the records; the first RTT ends past \p sndNxt).
    void Start(uint32_t hops = 1, uint64_t qlen = 0, uint32_t sndNxt = 10)
    {
        cc->OnAck(Ack(std::vector<Step>(hops, Step{0, 0, qlen}), 1, sndNxt));
    }

    /// The power of one hop from the equations, all in bytes and seconds.
    static double Power(double dtNs, double txBytes, double q0, double q1)
    {
        const double b = kLine / 8.0;
        const double s = dtNs * 1e-9;
        return ((q1 - q0) / s + txBytes / s) * (q1 + kBdp) / (b * b * kTauNs * 1e-9);
    }

    rdmatest::FakeClock clock;
    Ptr<PowerTcp> cc;
    std::vector<uint64_t> ts;
    std::vector<uint64_t> tx;
};

} // namespace

TEST_F(PowerTcpTest, ReadsIntAndStartsAtTheBdp)
{
    Make();
    EXPECT_TRUE(cc->NeedsInt());
    EXPECT_EQ(cc->GetName(), "powertcp");
    EXPECT_EQ(cc->ImplementedHooks(),
              CongestionControl::HOOK_ACK | CongestionControl::HOOK_WINDOW |
                  CongestionControl::HOOK_INT);
    EXPECT_EQ(cc->GetTau(), NanoSeconds(kTauNs)); // the fabric's base RTT, not the path's
    EXPECT_NEAR(cc->GetCurrentWindow(), kBdp, Tol(kBdp));
    EXPECT_NEAR(cc->GetMaxWindow(), kBdp, Tol(kBdp));
    EXPECT_NEAR(cc->GetMinWindow(), kWmin, Tol(kWmin));
    EXPECT_NEAR(cc->GetBeta(), kBeta, Tol(kBeta));
    EXPECT_EQ(cc->GetWindow(), 128000u);
    EXPECT_EQ(cc->GetRate(), kLine);
    // The first ACK only stores the records.
    Start();
    EXPECT_NEAR(cc->GetCurrentWindow(), kBdp, Tol(kBdp));
    EXPECT_DOUBLE_EQ(cc->GetSmoothedPower(), 1.0);
}

// Rule: Γ = (dq/dt + txRate)(q + B τ)/(B^2 τ). A queue growing from 0 to B τ/2 over τ
// while the hop sends at line rate: current 1.5 B, voltage 1.5 B τ, Γ = 2.25. With
// Δt = τ the smoothed power becomes Γ, and W = γ (W_prev / Γ + β) + (1 - γ) W.
TEST_F(PowerTcpTest, PowerOfAGrowingQueueAtLineRate)
{
    Make();
    Start();
    cc->OnAck(Ack({Step{kTauNs, 128000, 64000}}, 5, 20));
    const double g = Power(kTauNs, 128000, 0, 64000);
    EXPECT_NEAR(g, 2.25, 1e-12);
    EXPECT_NEAR(cc->GetSmoothedPower(), 2.25, Tol(2.25));
    const double w = kGamma * (kBdp / 2.25 + kBeta) + (1 - kGamma) * kBdp;
    EXPECT_NEAR(cc->GetCurrentWindow(), w, Tol(w));
    EXPECT_EQ(cc->GetRate(), static_cast<uint64_t>(std::llround(w * 8 / (kTauNs * 1e-9))));
    EXPECT_EQ(cc->GetWindow(), static_cast<uint64_t>(std::llround(w)));
    // W_prev is the window one τ ago: the first one.
    EXPECT_NEAR(cc->GetPrevWindow(), kBdp, Tol(kBdp));
}

// Rule: a standing queue at line rate (dq/dt = 0) gives Γ = 1 + q/(B τ); a draining queue
// lowers the current: the queue halving from B τ/2 while sending at line rate over τ/2
// gives (B - B/2)(B τ/4 + B τ)/(B^2 τ) = 0.625.
TEST_F(PowerTcpTest, StandingAndDrainingQueues)
{
    Make();
    Start(1, 64000);
    cc->OnAck(Ack({Step{kTauNs, 128000, 64000}}, 5, 20));
    EXPECT_NEAR(cc->GetSmoothedPower(), 1.5, Tol(1.5));

    Make();
    Start(1, 64000);
    cc->OnAck(Ack({Step{kTauNs / 2, 64000, 32000}}, 5, 20));
    const double g = Power(kTauNs / 2, 64000, 64000, 32000);
    EXPECT_NEAR(g, 0.625, 1e-12);
    // Δt = τ/2: half the weight on the sample, half on the start value 1.
    EXPECT_NEAR(cc->GetSmoothedPower(), 0.5 * 1 + 0.5 * 0.625, Tol(0.8125));

    // A queue of B τ/2 emptied over τ by sending B τ/2, nothing arriving: the current,
    // 0, is floored at MinCurrent x B: Γ = 0.5 x B τ / (B τ) = 0.5 (0 with MinCurrent 0).
    for (const char* floor : {"0.5", "0"})
    {
        Make(1, {{"MinCurrent", floor}});
        Start(1, 64000);
        cc->OnAck(Ack({Step{kTauNs, 64000, 0}}, 5, 20));
        EXPECT_NEAR(cc->GetSmoothedPower(), std::stod(floor), 1e-12) << floor;
    }
}

// Rule: the bottleneck is the hop of the largest power; only the forward path's records
// (hops - 1 of them) count.
TEST_F(PowerTcpTest, TheMostPowerfulHopDrives)
{
    Make(2);
    Start(3);
    // Hop 0 half loaded, hop 1 at line rate with a growing queue, hop 2 (reverse path)
    // with an enormous queue that must be ignored.
    cc->OnAck(
        Ack({Step{kTauNs, 64000, 0}, Step{kTauNs, 128000, 64000}, Step{kTauNs, 128000, 8000000}},
            5,
            20));
    EXPECT_NEAR(cc->GetSmoothedPower(), 2.25, Tol(2.25));
}

namespace
{

/// The law replayed: ACKs every \p dtNs with power \p g; W and W_prev after each.
struct LawModel
{
    double gs = 1;
    double w = kBdp;
    double wPrev = kBdp;
    std::vector<std::pair<double, double>> snaps{{0.0, kBdp}}; ///< (time, W)

    void Ack(double now, double g, double dt, double wMax)
    {
        gs = (gs * (kTauNs - dt) + g * dt) / kTauNs;
        w = std::min(kGamma * (wPrev / gs + kBeta) + (1 - kGamma) * w, wMax);
        if (now - snaps.back().first >= kTauNs / 4.0)
        {
            snaps.emplace_back(now, w);
        }
        for (auto it = snaps.rbegin(); it != snaps.rend(); ++it)
        {
            if (now - it->first >= kTauNs)
            {
                wPrev = it->second;
                break;
            }
        }
    }
};

} // namespace

// Rule: W_prev is the window one τ ago: W is snapshotted every τ/4 and W_prev is the
// newest snapshot at least τ old; every ACK recomputes W from it.
TEST_F(PowerTcpTest, PrevWindowIsTheWindowOneTauAgo)
{
    Make();
    Start(1, 64000);
    LawModel m;
    // Γ = 1.5 (standing queue B τ/2 at line rate) on ACKs every τ/4.
    for (int k = 1; k <= 12; ++k)
    {
        cc->OnAck(Ack({Step{kTauNs / 4, 32000, 64000}}, 5, 20));
        m.Ack(double(clock.now.GetNanoSeconds()), 1.5, kTauNs / 4.0, kBdp);
        EXPECT_NEAR(cc->GetSmoothedPower(), m.gs, Tol(m.gs)) << k;
        EXPECT_NEAR(cc->GetCurrentWindow(), m.w, Tol(m.w)) << k;
        EXPECT_NEAR(cc->GetPrevWindow(), m.wPrev, Tol(m.wPrev)) << k;
    }
    // Three quarters of τ in, W_prev was still the first window; from τ on it lags W.
    EXPECT_LT(cc->GetPrevWindow(), kBdp);
    EXPECT_GT(cc->GetPrevWindow(), cc->GetCurrentWindow());
}

// Rule: at Γ = 1 (full rate, no queue) the window grows by about β per τ: the fixed
// point of W = W_prev / Γ + β.
TEST_F(PowerTcpTest, AdditiveIncreaseAtEquilibrium)
{
    Make(1, {{"MaxWindow", "1000000"}});
    Start();
    LawModel m;
    for (int k = 1; k <= 40; ++k)
    {
        cc->OnAck(Ack({Step{kTauNs / 4, 32000, 0}}, 5, 20));
        m.Ack(double(clock.now.GetNanoSeconds()), 1.0, kTauNs / 4.0, 1e6);
        EXPECT_NEAR(cc->GetCurrentWindow(), m.w, Tol(m.w)) << k;
    }
    // 10 τ: W_k = γ (W_{k-4} + β) + (1 - γ) W_{k-1} grows by 0.9 β / 3.7 per ACK once
    // W_prev lags by τ (the first τ W_prev is the first window): about 8 β.
    EXPECT_GT(cc->GetCurrentWindow(), kBdp + 7 * kBeta);
    EXPECT_LT(cc->GetCurrentWindow(), kBdp + 10 * kBeta);
}

// Rule: W stays within [MinRate x τ, W_max]; an idle hop (Γ = 0) asks for W_max; the
// attributes move the bounds and β; with the default β a large Γ settles W at the fixed
// point of the law, Γ β / (Γ - 1).
TEST_F(PowerTcpTest, WindowFloorsAndCaps)
{
    // Under a constant Γ the window settles at Γ β / (Γ - 1) > β (192 B with the default,
    // above the floor): a β of 1 B lets the floor show.
    Make(1, {{"Beta", "1"}});
    Start();
    for (int k = 0; k < 50; ++k)
    {
        // An 8 MB queue (62.5 B τ) at line rate: Γ >> 1.
        cc->OnAck(Ack({Step{kTauNs, 128000, 8000000}}, 100 + k, 100 + k));
    }
    EXPECT_NEAR(cc->GetCurrentWindow(), kWmin, Tol(kWmin));
    EXPECT_EQ(cc->GetRate(), 100000000u);

    Make();
    Start();
    // Nothing sent, nothing queued: Γ = 0.5 (the floor of the current), W_prev / Γ > W_max.
    cc->OnAck(Ack({Step{kTauNs, 0, 0}}, 5, 20));
    EXPECT_NEAR(cc->GetCurrentWindow(), kBdp, Tol(kBdp));
    EXPECT_EQ(cc->GetRate(), kLine);

    Make();
    Start();
    for (int k = 0; k < 50; ++k)
    {
        cc->OnAck(Ack({Step{kTauNs, 128000, 8000000}}, 100 + k, 100 + k));
    }
    const double g = 1 + 8000000 / kBdp;
    EXPECT_NEAR(cc->GetCurrentWindow(), g * kBeta / (g - 1), 1e-6);

    Make(1, {{"MaxWindow", "64000"}, {"Beta", "1000"}, {"MinRate", "1Gb/s"}});
    EXPECT_NEAR(cc->GetCurrentWindow(), 64000, Tol(64000));
    EXPECT_NEAR(cc->GetBeta(), 1000, Tol(1000));
    EXPECT_NEAR(cc->GetMinWindow(), 1280, Tol(1280));
    EXPECT_EQ(cc->GetRate(), kLine / 2);
}

// Rule: records are used against the stored ones: a record whose stamp did not advance
// is skipped, and a change of path (hop count) re-stores them without an update.
TEST_F(PowerTcpTest, StaleRecordsAndPathChangesDoNotUpdate)
{
    Make(2);
    Start(2);
    cc->OnAck(Ack({Step{0, 0, 0}, Step{0, 0, 0}}, 5, 20));
    EXPECT_DOUBLE_EQ(cc->GetSmoothedPower(), 1.0);
    cc->OnAck(Ack({Step{kTauNs, 128000, 64000}}, 6, 20)); // one record: a new path
    EXPECT_DOUBLE_EQ(cc->GetSmoothedPower(), 1.0);
    EXPECT_NEAR(cc->GetCurrentWindow(), kBdp, Tol(kBdp));
}
