/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the shared-buffer policies of the lossy classes (buffer-policy.h) on
 * hand-made MMU state, the expected numbers derived by hand from each rule:
 *  - static: a queue holds at most its fixed share, whatever the free buffer; the share
 *    defaults to B / (ports x 8);
 *  - abm: T = alpha / n_p x (B - Q) x mu / b, with n_p the congested queues of the
 *    class, mu / b = 1 for a queue not congested or congested for less than one window,
 *    the measured dequeue rate (floored at MinDrainRate) otherwise;
 *  - the registry finds the three policies by name.
 */
#include "ns3/abm-buffer-policy.h"
#include "ns3/core-module.h"
#include "ns3/dynamic-threshold-policy.h"
#include "ns3/static-buffer-policy.h"
#include "ns3/switch-mmu.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint8_t kLossy = 3; // PFC off: every class is lossy
constexpr uint32_t kPkt = 500;

/// A lossy MMU of \p buffer bytes and \p ports ports at 8 Gb/s with \p policy.
Ptr<SwitchMmu>
Mmu(uint64_t buffer, uint32_t ports, Ptr<BufferPolicy> policy)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(buffer));
    mmu->SetAttribute("PfcEnabled", BooleanValue(false));
    mmu->SetAttribute("EgressAlpha", DoubleValue(0.5));
    mmu->SetBufferPolicy(policy);
    mmu->SetPortCount(ports);
    for (uint32_t p = 0; p < ports; ++p)
    {
        mmu->ConfigurePort(p, 8000000000ULL, MicroSeconds(1), 1000);
    }
    return mmu;
}

/// Frames of kPkt admitted into (port, class) until the first refusal (at most 1000).
int
FillUntilRefused(Ptr<SwitchMmu> mmu, uint32_t port, uint8_t prio, DropReason& why)
{
    for (int i = 0; i < 1000; ++i)
    {
        if (!mmu->Admit(0, port, prio, kPkt, &why))
        {
            return i;
        }
    }
    return 1000;
}

Ptr<AbmBufferPolicy>
Abm(uint64_t congestedBytes)
{
    Ptr<AbmBufferPolicy> abm = CreateObject<AbmBufferPolicy>();
    abm->SetAttribute("Alpha", DoubleValue(0.5));
    abm->SetAttribute("UpdateInterval", TimeValue(MicroSeconds(10)));
    abm->SetAttribute("CongestedBytes", UintegerValue(congestedBytes));
    abm->SetAttribute("MinDrainRate", DoubleValue(0.125));
    return abm;
}

} // namespace

TEST(BufferPolicy, TheRegistryNamesTheThreePolicies)
{
    const std::vector<std::string> names = BufferPolicy::Names();
    EXPECT_EQ(names, (std::vector<std::string>{"abm", "dynamic_threshold", "static"}));
    TypeId tid;
    ASSERT_TRUE(BufferPolicy::Find("abm", tid));
    EXPECT_EQ(tid, AbmBufferPolicy::GetTypeId());
    EXPECT_FALSE(BufferPolicy::Find("abm2", tid));
    // A new MMU uses dynamic thresholds.
    EXPECT_EQ(CreateObject<SwitchMmu>()->GetBufferPolicy()->GetName(), "dynamic_threshold");
}

TEST(BufferPolicy, StaticCapsEveryQueueAtItsShareWhateverTheFreeBuffer)
{
    // Explicit share of 3,000 bytes in a 1 MB buffer: dynamic thresholds at alpha 0.5
    // would allow ~333 KB; static stops the 7th 500-byte frame.
    Ptr<StaticBufferPolicy> policy = CreateObject<StaticBufferPolicy>();
    policy->SetAttribute("QueueLimit", UintegerValue(3000));
    Ptr<SwitchMmu> mmu = Mmu(1000000, 4, policy);
    DropReason why = DropReason::NO_ROUTE;
    EXPECT_EQ(FillUntilRefused(mmu, 1, kLossy, why), 6);
    EXPECT_EQ(why, DropReason::STATIC_QUEUE_LIMIT);
    EXPECT_EQ(mmu->GetEgressBytes(1, kLossy), 3000u);
    // Another queue of the same port, and another port, each have their own share.
    EXPECT_EQ(FillUntilRefused(mmu, 1, kLossy + 1, why), 6);
    EXPECT_EQ(FillUntilRefused(mmu, 2, kLossy, why), 6);
    // A frame leaving makes room for exactly one.
    mmu->Release(0, 1, kLossy, kPkt);
    EXPECT_TRUE(mmu->Admit(0, 1, kLossy, kPkt));
    EXPECT_FALSE(mmu->Admit(0, 1, kLossy, kPkt));
}

TEST(BufferPolicy, StaticDefaultShareIsTheBufferOverPortsTimesClasses)
{
    // 64,000 bytes, 4 ports x 8 classes: 2,000 bytes per queue, 4 frames.
    Ptr<StaticBufferPolicy> policy = CreateObject<StaticBufferPolicy>();
    Ptr<SwitchMmu> mmu = Mmu(64000, 4, policy);
    EXPECT_EQ(policy->GetQueueLimit(), 2000u);
    DropReason why = DropReason::NO_ROUTE;
    EXPECT_EQ(FillUntilRefused(mmu, 0, kLossy, why), 4);
    EXPECT_EQ(why, DropReason::STATIC_QUEUE_LIMIT);
}

