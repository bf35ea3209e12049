/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the DCQCN presets (nic, paper, hpcc_sim: their values, when they apply,
 * explicit values over them, the CNP spacing), of the per-period alpha rule the NIC
 * presets ship with, and of NoCongestionControl, driven by a fake clock (no
 * simulation). The specification is in dcqcn-test-fixture.h.
 */
#include "dcqcn-test-fixture.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace dcqcntest;

// Rule: the presets carry the values of docs/design.md's DCQCN table (at 100 Gb/s the NIC
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
        cc->OnSendEvent(CcSendEvent::SEND, 1024);
        clock.now = Seconds(1);
        EXPECT_EQ(cc->GetRate(), line);
        EXPECT_EQ(cc->GetWindow(), 0u);
        EXPECT_EQ(cc->GetName(), "none");
        EXPECT_EQ(cc->GetContext().lineRate, line);
    }
}
