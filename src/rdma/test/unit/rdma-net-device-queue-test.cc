/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A port's class queues hold raw frame pointers, one reference each (ns-3's Ptr has no
 * move): Enqueue takes one, TakeQueuedHead hands it over, disposing the port gives back
 * those of the frames still queued, and every frame queued is sent once, in order.
 */
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
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
    Ptr<RdmaNetDevice> a = CreateObject<RdmaNetDevice>();
    Ptr<RdmaNetDevice> b = CreateObject<RdmaNetDevice>();

    void SetUp() override
    {
        Ptr<RdmaChannel> ch = CreateObject<RdmaChannel>();
        for (const Ptr<RdmaNetDevice>& dev : {a, b})
        {
            CreateObject<Node>()->AddDevice(dev);
            dev->Attach(ch);
        }
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    Ptr<RdmaFrame> Data(uint32_t psn) const
    {
        RdmaHeader h;
        h.type = RdmaPacketType::DATA;
        h.priority = 3;
        h.src = a->GetNode()->GetId();
        h.dst = b->GetNode()->GetId();
        h.psn = psn;
        h.payload = 512;
        return RdmaFrame::Make(h);
    }
};
} // namespace

TEST_F(PortQueue, HoldsOneReferencePerQueuedFrameAndHandsItOver)
{
    // The first frame goes on the wire at once; the others wait behind it.
    std::vector<Ptr<RdmaFrame>> frames;
    for (uint32_t psn = 0; psn < 4; ++psn)
    {
        frames.push_back(Data(psn));
        a->Enqueue(frames.back(), 3);
    }
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
    std::vector<Ptr<RdmaFrame>> frames;
    for (uint32_t psn = 0; psn < 5; ++psn)
    {
        frames.push_back(Data(psn));
        a->Enqueue(frames.back(), 3);
    }
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
    std::vector<Ptr<RdmaFrame>> frames;
    for (uint32_t psn = 0; psn < 20; ++psn)
    {
        frames.push_back(Data(psn));
        a->Enqueue(frames.back(), 3);
    }
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
