/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the DCQCN reaction point (Dcqcn) and of NoCongestionControl, driven by a
 * fake clock (no simulation).
 *
 * Specification (ALGORITHMS.md "DCQCN", Zhu et al. SIGCOMM 2015), per QP:
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
 * Presets at 100 Gb/s (ALGORITHMS.md table; nic from NVIDIA's documented ConnectX
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

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr double kRateTol = 2.0;            // bit/s, see header
constexpr double kAlphaTol = 1e-12;

/// The fake clock: tests set `now`.
using rdmatest::FakeClock;

/// Parameters of a preset at 100 Gb/s, written by hand from the ALGORITHMS.md table.
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

Spec
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

Spec
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

Spec
HpccSimSpec()
{
    Spec s = NicSpec();
    s.name = "hpcc_sim";
    s.g = 1.0 / 256;
    s.cnpInterval = Time(0);
    s.initialAlpha = 1.0;
    return s;
}

Spec
SpecFor(const std::string& name)
{
    return name == "paper" ? PaperSpec() : name == "nic" ? NicSpec() : HpccSimSpec();
}

/// The Preset attribute's value for a preset name of the table ("hpcc_sim" -> "HpccSim").
std::string
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
bool
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

} // namespace

// Rule: the presets carry the values of the ALGORITHMS.md table (at 100 Gb/s the NIC
// steps are 4 x the 25G ones); unknown names are rejected.
TEST(DcqcnPresets, MatchSpecificationTable)
{
    for (const Spec& s : {PaperSpec(), NicSpec(), HpccSimSpec()})
    {
        PresetValues p;
        ASSERT_TRUE(ResolvePreset(s.name, kLine, p)) << s.name;
        EXPECT_DOUBLE_EQ(p.g, s.g) << s.name;
        EXPECT_EQ(p.alphaPerPeriod, s.alphaPerPeriod) << s.name;
        EXPECT_DOUBLE_EQ(p.initialAlpha, s.initialAlpha) << s.name;
        EXPECT_EQ(p.alphaInterval, s.alphaInterval) << s.name;
        EXPECT_EQ(p.rateIncreaseInterval, s.timer) << s.name;
        EXPECT_EQ(p.byteCounter, s.byteCounter) << s.name;
        EXPECT_EQ(p.fastRecoverySteps, s.f) << s.name;
        EXPECT_EQ(double(p.rateAi), s.rai) << s.name;
        EXPECT_EQ(double(p.rateHai), s.rhai) << s.name;
        EXPECT_EQ(double(p.minRate), s.minRate) << s.name;
        EXPECT_EQ(p.rateDecreaseInterval, s.decreaseInterval) << s.name;
        EXPECT_EQ(p.clampTargetRate, s.clampTargetRate) << s.name;
        EXPECT_EQ(p.cnpInterval, s.cnpInterval) << s.name;
    }
    // NIC steps scale with rate/25G: at 25 Gb/s, 5 and 50 Mb/s.
    PresetValues p25;
    ASSERT_TRUE(ResolvePreset("nic", 25000000000ULL, p25));
    EXPECT_EQ(p25.rateAi, 5000000u);
    EXPECT_EQ(p25.rateHai, 50000000u);
    PresetValues unused;
    EXPECT_FALSE(ResolvePreset("no-such-preset", kLine, unused));
}

// Rule: the presets are applied at Init, for the line rate of the context: the NIC steps
// scale with rate/25G, the paper's do not; the other parameters do not depend on it.
TEST(DcqcnPresets, AppliedAtInitForTheLineRate)
{
    for (uint64_t line : {25000000000ULL, 100000000000ULL, 400000000000ULL})
    {
        const double scale = double(line) / 25e9;
        PresetValues nic;
        ASSERT_TRUE(ResolvePreset("nic", line, nic));
        EXPECT_EQ(double(nic.rateAi), 5e6 * scale) << line;
        EXPECT_EQ(double(nic.rateHai), 50e6 * scale) << line;
        EXPECT_EQ(double(nic.minRate), NicSpec().minRate) << line;
        EXPECT_EQ(nic.rateIncreaseInterval, NicSpec().timer) << line;
        PresetValues paper;
        ASSERT_TRUE(ResolvePreset("paper", line, paper));
        EXPECT_EQ(double(paper.rateAi), PaperSpec().rai) << line;
        EXPECT_EQ(double(paper.rateHai), PaperSpec().rhai) << line;
    }
}

