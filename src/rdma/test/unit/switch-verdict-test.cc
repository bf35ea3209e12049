/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the reasons SwitchMmu gives for its drops and marks (switch-verdict.h):
 *  - lossless: refused only once past Xoff with the port's headroom full:
 *    HEADROOM_OVERFLOW;
 *  - lossy: refused when the shared pool has no room (SHARED_BUFFER_FULL), else when the
 *    egress queue would pass EgressAlpha x free buffer (LOSSY_EGRESS_THRESHOLD);
 *  - a CE mark with the queue above Kmax is ECN_ABOVE_KMAX, between Kmin and Kmax
 *    ECN_PROBABILISTIC.
 * The numbers are derived by hand from these rules.
 */
#include "ns3/core-module.h"
#include "ns3/switch-mmu.h"
#include "ns3/switch-verdict.h"

#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace ns3;

namespace
{

constexpr uint8_t kLossless = 3; // in the default LosslessClasses mask 0x7f
constexpr uint8_t kLossy = 7;    // not in it
constexpr uint32_t kPkt = 1000;

Ptr<SwitchMmu>
Mmu(uint64_t buffer, bool pfc, double egressAlpha)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(buffer));
    mmu->SetAttribute("PfcEnabled", BooleanValue(pfc));
    mmu->SetAttribute("DynamicXoff", BooleanValue(false));
    mmu->SetAttribute("StaticXoff", UintegerValue(2 * kPkt));
    mmu->SetAttribute("EgressAlpha", DoubleValue(egressAlpha));
    mmu->SetPortCount(2);
    mmu->SetHeadroom(0, 3 * kPkt);
    mmu->AssignStreams(3);
    return mmu;
}

TEST(SwitchVerdict, ALosslessFrameIsRefusedOnlyWhenTheHeadroomIsFull)
{
    Ptr<SwitchMmu> mmu = Mmu(100000, true, 8);
    DropReason why = DropReason::NO_ROUTE;
    // 2 frames up to Xoff, then 3 into the 3-frame headroom.
    for (int i = 0; i < 5; ++i)
    {
        ASSERT_TRUE(mmu->Admit(0, 1, kLossless, kPkt, &why)) << "frame " << i;
    }
    EXPECT_FALSE(mmu->Admit(0, 1, kLossless, kPkt, &why));
    EXPECT_EQ(why, DropReason::HEADROOM_OVERFLOW);
}

TEST(SwitchVerdict, ALossyFrameIsRefusedAtTheEgressThreshold)
{
    // No lossless class: no headroom reserved, shared = 10,000. Alpha 1: a queue q is
    // refused a frame when q + 1000 > 10,000 - q, first at q = 5,000.
    Ptr<SwitchMmu> mmu = Mmu(10000, false, 1);
    DropReason why = DropReason::NO_ROUTE;
    for (int i = 0; i < 4; ++i)
    {
        ASSERT_TRUE(mmu->Admit(0, 1, kLossy, kPkt, &why)) << "frame " << i;
    }
    ASSERT_TRUE(mmu->Admit(0, 1, kLossy, kPkt, &why)) << "q = 4,000: 5,000 <= 6,000";
    EXPECT_FALSE(mmu->Admit(0, 1, kLossy, kPkt, &why)) << "q = 5,000: 6,000 > 5,000";
    EXPECT_EQ(why, DropReason::LOSSY_EGRESS_THRESHOLD);
}

TEST(SwitchVerdict, ALossyFrameIsRefusedWhenTheSharedPoolIsFull)
{
    // Alpha 100 never binds; the 10,000-byte pool holds ten frames.
    Ptr<SwitchMmu> mmu = Mmu(10000, false, 100);
    DropReason why = DropReason::NO_ROUTE;
    for (int i = 0; i < 10; ++i)
    {
        ASSERT_TRUE(mmu->Admit(0, 1, kLossy, kPkt, &why)) << "frame " << i;
    }
    EXPECT_FALSE(mmu->Admit(0, 1, kLossy, kPkt, &why));
    EXPECT_EQ(why, DropReason::SHARED_BUFFER_FULL);
}

TEST(SwitchVerdict, AMarkAboveKmaxIsForcedAndBelowItProbabilistic)
{
    Ptr<SwitchMmu> mmu = Mmu(1000000, true, 8);
    mmu->SetEcnThresholds(1, 1 * kPkt, 3 * kPkt, 1.0);
    for (int i = 0; i < 2; ++i)
    {
        ASSERT_TRUE(mmu->Admit(0, 1, kLossless, kPkt));
    }
    // q = 2,000: p = (2,000 - 1,000) / (3,000 - 1,000) = 0.5.
    MarkReason why = MarkReason::ECN_ABOVE_KMAX;
    int marks = 0;
    for (int i = 0; i < 200; ++i)
    {
        if (mmu->ShouldMarkEcn(1, kLossless, &why))
        {
            ++marks;
            EXPECT_EQ(why, MarkReason::ECN_PROBABILISTIC);
        }
    }
    EXPECT_GT(marks, 0);
    EXPECT_LT(marks, 200);
    for (int i = 0; i < 2; ++i)
    {
        ASSERT_TRUE(mmu->Admit(0, 1, kLossless, kPkt));
    }
    // q = 4,000 > Kmax: always.
    ASSERT_TRUE(mmu->ShouldMarkEcn(1, kLossless, &why));
    EXPECT_EQ(why, MarkReason::ECN_ABOVE_KMAX);
}

TEST(SwitchVerdict, EveryReasonHasItsOwnName)
{
    std::set<std::string> names;
    for (std::size_t r = 0; r < kDropReasons; ++r)
    {
        names.insert(DropReasonName(static_cast<DropReason>(r)));
    }
    for (std::size_t r = 0; r < kMarkReasons; ++r)
    {
        names.insert(MarkReasonName(static_cast<MarkReason>(r)));
    }
    EXPECT_EQ(names.size(), kDropReasons + kMarkReasons);
    EXPECT_EQ(names.count("unknown"), 0u);
}

} // namespace
