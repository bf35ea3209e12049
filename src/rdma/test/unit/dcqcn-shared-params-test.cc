/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of DCQCN's shared parameter blocks: controllers whose parameters resolve to
 * the same values share one block from Init on (a QP's controller holds its state, not
 * a copy of twelve parameters), an attribute set on one of them changes that one only,
 * and a controller on a shared block behaves exactly as one on a block of its own.
 */
#include "fake-cc-clock.h"

#include "ns3/dcqcn.h"
#include "ns3/double.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

using namespace ns3;
using rdmatest::FakeClock;

namespace
{
constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s

Ptr<Dcqcn>
MakeInit(const CcClock& clock, uint64_t lineRate, const std::string& g = "preset")
{
    Ptr<Dcqcn> d = CreateObject<Dcqcn>();
    d->SetAttribute("G", StringValue(g));
    CcContext ctx;
    ctx.lineRate = lineRate;
    ctx.clock = &clock;
    d->Init(ctx);
    return d;
}

double
G(const Ptr<Dcqcn>& d)
{
    DoubleValue g;
    d->GetAttribute("G", g);
    return g.Get();
}
} // namespace

// Rule: equal resolved parameters, one block; a different line rate (the NIC preset's
// steps scale with it) or a different explicit value, another.
TEST(DcqcnSharedParams, EqualParametersShareOneBlock)
{
    FakeClock clock;
    Ptr<Dcqcn> a = MakeInit(clock, kLine);
    Ptr<Dcqcn> b = MakeInit(clock, kLine);
    // An explicit value equal to the preset's resolves to the same parameters.
    Ptr<Dcqcn> sameG = MakeInit(clock, kLine, "0.0048828125"); // the NIC's 5/1024
    Ptr<Dcqcn> slower = MakeInit(clock, kLine / 4);
    Ptr<Dcqcn> otherG = MakeInit(clock, kLine, "0.5");
    EXPECT_EQ(&a->GetParams(), &b->GetParams());
    EXPECT_EQ(&a->GetParams(), &sameG->GetParams());
    EXPECT_NE(&a->GetParams(), &slower->GetParams());
    EXPECT_NE(&a->GetParams(), &otherG->GetParams());
    EXPECT_NE(*a->GetParams().rateAi, *slower->GetParams().rateAi);
    // Resolved: every parameter has a value.
    EXPECT_TRUE(a->GetParams().g && a->GetParams().rateAi && a->GetParams().clampTargetRate);
}

// Rule: an attribute set on a controller after Init changes that controller only.
TEST(DcqcnSharedParams, AttributeSetAfterInitChangesOnlyThatController)
{
    FakeClock clock;
    Ptr<Dcqcn> a = MakeInit(clock, kLine);
    Ptr<Dcqcn> b = MakeInit(clock, kLine);
    const double shared = G(a);
    a->SetAttribute("G", DoubleValue(0.25));
    EXPECT_DOUBLE_EQ(G(a), 0.25);
    EXPECT_DOUBLE_EQ(G(b), shared);
    EXPECT_NE(&a->GetParams(), &b->GetParams());
    // And a fresh controller still gets the block of the untouched values.
    Ptr<Dcqcn> c = MakeInit(clock, kLine);
    EXPECT_EQ(&c->GetParams(), &b->GetParams());
    EXPECT_DOUBLE_EQ(G(c), shared);
}

// Rule: sharing changes no decision: a controller whose block is shared and one that
// holds a copy of its own (set after Init to the same value) take the same rates
// through the same CNPs and timer periods.
TEST(DcqcnSharedParams, SharedBlockBehavesAsOwnBlock)
{
    FakeClock clock;
    Ptr<Dcqcn> shared = MakeInit(clock, kLine);
    Ptr<Dcqcn> other = MakeInit(clock, kLine);
    Ptr<Dcqcn> own = MakeInit(clock, kLine);
    own->SetAttribute("G", DoubleValue(0.1));       // its own copy...
    own->SetAttribute("G", DoubleValue(G(shared))); // ...back to the shared value
    ASSERT_EQ(&shared->GetParams(), &other->GetParams());
    ASSERT_NE(&own->GetParams(), &shared->GetParams());
    for (int step = 0; step < 200; ++step)
    {
        clock.now += MicroSeconds(3);
        if (step % 7 == 0)
        {
            shared->OnCnp();
            own->OnCnp();
        }
        shared->OnSendEvent(CcSendEvent::SEND, 1000);
        own->OnSendEvent(CcSendEvent::SEND, 1000);
        ASSERT_EQ(shared->GetRate(), own->GetRate()) << "step " << step;
        ASSERT_DOUBLE_EQ(shared->GetAlpha(), own->GetAlpha()) << "step " << step;
    }
    EXPECT_LT(shared->GetRate(), kLine); // the CNPs did cut it
}