TEST(BufferPolicy, DynamicThresholdIsEgressAlphaTimesFreeBuffer)
{
    Ptr<SwitchMmu> mmu = Mmu(10000, 2, CreateObject<DynamicThresholdPolicy>());
    EXPECT_DOUBLE_EQ(mmu->GetBufferPolicy()->GetThreshold(1, kLossy, 10000), 5000.0);
    // q + 500 <= 0.5 x (10,000 - q) up to q = 3,000: 7 frames, the 8th refused.
    DropReason why = DropReason::NO_ROUTE;
    EXPECT_EQ(FillUntilRefused(mmu, 1, kLossy, why), 7);
    EXPECT_EQ(why, DropReason::LOSSY_EGRESS_THRESHOLD);
}

TEST(BufferPolicy, AbmWithNoCongestedQueueIsAlphaTimesFreeBufferAndDropsAtIt)
{
    // Nothing ever congested (CongestedBytes 1 GB): n_p = 1, mu / b = 1, T = 0.5 x free.
    // 40,000 bytes: q + 500 <= 0.5 x (40,000 - q) up to q = 13,000: 27 frames.
    Ptr<AbmBufferPolicy> abm = Abm(1000000000);
    Ptr<SwitchMmu> mmu = Mmu(40000, 2, abm);
    EXPECT_DOUBLE_EQ(abm->GetThreshold(1, kLossy, 40000), 20000.0);
    DropReason why = DropReason::NO_ROUTE;
    EXPECT_EQ(FillUntilRefused(mmu, 1, kLossy, why), 27);
    EXPECT_EQ(why, DropReason::ABM_THRESHOLD);
    EXPECT_EQ(abm->GetCongestedQueues(kLossy), 0u);
}

TEST(BufferPolicy, AbmDividesByTheCongestedQueuesOfTheClassAndScalesByDrainRate)
{
    // 1,000,000 bytes, 4 ports at 8 Gb/s, congested from 3,000 bytes, 10 us windows.
    Ptr<AbmBufferPolicy> abm = Abm(3000);
    Ptr<SwitchMmu> mmu = Mmu(1000000, 4, abm);
    auto freeBytes = [&]() { return mmu->GetSharedCapacity() - mmu->GetSharedUsed(); };
    // t = 0: ports 1 and 2 get 6,000 bytes of class 3 each: two congested queues.
    for (int i = 0; i < 24; ++i)
    {
        ASSERT_TRUE(mmu->Admit(0, 1 + i % 2, kLossy, kPkt));
    }
    ASSERT_EQ(abm->GetCongestedQueues(kLossy), 2u);
    EXPECT_EQ(abm->GetCongestedQueues(kLossy + 1), 0u) << "n_p counts per class";
    EXPECT_EQ(freeBytes(), 988000u);
    // First window: every queue at line rate. T = 0.5 / 2 x 988,000 = 247,000, for a
    // congested queue and an idle one alike; another class has n = 1: 494,000.
    EXPECT_DOUBLE_EQ(abm->GetThreshold(1, kLossy, freeBytes()), 247000.0);
    EXPECT_DOUBLE_EQ(abm->GetThreshold(3, kLossy, freeBytes()), 247000.0);
    EXPECT_DOUBLE_EQ(abm->GetThreshold(1, kLossy + 1, freeBytes()), 494000.0);

    // Port 1 sends a frame every 2 us (t = 0, 2, 4, 6, 8), a quarter of 8 Gb/s (a 500-
    // byte frame takes 0.5 us), and gets one back each time (stays congested); port 2
    // sends nothing (stalled).
    double t1 = 0, t2 = 0, t3 = 0, t3dt = 0;
    for (int k = 0; k < 5; ++k)
    {
        Simulator::Schedule(MicroSeconds(2 * k), [&mmu]() {
            mmu->Release(0, 1, kLossy, kPkt);
            ASSERT_TRUE(mmu->Admit(0, 1, kLossy, kPkt));
        });
    }
    Simulator::Schedule(MicroSeconds(10), [&]() {
        t1 = abm->GetThreshold(1, kLossy, freeBytes());
        t2 = abm->GetThreshold(2, kLossy, freeBytes());
        t3 = abm->GetThreshold(3, kLossy, freeBytes());
        t3dt = 0.5 * freeBytes();
    });
    Simulator::Run();
    Simulator::Destroy();
    // At t = 10 us, after one window: port 1 drained 2,500 bytes in 10 us = 2 Gb/s,
    // mu / b = 0.25: T = 0.5 / 2 x 988,000 x 0.25 = 61,750. Port 2 drained nothing:
    // mu / b floored at 0.125: 30,875. Port 3 is not congested: line rate, 247,000.
    EXPECT_DOUBLE_EQ(t1, 61750.0);
    EXPECT_DOUBLE_EQ(t2, 30875.0);
    EXPECT_DOUBLE_EQ(t3, 247000.0);
    EXPECT_LT(t3, t3dt) << "two congested queues halve the share of each";
}

TEST(BufferPolicy, AbmQueueThatDrainsIsNoLongerCongested)
{
    Ptr<AbmBufferPolicy> abm = Abm(3000);
    Ptr<SwitchMmu> mmu = Mmu(1000000, 4, abm);
    for (int i = 0; i < 7; ++i)
    {
        ASSERT_TRUE(mmu->Admit(0, 1, kLossy, kPkt));
    }
    ASSERT_EQ(abm->GetCongestedQueues(kLossy), 1u);
    mmu->Release(0, 1, kLossy, kPkt);
    EXPECT_EQ(abm->GetCongestedQueues(kLossy), 1u) << "3,000 is still congested";
    mmu->Release(0, 1, kLossy, kPkt);
    EXPECT_EQ(abm->GetCongestedQueues(kLossy), 0u);
    EXPECT_DOUBLE_EQ(abm->GetNormalizedDrainRate(1, kLossy), 1.0);
}
