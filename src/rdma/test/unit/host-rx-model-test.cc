/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HostRxModel: the host takes delivered payload one packet after the other at its rate,
 * then holds each packet Delay more; its answer leaves when the host is done. The hold
 * time travels in the ACK header (RdmaHeader::remoteDelayNs) through serialization.
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

Ptr<HostRxModel>
Host(const std::string& rate, Time delay)
{
    Ptr<HostRxModel> h = CreateObject<HostRxModel>();
    h->SetAttribute("Rate", DataRateValue(DataRate(rate)));
    h->SetAttribute("Delay", TimeValue(delay));
    return h;
}

} // namespace

TEST(HostRxModel, BackToBackPacketsAreTakenOneAfterTheOtherAtTheRate)
{
    // 1,000 bytes at 8 Gb/s take 1 us; three arriving together finish 1, 2 and 3 us
    // later, each then held the 500 ns processing delay.
    Ptr<HostRxModel> h = Host("8Gbps", NanoSeconds(500));
    EXPECT_EQ(h->Admit(1000, Time(0)), NanoSeconds(1500));
    EXPECT_EQ(h->Admit(1000, Time(0)), NanoSeconds(2500));
    EXPECT_EQ(h->Admit(1000, Time(0)), NanoSeconds(3500));
    EXPECT_EQ(h->GetPackets(), 3u);
    EXPECT_EQ(h->GetMaxDelay(), NanoSeconds(3500));
    EXPECT_EQ(h->GetTotalDelay(), NanoSeconds(1500 + 2500 + 3500));
}

TEST(HostRxModel, AnIdleHostStartsAtTheArrival)
{
    Ptr<HostRxModel> h = Host("8Gbps", Time(0));
    EXPECT_EQ(h->Admit(1000, Time(0)), MicroSeconds(1));
    // Arrives after the host went idle: no wait for the earlier packet.
    EXPECT_EQ(h->Admit(1000, MicroSeconds(5)), MicroSeconds(6));
    EXPECT_EQ(h->GetMaxDelay(), MicroSeconds(1));
}

TEST(HostRxModel, APacketWithNothingDeliveredWaitsItsTurnButTakesNoTime)
{
    // A duplicate (0 bytes delivered) is answered after the packets ahead of it, in order.
    Ptr<HostRxModel> h = Host("8Gbps", NanoSeconds(100));
    EXPECT_EQ(h->Admit(2000, Time(0)), NanoSeconds(2100));
    EXPECT_EQ(h->Admit(0, Time(0)), NanoSeconds(2100));
}

TEST(HostRxModel, NoRateLimitIsAPureDelay)
{
    Ptr<HostRxModel> h = Host("0bps", MicroSeconds(3));
    EXPECT_EQ(h->Admit(1000000, Time(0)), MicroSeconds(3));
    EXPECT_EQ(h->Admit(1000000, Time(0)), MicroSeconds(3));
}

TEST(HostRxModel, TheHoldTimeCrossesTheWireInTheAck)
{
    RdmaHeader ack;
    ack.type = RdmaPacketType::ACK;
    ack.remoteDelayNs = 12345;
    Ptr<Packet> p = CreateRdmaFrame(ack);
    RdmaHeader back;
    p->RemoveHeader(back);
    EXPECT_EQ(back.remoteDelayNs, 12345u);
    // The field lives in the header's room: an ACK is as long as without it.
    EXPECT_EQ(p->GetSize() + back.GetSerializedSize(),
              rdmawire::FrameBytes(RdmaPacketType::ACK, 0));
}
