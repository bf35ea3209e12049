/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ByteLedger::Facts reads a frame's header fields from its first bytes, in the layout of
 * RdmaHeader::Serialize: it must agree with RdmaHeader for every frame type (this test
 * fails if the header's layout changes without it).
 */
#include "ns3/byte-ledger.h"
#include "ns3/rdma-header.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(FrameFacts, AgreeWithTheHeaderForEveryFrameType)
{
    for (const RdmaPacketType type : {RdmaPacketType::DATA,
                                      RdmaPacketType::ACK,
                                      RdmaPacketType::NACK,
                                      RdmaPacketType::CNP,
                                      RdmaPacketType::PFC,
                                      RdmaPacketType::PROBE,
                                      RdmaPacketType::PROBE_RESP})
    {
        RdmaHeader h;
        h.type = type;
        h.priority = 3;
        h.flags = RdmaHeader::FLAG_INT | RdmaHeader::FLAG_LAST;
        h.src = 0x01020304;
        h.dst = 0x0a0b0c0d;
        h.dstQpn = 0x00abcdef;
        h.psn = 0x7fff1234;
        h.payload = type == RdmaPacketType::DATA ? 1000 : 0;
        h.timestamp = 0x1122334455667788ULL;
        h.PushIntHop(42);
        h.PushIntHop(43);
        Ptr<Packet> p = CreateRdmaFrame(h);
        RdmaHeader back;
        p->PeekHeader(back);
        const ByteLedger::Facts f = ByteLedger::Facts::Of(p);
        EXPECT_EQ(f.type, back.type);
        EXPECT_EQ(f.flags, back.flags);
        EXPECT_EQ(f.dstQpn, back.dstQpn);
        EXPECT_EQ(f.psn, back.psn);
        EXPECT_EQ(f.payload, back.payload);
        EXPECT_EQ(f.intHops, back.intHops);
    }
}
