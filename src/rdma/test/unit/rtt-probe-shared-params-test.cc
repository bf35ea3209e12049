/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the RTT probe's shared parameter block (RttProbe::Params): controllers
 * with the same attribute values share one block from Init on (a QP's controller holds
 * its state, not a copy of 37 attributes), GetAttribute reads the values in use, an
 * attribute set on one of them changes that one only, and a controller on a shared
 * block behaves exactly as one on a block of its own.
 */
#include "fake-cc-clock.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/rtt-probe.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <map>
#include <string>

using namespace ns3;
using rdmatest::FakeClock;

namespace
{
constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s

Ptr<RttProbe>
MakeInit(const CcClock& clock, const std::map<std::string, std::string>& attributes = {})
{
    Ptr<RttProbe> cc = CreateObject<RttProbe>();
    for (const auto& [name, value] : attributes)
    {
        cc->SetAttribute(name, StringValue(value));
    }
    CcContext ctx;
    ctx.lineRate = kLine;
    ctx.baseRtt = NanoSeconds(4200);
    ctx.mtu = 1024;
    ctx.hops = 2;
    ctx.fabricBaseRtt = ctx.baseRtt;
    ctx.clock = &clock;
    cc->Init(ctx);
    return cc;
}

/// The attribute \p name of \p cc, as a string.
std::string
Attr(const Ptr<RttProbe>& cc, const std::string& name)
{
    StringValue v;
    cc->GetAttribute(name, v);
    return v.Get();
}

/// The time attribute \p name of \p cc.
Time
TimeAttr(const Ptr<RttProbe>& cc, const std::string& name)
{
    TimeValue v;
    cc->GetAttribute(name, v);
    return v.Get();
}
} // namespace

// Rule: equal attribute values, one block (also when a value is set explicitly to its
// default); a different value of any kind (double, time, enum, integer, bool), another.
TEST(RttProbeSharedParams, EqualAttributesShareOneBlock)
{
    FakeClock clock;
    Ptr<RttProbe> a = MakeInit(clock);
    Ptr<RttProbe> b = MakeInit(clock);
    Ptr<RttProbe> sameMd = MakeInit(clock, {{"MdFactor", "0.9"}});
    EXPECT_EQ(&a->GetParams(), &b->GetParams());
    EXPECT_EQ(&a->GetParams(), &sameMd->GetParams());
    for (const auto& [name, value] : std::map<std::string, std::string>{
             {"MdFactor", "0.7"},
             {"TargetRtt", "20us"},
             {"Preset", "NvidiaSample"},
             {"StartBurst", "4096"},
             {"ShareWithPeers", "true"},
         })
    {
        Ptr<RttProbe> other = MakeInit(clock, {{name, value}});
        EXPECT_NE(&a->GetParams(), &other->GetParams()) << name;
        EXPECT_EQ(&other->GetParams(), &MakeInit(clock, {{name, value}})->GetParams())
            << name << ": equal values again share";
    }
}

// Rule: GetAttribute reads the values in use, after Init as before.
TEST(RttProbeSharedParams, GetAttributeReadsTheValuesInUse)
{
    FakeClock clock;
    Ptr<RttProbe> a = MakeInit(clock);
    EXPECT_EQ(Attr(a, "Preset"), "Scalable");
    EXPECT_EQ(Attr(a, "NackMode"), "Immediate");
    EXPECT_EQ(Attr(a, "MdFactor"), "0.9");
    EXPECT_EQ(TimeAttr(a, "TargetRtt"), MicroSeconds(13));
    EXPECT_EQ(Attr(a, "StartBurst"), "16384");
    EXPECT_EQ(Attr(a, "ShareWithPeers"), "false");
    Ptr<RttProbe> b = MakeInit(clock,
                               {{"Preset", "NvidiaSample"},
                                {"NackMode", "OnHighRtt"},
                                {"MdFactor", "0.7"},
                                {"TargetRtt", "20us"},
                                {"StartBurst", "4096"},
                                {"ShareWithPeers", "true"}});
    EXPECT_EQ(Attr(b, "Preset"), "NvidiaSample");
    EXPECT_EQ(Attr(b, "NackMode"), "OnHighRtt");
    EXPECT_EQ(Attr(b, "MdFactor"), "0.7");
    EXPECT_EQ(TimeAttr(b, "TargetRtt"), MicroSeconds(20));
    EXPECT_EQ(Attr(b, "StartBurst"), "4096");
    EXPECT_EQ(Attr(b, "ShareWithPeers"), "true");
    EXPECT_EQ(b->GetTargetRtt(), MicroSeconds(20));
}

// Rule: an attribute set on a controller after Init changes that controller only.
TEST(RttProbeSharedParams, AttributeSetAfterInitChangesOnlyThatController)
{
    FakeClock clock;
    Ptr<RttProbe> a = MakeInit(clock);
    Ptr<RttProbe> b = MakeInit(clock);
    a->SetAttribute("NackFactor", DoubleValue(0.25));
    EXPECT_EQ(Attr(a, "NackFactor"), "0.25");
    EXPECT_EQ(Attr(b, "NackFactor"), "0.5");
    EXPECT_NE(&a->GetParams(), &b->GetParams());
    // A fresh controller still gets the block of the untouched values.
    Ptr<RttProbe> c = MakeInit(clock);
    EXPECT_EQ(&c->GetParams(), &b->GetParams());
}

// Rule: sharing changes no decision: a controller on the shared block and one holding a
// copy of its own (set after Init to another value and back) take the same rates
// through the same samples and NACKs.
TEST(RttProbeSharedParams, SharedBlockBehavesAsOwnBlock)
{
    FakeClock clock;
    const std::map<std::string, std::string> nvidia{{"Preset", "NvidiaSample"}};
    Ptr<RttProbe> shared = MakeInit(clock, nvidia);
    Ptr<RttProbe> other = MakeInit(clock, nvidia);
    Ptr<RttProbe> own = MakeInit(clock, nvidia);
    own->SetAttribute("MdFactor", DoubleValue(0.5)); // its own copy...
    own->SetAttribute("MdFactor", DoubleValue(0.9)); // ...back to the shared value
    ASSERT_EQ(&shared->GetParams(), &other->GetParams());
    ASSERT_NE(&own->GetParams(), &shared->GetParams());
    for (int step = 0; step < 200; ++step)
    {
        clock.now += MicroSeconds(7);
        const Time rtt = MicroSeconds(step % 5 == 0 ? 30 : 8);
        if (shared->WantsProbe())
        {
            ASSERT_TRUE(own->WantsProbe()) << "step " << step;
            shared->OnProbeResponse(rtt);
            own->OnProbeResponse(rtt);
        }
        if (step % 37 == 0)
        {
            shared->OnNack();
            own->OnNack();
        }
        ASSERT_EQ(shared->GetRate(), own->GetRate()) << "step " << step;
    }
    EXPECT_LT(shared->GetRate(), kLine); // the samples did cut it
}