// Rule: without any attribute set, Dcqcn is the nic preset (Preset = Nic): every
// parameter reads "preset" until Init, then the nic value for the line rate.
TEST(DcqcnPresets, DefaultIsNicResolvedAtInit)
{
    Ptr<Dcqcn> d = CreateObject<Dcqcn>();
    StringValue text;
    d->GetAttribute("Preset", text);
    EXPECT_EQ(text.Get(), "Nic");
    for (const char* name : {"G",
                             "AlphaPerPeriod",
                             "InitialAlpha",
                             "AlphaInterval",
                             "RateIncreaseInterval",
                             "ByteCounter",
                             "FastRecoverySteps",
                             "RateAi",
                             "RateHai",
                             "MinRate",
                             "RateDecreaseInterval",
                             "ClampTargetRate"})
    {
        d->GetAttribute(name, text);
        EXPECT_EQ(text.Get(), "preset") << name;
    }
    FakeClock clock;
    CcContext ctx;
    ctx.lineRate = kLine;
    ctx.clock = &clock;
    d->Init(ctx);
    const Spec nic = NicSpec();
    TimeValue timer;
    d->GetAttribute("RateIncreaseInterval", timer);
    EXPECT_EQ(timer.Get(), nic.timer);
    DataRateValue rai;
    d->GetAttribute("RateAi", rai);
    EXPECT_EQ(double(rai.Get().GetBitRate()), nic.rai);
    BooleanValue clamp;
    d->GetAttribute("ClampTargetRate", clamp);
    EXPECT_EQ(clamp.Get(), nic.clampTargetRate);
    EXPECT_EQ(d->GetCnpInterval(), nic.cnpInterval);
}

// Rule: a value set explicitly wins over the preset, also one that equals another
// parameter's "off" (0) or the other preset's value; the rest comes from the preset.
TEST(DcqcnPresets, ExplicitValueWinsOverPreset)
{
    Ptr<Dcqcn> d = CreateObject<Dcqcn>();
    d->SetAttribute("Preset", StringValue("Paper"));
    d->SetAttribute("RateAi", StringValue("80Mbps"));
    d->SetAttribute("ByteCounter", UintegerValue(0));
    d->SetAttribute("ClampTargetRate", BooleanValue(false));
    d->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
    FakeClock clock;
    CcContext ctx;
    ctx.lineRate = kLine;
    ctx.clock = &clock;
    d->Init(ctx);
    DataRateValue rai;
    d->GetAttribute("RateAi", rai);
    EXPECT_EQ(rai.Get().GetBitRate(), 80000000u);
    UintegerValue bc;
    d->GetAttribute("ByteCounter", bc);
    EXPECT_EQ(bc.Get(), 0u);
    BooleanValue clamp;
    d->GetAttribute("ClampTargetRate", clamp);
    EXPECT_FALSE(clamp.Get());
    TimeValue cut;
    d->GetAttribute("RateDecreaseInterval", cut);
    EXPECT_EQ(cut.Get(), MicroSeconds(4));
    // Not set: the paper's.
    const Spec paper = PaperSpec();
    TimeValue timer;
    d->GetAttribute("RateIncreaseInterval", timer);
    EXPECT_EQ(timer.Get(), paper.timer);
    DataRateValue rhai;
    d->GetAttribute("RateHai", rhai);
    EXPECT_EQ(double(rhai.Get().GetBitRate()), paper.rhai);
    EXPECT_EQ(d->GetCnpInterval(), paper.cnpInterval);

    // Setting "preset" again gives the parameter back to the preset.
    Ptr<Dcqcn> e = CreateObject<Dcqcn>();
    e->SetAttribute("RateAi", StringValue("80Mbps"));
    e->SetAttribute("RateAi", StringValue("preset"));
    e->Init(ctx);
    e->GetAttribute("RateAi", rai);
    EXPECT_EQ(double(rai.Get().GetBitRate()), NicSpec().rai);
}

