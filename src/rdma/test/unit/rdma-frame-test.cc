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
            f->header.AppendIntHop(record);
            f->HeaderChanged(before);
        }
        RdmaHeader edited = IntData(1000);
        edited.ecn = RdmaHeader::CE;
        edited.AppendIntHop(0x1111);
        edited.AppendIntHop(0x2222);
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

TEST(RdmaFrame, ARecycledFrameIsAsBlankAsANewOne)
{
    // A frame with every field set, INT records and a Packet, then dropped: the next
    // frame made reuses it (the same slot), and must show nothing of it.
    RdmaFrame* old;
    {
        Ptr<RdmaFrame> f = RdmaFrame::MakeBlank();
        f->header = IntData(700);
        f->header.flags |= RdmaHeader::FLAG_LAST | RdmaHeader::FLAG_ECN_ECHO;
        f->header.sport = 50000;
        f->header.dport = 1;
        f->header.quanta = 7;
        f->header.dstQpn = 5;
        f->header.sackPsn = 41;
        f->header.remoteDelayNs = 99;
        f->header.AppendIntHop(0x1234);
        f->header.AppendIntHop(0x5678);
        f->Sized();
        f->meta = 17;
        ASSERT_GT(f->GetPacket()->GetSize(), 700u);
        old = PeekPointer(f);
    }
    Ptr<RdmaFrame> f = RdmaFrame::MakeBlank();
    ASSERT_EQ(PeekPointer(f), old) << "the dropped frame is reused first";
    const RdmaHeader fresh;
    const RdmaHeader& h = f->header;
    EXPECT_EQ(h.type, fresh.type);
    EXPECT_EQ(h.priority, fresh.priority);
    EXPECT_EQ(h.ecn, fresh.ecn);
    EXPECT_EQ(h.flags, fresh.flags);
    EXPECT_EQ(h.intHops, fresh.intHops);
    EXPECT_EQ(h.sport, fresh.sport);
    EXPECT_EQ(h.dport, fresh.dport);
    EXPECT_EQ(h.quanta, fresh.quanta);
    EXPECT_EQ(h.src, fresh.src);
    EXPECT_EQ(h.dst, fresh.dst);
    EXPECT_EQ(h.dstQpn, fresh.dstQpn);
    EXPECT_EQ(h.psn, fresh.psn);
    EXPECT_EQ(h.payload, fresh.payload);
    EXPECT_EQ(h.sackPsn, fresh.sackPsn);
    EXPECT_EQ(h.remoteDelayNs, fresh.remoteDelayNs);
    EXPECT_EQ(h.timestamp, fresh.timestamp);
    EXPECT_EQ(h.intStack, fresh.intStack);
    EXPECT_EQ(f->GetSize(), 0u);
    EXPECT_EQ(f->meta, 0u);
    // Its Packet is built from its own header again, not the old frame's.
    f->header = IntData(100);
    f->Sized();
    EXPECT_EQ(Bytes(f->GetPacket()), Bytes(CreateRdmaFrame(f->header)));
    EXPECT_EQ(f->GetPacket()->GetSize(), f->GetSize());
    // And one frame held while another is made is never handed out twice.
    Ptr<RdmaFrame> g = RdmaFrame::Make(IntData(200));
    EXPECT_NE(PeekPointer(g), PeekPointer(f));
    EXPECT_EQ(f->header.payload, 100u);
}

TEST(RdmaFrame, HeaderBytesCrossRanksLosingNoField)
{
    // A link between MPI ranks (the rdma engine) carries a frame as its header's wire
    // bytes: the frame made of them must have every field, the size and the wire image
    // of the one sent, for each kind of frame.
    RdmaHeader data = IntData(1000);
    data.ecn = RdmaHeader::CE;
    data.intHops = 2;
    data.intStack[0] = 0x1234567890abcdefULL;
    data.intStack[1] = 42;
    data.sport = 49999;
    data.dstQpn = 17;
    RdmaHeader ack;
    ack.type = RdmaPacketType::ACK;
    ack.psn = 99;
    ack.sackPsn = 101;
    ack.remoteDelayNs = 250;
    ack.timestamp = 777;
    ack.flags = RdmaHeader::FLAG_ECN_ECHO;
    RdmaHeader pfc;
    pfc.type = RdmaPacketType::PFC;
    pfc.priority = 3;
    pfc.quanta = 0xffff;
    RdmaHeader cnp;
    cnp.type = RdmaPacketType::CNP;
    cnp.dstQpn = 5;
    for (const RdmaHeader& h : {data, ack, pfc, cnp})
    {
        Ptr<RdmaFrame> sent = RdmaFrame::Make(h);
        std::vector<uint8_t> wire;
        sent->AppendHeaderBytes(wire);
        Ptr<RdmaFrame> got = RdmaFrame::FromHeaderBytes(wire.data(), wire.size());
        const RdmaHeader& g = got->header;
        EXPECT_EQ(g.type, h.type);
        EXPECT_EQ(g.priority, h.priority);
        EXPECT_EQ(g.ecn, h.ecn);
        EXPECT_EQ(g.flags, h.flags);
        EXPECT_EQ(g.intHops, h.intHops);
        EXPECT_EQ(g.sport, h.sport);
        EXPECT_EQ(g.dport, h.dport);
        EXPECT_EQ(g.quanta, h.quanta);
        EXPECT_EQ(g.src, h.src);
        EXPECT_EQ(g.dst, h.dst);
        EXPECT_EQ(g.dstQpn, h.dstQpn);
        EXPECT_EQ(g.psn, h.psn);
        EXPECT_EQ(g.payload, h.payload);
        EXPECT_EQ(g.sackPsn, h.sackPsn);
        EXPECT_EQ(g.remoteDelayNs, h.remoteDelayNs);
        EXPECT_EQ(g.timestamp, h.timestamp);
        for (uint8_t i = 0; i < h.intHops; ++i)
        {
            EXPECT_EQ(g.intStack[i], h.intStack[i]);
        }
        EXPECT_EQ(got->GetSize(), sent->GetSize());
        EXPECT_EQ(Bytes(got->GetPacket()), Bytes(sent->GetPacket()));
    }
}
