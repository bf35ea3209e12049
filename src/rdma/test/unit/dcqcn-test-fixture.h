/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The shared part of the DCQCN unit tests (dcqcn-test.cc: the rules of the reaction
 * point; dcqcn-presets-test.cc: the presets and the per-period alpha rule): the
 * specification below, the preset table written by hand, and the fake-clock fixture.
 *
 * Specification (docs/design.md, "DCQCN"; Zhu et al. SIGCOMM 2015), per QP:
 *  - start at line rate, alpha = 1;
 *  - on CNP: R_T = R_C; R_C = R_C (1 - alpha/2); alpha = (1-g) alpha + g; reset the
 *    increase timer, the byte counter and both stage counters;
 *  - alpha = (1-g) alpha every tau' without CNP;
 *  (that is the per-cut alpha rule, AlphaPerPeriod false. The timer and cut rules below
 *  are tested under it for both presets' timers, the fixture setting it; the per-period
 *  rule of NVIDIA's NICs (AlphaPerPeriod true, presets nic and hpcc_sim: alpha set to
 *  InitialAlpha at the first CNP, then at the end of every tau' up if a CNP arrived in
 *  it, else down) has its own tests, "NicAlpha...";)
 *  - increase events come from a timer T and a byte counter B; with T_cnt, BC the counts
 *    since the last CNP and F the fast-recovery steps:
 *      fast recovery while max(T_cnt, BC) < F: R_C = (R_T + R_C)/2;
 *      additive when one of them >= F: R_T += R_AI, R_C = (R_T + R_C)/2;
 *      hyper when both >= F: R_T += i R_HAI, i = min(T_cnt, BC) - F + 1, then average;
 *    "F the fast-recovery steps": the first F increase events after a cut are fast
 *    recovery (Dcqcn's FastRecoverySteps attribute: "F: increase events of fast recovery
 *    (paper 5, NIC 1)"; the HPCC simulator's NIC model does the same: stage counter
 *    checked before it is incremented). So T_cnt and BC count the events *before* the one
 *    being classified.
 *  - R_C within [min rate, line rate]; with RateDecreaseInterval > 0 (NIC) at most one cut
 *    per interval, a CNP inside it being applied at its end.
 *  - ClampTargetRate (dcqcn.h): true (paper) = every cut sets R_T = R_C; false (NIC
 *    default, NVIDIA clamp_tgt_rate=0, clamp_tgt_rate_after_time_inc=1) = a cut sets
 *    R_T = R_C only if the increase timer fired since the previous cut (the first cut
 *    always does).
 *
 * Presets at 100 Gb/s (docs/design.md, "DCQCN"; nic from NVIDIA's documented ConnectX
 * DCQCN parameters, hpcc_sim from the HPCC simulator's fat-tree config):
 *            tau'   g       T       B      F  R_AI              R_HAI     min      cut int.
 *   paper    55us   1/256   55us    10 MB  5  40 Mb/s           400 Mb/s  100 Mb/s 0
 *   nic      1us    5/1024  300us   off    1  5 Mb/s x 100/25   50 x 4    1 Gb/s   4 us
 *                                             = 20 Mb/s         = 200 Mb/s
 *   hpcc_sim as nic, but g 1/256
 *   alpha rule: paper per cut (initial 1); nic per period (initial 1023/1024); hpcc_sim
 *   per period (initial 1). CNP spacing: paper 50 us, nic 4 us, hpcc_sim 0 (every mark).
 *   ClampTargetRate: paper true, nic and hpcc_sim false (dcqcn.h).
 *
 * Tolerances: rates are kept as doubles and returned truncated to whole bit/s, so a rate
 * computed here in double may differ by < 1 bit/s from GetRate(): EXPECT_NEAR(.., 2).
 * Alpha is a product of factors (1-g); pow() versus repeated multiplication differ by a
 * few ulp: 1e-12.
 */

#ifndef RDMA_DCQCN_TEST_FIXTURE_H
#define RDMA_DCQCN_TEST_FIXTURE_H

#include "fake-cc-clock.h"

#include "ns3/congestion-control.h"
#include "ns3/core-module.h"
#include "ns3/dcqcn.h"
#include "ns3/no-congestion-control.h"

#include <cctype>
#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace dcqcntest
{

using namespace ns3;

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr double kRateTol = 2.0;            // bit/s, see header
constexpr double kAlphaTol = 1e-12;

/// The fake clock: tests set `now`.
using rdmatest::FakeClock;

/// Parameters of a preset at 100 Gb/s, written by hand from docs/design.md's table.
struct Spec
{
    std::string name;
    double g;
    Time alphaInterval; ///< tau'
    Time timer;         ///< T
    uint64_t byteCounter;
    uint32_t f;
    double rai;
    double rhai;
    double minRate;
    Time decreaseInterval;
    bool clampTargetRate;
    Time cnpInterval;
    bool alphaPerPeriod;
    double initialAlpha;
};

inline Spec
PaperSpec()
{
    return Spec{"paper",
                1.0 / 256,
                MicroSeconds(55),
                MicroSeconds(55),
                10000000, // 10 MB
                5,
                40e6,
                400e6, // 10 x R_AI
                100e6,
                Time(0),
                true,
                MicroSeconds(50),
                false,
                1.0};
}

inline Spec
NicSpec()
{
    return Spec{"nic",
                5.0 / 1024,
                MicroSeconds(1),
                MicroSeconds(300),
                0,
                1,
                20e6,  // 5 Mb/s x 100G/25G
                200e6, // 50 Mb/s x 100G/25G
                1e9,
                MicroSeconds(4),
                false,
                MicroSeconds(4),
                true,
                1023.0 / 1024};
}

inline Spec
HpccSimSpec()
{
    Spec s = NicSpec();
    s.name = "hpcc_sim";
    s.g = 1.0 / 256;
    s.cnpInterval = Time(0);
    s.initialAlpha = 1.0;
    return s;
}

inline Spec
SpecFor(const std::string& name)
{
    return name == "paper" ? PaperSpec() : name == "nic" ? NicSpec() : HpccSimSpec();
}

/// The Preset attribute's value for a preset name of the table ("hpcc_sim" -> "HpccSim").
inline std::string
PresetAttributeValue(const std::string& name)
{
    std::string out;
    bool upper = true;
    for (char c : name)
    {
        if (c == '_')
        {
            upper = true;
            continue;
        }
        out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return out;
}

/// A preset's parameters, as Dcqcn resolves them.
struct PresetValues
{
    double g;
    Time alphaInterval;
    Time rateIncreaseInterval;
    uint64_t byteCounter;
    uint32_t fastRecoverySteps;
    uint64_t rateAi;
    uint64_t rateHai;
    uint64_t minRate;
    Time rateDecreaseInterval;
    bool clampTargetRate;
    Time cnpInterval;
    bool alphaPerPeriod;
    double initialAlpha;
};

/// The parameters Dcqcn takes at Init for \p lineRate with the preset \p name (read
/// back through its attributes, and GetCnpInterval()); false if there is no such preset.
inline bool
ResolvePreset(const std::string& name, uint64_t lineRate, PresetValues& out)
{
    // An unknown name is refused by the attribute's checker; ask it first (ns-3 built
    // with asserts, as in an ns-3 source tree, aborts on setting an unknown enum name).
    TypeId::AttributeInformation info;
    if (!Dcqcn::GetTypeId().LookupAttributeByName("Preset", &info))
    {
        return false;
    }
    const std::string names = "|" + info.checker->GetUnderlyingTypeInformation() + "|";
    if (names.find("|" + PresetAttributeValue(name) + "|") == std::string::npos)
    {
        return false;
    }
    Ptr<Dcqcn> d = CreateObject<Dcqcn>();
    if (!d->SetAttributeFailSafe("Preset", StringValue(PresetAttributeValue(name))))
    {
        return false;
    }
    FakeClock clock;
    CcContext ctx;
    ctx.lineRate = lineRate;
    ctx.clock = &clock;
    d->Init(ctx);
    DoubleValue g;
    TimeValue alphaInterval;
    TimeValue rateIncreaseInterval;
    UintegerValue byteCounter;
    UintegerValue fastRecoverySteps;
    DataRateValue rateAi;
    DataRateValue rateHai;
    DataRateValue minRate;
    TimeValue rateDecreaseInterval;
    BooleanValue clampTargetRate;
    BooleanValue alphaPerPeriod;
    DoubleValue initialAlpha;
    d->GetAttribute("AlphaPerPeriod", alphaPerPeriod);
    d->GetAttribute("InitialAlpha", initialAlpha);
    d->GetAttribute("G", g);
    d->GetAttribute("AlphaInterval", alphaInterval);
    d->GetAttribute("RateIncreaseInterval", rateIncreaseInterval);
    d->GetAttribute("ByteCounter", byteCounter);
    d->GetAttribute("FastRecoverySteps", fastRecoverySteps);
    d->GetAttribute("RateAi", rateAi);
    d->GetAttribute("RateHai", rateHai);
    d->GetAttribute("MinRate", minRate);
    d->GetAttribute("RateDecreaseInterval", rateDecreaseInterval);
    d->GetAttribute("ClampTargetRate", clampTargetRate);
    out = PresetValues{g.Get(),
                       alphaInterval.Get(),
                       rateIncreaseInterval.Get(),
                       byteCounter.Get(),
                       static_cast<uint32_t>(fastRecoverySteps.Get()),
                       rateAi.Get().GetBitRate(),
                       rateHai.Get().GetBitRate(),
                       minRate.Get().GetBitRate(),
                       rateDecreaseInterval.Get(),
                       clampTargetRate.Get(),
                       d->GetCnpInterval(),
                       alphaPerPeriod.Get(),
                       initialAlpha.Get()};
    return true;
}

class DcqcnTest : public ::testing::Test
{
  protected:
    /// A controller with preset \p name's parameters, under the per-cut alpha rule
    /// (g 1/256, alpha 1 at the start) unless \p presetAlpha (the preset's own rule).
    void Make(const std::string& name, bool presetAlpha = false)
    {
        spec = SpecFor(name);
        PresetValues p;
        ASSERT_TRUE(ResolvePreset(name, kLine, p));
        if (!presetAlpha)
        {
            p.g = spec.g = 1.0 / 256;
            p.alphaPerPeriod = false;
            p.initialAlpha = 1.0;
        }
        dc = CreateObject<Dcqcn>();
        dc->SetAttribute("Preset", StringValue(PresetAttributeValue(name)));
        dc->SetAttribute("AlphaPerPeriod", BooleanValue(p.alphaPerPeriod));
        dc->SetAttribute("InitialAlpha", DoubleValue(p.initialAlpha));
        dc->SetAttribute("G", DoubleValue(p.g));
        dc->SetAttribute("AlphaInterval", TimeValue(p.alphaInterval));
        dc->SetAttribute("RateIncreaseInterval", TimeValue(p.rateIncreaseInterval));
        dc->SetAttribute("ByteCounter", UintegerValue(p.byteCounter));
        dc->SetAttribute("FastRecoverySteps", UintegerValue(p.fastRecoverySteps));
        dc->SetAttribute("RateAi", DataRateValue(DataRate(p.rateAi)));
        dc->SetAttribute("RateHai", DataRateValue(DataRate(p.rateHai)));
        dc->SetAttribute("MinRate", DataRateValue(DataRate(p.minRate)));
        dc->SetAttribute("RateDecreaseInterval", TimeValue(p.rateDecreaseInterval));
        dc->SetAttribute("ClampTargetRate", BooleanValue(p.clampTargetRate));
        clock.now = Time(0);
        CcContext ctx;
        ctx.lineRate = kLine;
        ctx.baseRtt = MicroSeconds(8);
        ctx.mtu = 1024;
        ctx.hops = 2;
        ctx.clock = &clock;
        dc->Init(ctx);
    }

    uint64_t RateAt(Time t)
    {
        clock.now = t;
        return dc->GetRate();
    }

    void CnpAt(Time t)
    {
        clock.now = t;
        dc->OnCnp();
    }

    /// (1-g)^n
    double Decay(int64_t n) const
    {
        return std::pow(1 - spec.g, double(n));
    }

    /// Brings R_T below line rate with a second cut, for either preset:
    ///  paper (every cut sets R_T = R_C): CNP at 0 (R_C 100 -> 50 Gb/s), CNP at t2 = 10 us
    ///    (before any timer event, T = 55 us): R_T = 50 Gb/s;
    ///  nic (R_T = R_C only if the timer fired since the last cut): CNP at 0, the first
    ///    timer event at 300 us gives R_C = (100 + 50)/2 = 75 Gb/s (R_T stays at line: fast
    ///    recovery, or an additive step clamped to line rate), CNP at t2 = 310 us:
    ///    R_T = 75 Gb/s.
    ///  Then R_C = R_T (1 - a/2) with a = (1-g)^(t2 / tau') (paper 0 periods, nic 310).
    void TwoCuts()
    {
        m_t2 = spec.name == "paper" ? MicroSeconds(10) : spec.timer + MicroSeconds(10);
        m_rt0 = spec.name == "paper" ? 50e9 : 75e9;
        CnpAt(Time(0));
        CnpAt(m_t2);
        const int64_t n = m_t2.GetTimeStep() / spec.alphaInterval.GetTimeStep();
        ASSERT_EQ(double(dc->GetTargetRate()), m_rt0);
        ASSERT_NEAR(double(RateAt(m_t2)), m_rt0 * (1 - Decay(n) / 2), kRateTol);
    }

    /// Time of the second cut of TwoCuts().
    Time SecondCut() const
    {
        return m_t2;
    }

    /// R_T right after TwoCuts().
    double TargetAfterTwoCuts() const
    {
        return m_rt0;
    }

    Time m_t2;
    double m_rt0{0};
    Spec spec;
    FakeClock clock;
    Ptr<Dcqcn> dc;
};

class DcqcnPresetTest : public DcqcnTest, public ::testing::WithParamInterface<std::string>
{
  protected:
    void SetUp() override
    {
        Make(GetParam());
    }
};

} // namespace dcqcntest

#endif /* RDMA_DCQCN_TEST_FIXTURE_H */