// Rule: the explicit value is the one in effect: with the paper preset (every CNP cuts,
// alpha stays 1: each cut halves the rate) the rate floors at an explicit MinRate of
// 2 Gb/s instead of the paper's 100 Mb/s.
TEST(DcqcnPresets, ExplicitValueIsInEffect)
{
    for (const bool explicitFloor : {false, true})
    {
        Ptr<Dcqcn> d = CreateObject<Dcqcn>();
        d->SetAttribute("Preset", StringValue("Paper"));
        if (explicitFloor)
        {
            d->SetAttribute("MinRate", DataRateValue(DataRate("2Gbps")));
        }
        FakeClock clock;
        CcContext ctx;
        ctx.lineRate = kLine;
        ctx.clock = &clock;
        d->Init(ctx);
        for (int i = 0; i < 20; ++i)
        {
            d->OnCnp();
        }
        EXPECT_EQ(double(d->GetRate()), explicitFloor ? 2e9 : PaperSpec().minRate);
    }
}

// Rule: after Init the attributes read back the values in use, as strings too (times
// exactly, in us); an out-of-range value is refused.
TEST(DcqcnPresets, AttributesReadBackResolvedAfterInit)
{
    Ptr<Dcqcn> d = CreateObject<Dcqcn>();
    d->SetAttribute("Preset", StringValue("Paper"));
    d->SetAttribute("AlphaInterval", StringValue("1500ns"));
    EXPECT_FALSE(d->SetAttributeFailSafe("G", StringValue("2")));
    EXPECT_FALSE(d->SetAttributeFailSafe("G", DoubleValue(2)));
    EXPECT_FALSE(d->SetAttributeFailSafe("AlphaInterval", TimeValue(Time(0))));
    EXPECT_FALSE(d->SetAttributeFailSafe("RateAi", StringValue("fast")));
    FakeClock clock;
    CcContext ctx;
    ctx.lineRate = kLine;
    ctx.clock = &clock;
    d->Init(ctx);
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"Preset", "Paper"},
        {"G", "0.00390625"},
        {"AlphaInterval", "1500ns"},
        {"RateIncreaseInterval", "55us"},
        {"ByteCounter", "10000000"},
        {"FastRecoverySteps", "5"},
        {"RateAi", "40000000bps"},
        {"RateHai", "400000000bps"},
        {"MinRate", "100000000bps"},
        {"RateDecreaseInterval", "0us"},
        {"ClampTargetRate", "true"}};
    for (const auto& [name, value] : expected)
    {
        StringValue text;
        d->GetAttribute(name, text);
        EXPECT_EQ(text.Get(), value) << name;
    }
    DoubleValue g;
    d->GetAttribute("G", g);
    EXPECT_DOUBLE_EQ(g.Get(), PaperSpec().g);
}

// Rule: the CNP spacing a controller wants from the receiving NIC: the preset's for
// DCQCN (nic 4 us, paper 50 us, hpcc_sim 0: a CNP for every marked packet), none
// (negative) by default.
TEST(DcqcnPresets, CnpIntervalPerPreset)
{
    for (const Spec& s : {PaperSpec(), NicSpec(), HpccSimSpec()})
    {
        Ptr<Dcqcn> d = CreateObject<Dcqcn>();
        d->SetAttribute("Preset", StringValue(PresetAttributeValue(s.name)));
        FakeClock clock;
        CcContext ctx;
        ctx.lineRate = kLine;
        ctx.clock = &clock;
        d->Init(ctx);
        EXPECT_EQ(d->GetCnpInterval(), s.cnpInterval) << s.name;
    }
    EXPECT_TRUE(CreateObject<NoCongestionControl>()->GetCnpInterval().IsNegative());
}

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
            dc->OnSend(uint32_t(spec.byteCounter)); // one byte-counter event per step
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
// OnSend(10 MB) x 5: byte events with BC = 0..4 before them, T_cnt = 5: additive
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
        dc->OnSend(10000000);
        rt += spec.rai;
        EXPECT_EQ(double(dc->GetTargetRate()), rt) << "byte event " << j << " (additive)";
    }
    dc->OnSend(10000000);
    rt += spec.rhai;
    EXPECT_EQ(double(dc->GetTargetRate()), rt) << "byte event 6 (hyper, i = 1)";
    dc->OnSend(10000000);
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
        dc->OnSend(10000000);
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
        dc->OnSend(1000000000);
    }
    EXPECT_EQ(dc->GetRate(), 50000000000ULL);
    EXPECT_EQ(dc->GetTargetRate(), kLine);
}

