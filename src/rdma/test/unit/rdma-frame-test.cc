/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaFrame: the header is the truth and the Packet, built on demand or kept in step
 * after an edit, holds exactly the bytes CreateRdmaFrame makes of that header.
 */
#include "ns3/rdma-frame.h"
#include "ns3/rdma-header.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{
std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

RdmaHeader
IntData(uint32_t payload)
{
    RdmaHeader h;
    h.type = RdmaPacketType::DATA;
    h.priority = 3;
    h.ecn = RdmaHeader::ECT0;
    h.flags = RdmaHeader::FLAG_INT;
    h.src = 1;
    h.dst = 9;
    h.psn = 42;
    h.payload = payload;
    h.timestamp = 123456;
    return h;
}
} // namespace

TEST(RdmaFrame, SizeIsTheFrameBytesWithoutBuildingAPacket)
{
    for (uint32_t payload : {0u, 1u, 1000u, 4096u})
    {
        RdmaHeader h = IntData(payload);
        Ptr<RdmaFrame> f = RdmaFrame::Make(h);
        EXPECT_EQ(f->GetSize(), CreateRdmaFrame(h)->GetSize()) << payload;
    }
    RdmaHeader ack;
    ack.type = RdmaPacketType::ACK;
    EXPECT_EQ(RdmaFrame::Make(ack)->GetSize(), CreateRdmaFrame(ack)->GetSize());
}

TEST(RdmaFrame, FilledInPlaceIsTheFrameOfItsHeader)
{
    // A NIC's way: a blank frame, its header filled in place, then sized. Same size and
    // bytes as a frame made from the same header (DATA with INT, an ACK, a CNP).
    RdmaHeader ack;
    ack.type = RdmaPacketType::ACK;
    ack.psn = 7;
    RdmaHeader cnp;
    cnp.type = RdmaPacketType::CNP;
    for (const RdmaHeader& h : {IntData(0), IntData(1000), IntData(4096), ack, cnp})
    {
        Ptr<RdmaFrame> f = RdmaFrame::MakeBlank();
        f->header = h;
        f->Sized();
        EXPECT_EQ(f->GetSize(), CreateRdmaFrame(h)->GetSize()) << h.payload;
        EXPECT_EQ(Bytes(f->GetPacket()), Bytes(CreateRdmaFrame(h))) << h.payload;
    }
}

TEST(RdmaFrame, EditedHeaderGivesTheBytesOfTheEditedFrame)
{
    // Edited before anyone asked for the packet, and after: the same bytes either way,
    // those of a frame made from the edited header (ECN CE, two INT records).
    for (bool packetFirst : {false, true})
    {
        Ptr<RdmaFrame> f = RdmaFrame::Make(IntData(1000));
        if (packetFirst)
        {
            EXPECT_EQ(Bytes(f->GetPacket()), Bytes(CreateRdmaFrame(IntData(1000))));
        }
        for (uint64_t record : {0x1111ull, 0x2222ull})
        {
            const uint32_t before = f->header.GetSerializedSize();
            f->header.ecn = RdmaHeader::CE;
            f->header.PushIntHop(record);
            f->HeaderChanged(before);
        }
        RdmaHeader edited = IntData(1000);
        edited.ecn = RdmaHeader::CE;
        edited.PushIntHop(0x1111);
        edited.PushIntHop(0x2222);
        Ptr<Packet> expected = CreateRdmaFrame(edited);
        EXPECT_EQ(f->GetSize(), expected->GetSize()) << "packet first: " << packetFirst;
        EXPECT_EQ(Bytes(f->GetPacket()), Bytes(expected)) << "packet first: " << packetFirst;
        RdmaHeader parsed;
        f->GetPacket()->PeekHeader(parsed);
        EXPECT_EQ(parsed.ecn, RdmaHeader::CE);
        EXPECT_EQ(parsed.intHops, 2u);
    }
}

TEST(RdmaFrame, FromPacketKeepsThePacketAndParsesItsHeader)
{
    Ptr<Packet> p = CreateRdmaFrame(IntData(512));
    Ptr<RdmaFrame> f = RdmaFrame::FromPacket(p);
    EXPECT_EQ(PeekPointer(f->GetPacket()), PeekPointer(p));
    EXPECT_EQ(f->GetSize(), p->GetSize());
    EXPECT_EQ(f->header.psn, 42u);
    EXPECT_EQ(f->header.payload, 512u);
}
