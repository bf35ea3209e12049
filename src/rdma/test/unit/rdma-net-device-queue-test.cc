/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A port's class queues hold raw frame pointers, one reference each (ns-3's Ptr has no
 * move): Enqueue takes one, TakeQueuedHead hands it over, disposing the port gives back
 * those of the frames still queued, and every frame queued is sent once, in order.
 */
#include "two-port-link.h"

#include "ns3/rdma-frame.h"
#include "ns3/rdma-net-device.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{
class PortQueue : public ::testing::Test
{
  protected:
    rdmatest::TwoPortLink link;
    Ptr<RdmaNetDevice> a = link.a;
    Ptr<RdmaNetDevice> b = link.b;

    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Queue \p n data frames (PSNs 0..n-1) on A's class 3, kept here too.
    std::vector<Ptr<RdmaFrame>> EnqueueData(uint32_t n)
    {
        std::vector<Ptr<RdmaFrame>> frames;
        for (uint32_t psn = 0; psn < n; ++psn)
        {
            frames.push_back(RdmaFrame::Make(link.Data(psn)));
            a->Enqueue(frames.back(), 3);
        }
        return frames;
    }
};
} // namespace

TEST_F(PortQueue, HoldsOneReferencePerQueuedFrameAndHandsItOver)
{
    // The first frame goes on the wire at once; the others wait behind it.
    const std::vector<Ptr<RdmaFrame>> frames = EnqueueData(4);
    ASSERT_EQ(a->GetQueue(3).size(), 3u);
    for (uint32_t i = 1; i < 4; ++i)
    {
        EXPECT_EQ(frames[i]->GetReferenceCount(), 2u) << "ours and the queue's, frame " << i;
    }
    Ptr<RdmaFrame> taken = a->TakeQueuedHead(3);
    ASSERT_EQ(taken, frames[1]) << "the oldest waiting frame";
    EXPECT_EQ(frames[1]->GetReferenceCount(), 2u) << "the queue's reference, handed over";
    taken = nullptr;
    EXPECT_EQ(frames[1]->GetReferenceCount(), 1u);
    EXPECT_EQ(a->GetQueue(3).size(), 2u);
    EXPECT_EQ(a->GetQueueBytes(3), uint64_t(frames[2]->GetSize()) + frames[3]->GetSize());
}

TEST_F(PortQueue, DisposeGivesBackTheReferencesOfQueuedFrames)
{
    const std::vector<Ptr<RdmaFrame>> frames = EnqueueData(5);
    ASSERT_EQ(a->GetQueue(3).size(), 4u);
    a->Dispose();
    for (uint32_t i = 1; i < 5; ++i)
    {
        EXPECT_EQ(frames[i]->GetReferenceCount(), 1u) << "frame " << i;
    }
}

TEST_F(PortQueue, SendsEveryQueuedFrameOnceInOrder)
{
    std::vector<uint32_t> received;
    b->SetRdmaReceiveCallback([&received](Ptr<RdmaNetDevice>, Ptr<Packet>, const RdmaHeader& h) {
        received.push_back(h.psn);
    });
    const std::vector<Ptr<RdmaFrame>> frames = EnqueueData(20);
    Simulator::Run();
    ASSERT_EQ(received.size(), 20u);
    for (uint32_t psn = 0; psn < 20; ++psn)
    {
        EXPECT_EQ(received[psn], psn);
        EXPECT_EQ(frames[psn]->GetReferenceCount(), 1u) << "only ours left, frame " << psn;
    }
    EXPECT_TRUE(a->GetQueue(3).empty());
    EXPECT_EQ(a->GetQueueBytes(3), 0u);
}