// Rule: NoCongestionControl always sends at line rate, whatever happens; no window.
TEST(NoCongestionControl, ReturnsLineRate)
{
    FakeClock clock;
    for (uint64_t line : {25000000000ULL, 100000000000ULL, 400000000000ULL})
    {
        Ptr<NoCongestionControl> cc = CreateObject<NoCongestionControl>();
        CcContext ctx;
        ctx.lineRate = line;
        ctx.clock = &clock;
        cc->Init(ctx);
        EXPECT_EQ(cc->GetRate(), line);
        cc->OnCnp();
        cc->OnNack();
        cc->OnTimeout();
        CcAck ack;
        ack.ackedBytes = 1024;
        ack.ecnEcho = true;
        cc->OnAck(ack);
        cc->OnSend(1024);
        clock.now = Seconds(1);
        EXPECT_EQ(cc->GetRate(), line);
        EXPECT_EQ(cc->GetWindow(), 0u);
        EXPECT_EQ(cc->GetName(), "none");
        EXPECT_EQ(cc->GetContext().lineRate, line);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Presets,
    DcqcnPresetTest,
    ::testing::Values(std::string("paper"), std::string("nic"), std::string("hpcc_sim")),
    [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Rule (per-period alpha, nic preset as it ships): alpha is set to InitialAlpha
// (1023/1024) by the QP's first CNP however long the QP ran before: a first CNP at 50 us
// cuts 100 Gb/s by a0/2, as one at 0 would.
TEST_F(DcqcnTest, NicAlphaIsSetAtTheFirstCnp)
{
    for (const Time& first : {Time(0), MicroSeconds(50)})
    {
        Make("nic", true);
        const double a0 = 1023.0 / 1024;
        CnpAt(first);
        EXPECT_NEAR(double(dc->GetRate()), 100e9 * (1 - a0 / 2), kRateTol);
        EXPECT_NEAR(dc->GetAlpha(), a0, kAlphaTol);
    }
}

// Rule (per-period alpha): at the end of every AlphaInterval (1 us) alpha rises once,
// a = (1-g) a + g, if a CNP arrived in that period, however many did, and decays,
// a = (1-g) a, otherwise. The first CNP (at 0) only sets alpha. CNPs at 0, 1.5 and
// 1.7 us: [0, 1) decays, [1, 2) rises once, [2, 3) and [3, 4) decay.
TEST_F(DcqcnTest, NicAlphaRisesOncePerPeriodWithACnpAndDecaysOtherwise)
{
    Make("nic", true);
    const double g = 5.0 / 1024;
    auto up = [g](double a) { return (1 - g) * a + g; };
    auto down = [g](double a) { return (1 - g) * a; };
    CnpAt(Time(0));
    CnpAt(NanoSeconds(1500));
    CnpAt(NanoSeconds(1700));
    const double a0 = 1023.0 / 1024;
    RateAt(MicroSeconds(2));
    EXPECT_NEAR(dc->GetAlpha(), up(down(a0)), kAlphaTol);
    RateAt(MicroSeconds(4));
    EXPECT_NEAR(dc->GetAlpha(), down(down(up(down(a0)))), kAlphaTol);
    // The cut deferred from 1.5 us (inside the 4 us decrease interval) happened at 4 us
    // with the alpha of 4 us: R = R1 (1 - a4/2).
    const double r1 = 100e9 * (1 - a0 / 2);
    EXPECT_NEAR(double(dc->GetRate()), r1 * (1 - down(down(up(down(a0)))) / 2), 2 * kRateTol);
}

// Rule (hpcc_sim preset): the HPCC simulator's loop: alpha 1 at the first CNP, g = 1/256
// per 1 us period, a CNP for every marked packet (no spacing at the receiver).
TEST_F(DcqcnTest, HpccSimAlphaStartsAtOneWithGainOneIn256)
{
    Make("hpcc_sim", true);
    EXPECT_EQ(dc->GetCnpInterval(), Time(0));
    CnpAt(Time(0));
    EXPECT_EQ(dc->GetRate(), 50000000000ULL);
    CnpAt(NanoSeconds(500));
    RateAt(MicroSeconds(1));
    EXPECT_NEAR(dc->GetAlpha(), (1 - 1.0 / 256) * 1.0 + 1.0 / 256, kAlphaTol);
}
