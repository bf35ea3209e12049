/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the RoCEv2 frame sizes (rdma-wire.h) and of RdmaHeader.
 *
 * Specification (docs/design.md, "Wire format"; RoCEv2 / IEEE 802.3 / 802.1Qbb):
 *   Ethernet header 14 (dst MAC 6, src MAC 6, EtherType 2), IPv4 header 20 (no options),
 *   UDP header 8, InfiniBand Base Transport Header 12, ICRC 4, Ethernet FCS 4.
 *   - DATA frame  = 14 + 20 + 8 + 12 + payload + 4 + 4 = payload + 62
 *   - ACK / NACK  = DATA header stack + AETH 4, no payload: 62 + 4 = 66
 *   - CNP         = DATA header stack + 16 reserved bytes, no payload: 62 + 16 = 78
 *   - PFC         = minimum Ethernet frame, FCS included: 64
 *   On the link every frame also takes preamble 7 + SFD 1 + inter-frame gap 12 = 20 bytes.
 */

#include "ns3/core-module.h"
#include "ns3/packet.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-wire.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;
using namespace ns3::rdmawire;

namespace
{

// Hand-computed sizes from the specification above (not from the code's constants).
constexpr uint32_t kSpecDataOverhead = 14 + 20 + 8 + 12 + 4 + 4;  // = 62
constexpr uint32_t kSpecAckFrame = 14 + 20 + 8 + 12 + 4 + 4 + 4;  // = 66
constexpr uint32_t kSpecCnpFrame = 14 + 20 + 8 + 12 + 16 + 4 + 4; // = 78
constexpr uint32_t kSpecPfcFrame = 64;
constexpr uint32_t kSpecPreambleIfg = 7 + 1 + 12; // = 20

static_assert(kSpecDataOverhead == 62, "hand arithmetic");
static_assert(kSpecAckFrame == 66, "hand arithmetic");
static_assert(kSpecCnpFrame == 78, "hand arithmetic");
static_assert(kSpecPreambleIfg == 20, "hand arithmetic");

const std::vector<uint32_t> kPayloads = {0, 1, 64, 1000, 1024, 1500, 4096, 9000};

} // namespace

// Rule: a DATA frame is payload + 62 bytes (Eth 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4).
TEST(RdmaWire, DataFrameIsPayloadPlus62)
{
    EXPECT_EQ(FrameBytes(RdmaPacketType::DATA, 0), 62u);
    EXPECT_EQ(FrameBytes(RdmaPacketType::DATA, 1024), 1086u); // 1024 + 62
    EXPECT_EQ(FrameBytes(RdmaPacketType::DATA, 1000), 1062u); // 1000 + 62
    for (uint32_t p : kPayloads)
    {
        EXPECT_EQ(FrameBytes(RdmaPacketType::DATA, p), p + kSpecDataOverhead) << "payload " << p;
    }
}

// Rule: on the wire each frame takes 20 more bytes (preamble 7 + SFD 1 + IFG 12).
TEST(RdmaWire, WireBytesAddPreambleAndIfg)
{
    EXPECT_EQ(WireBytes(RdmaPacketType::DATA, 1024), 1106u); // 1024 + 62 + 20
    EXPECT_EQ(WireBytes(RdmaPacketType::ACK, 0), 86u);       // 66 + 20
    EXPECT_EQ(WireBytes(RdmaPacketType::CNP, 0), 98u);       // 78 + 20
    EXPECT_EQ(WireBytes(RdmaPacketType::PFC, 0), 84u);       // 64 + 20
    for (uint32_t p : kPayloads)
    {
        EXPECT_EQ(WireBytes(RdmaPacketType::DATA, p), p + kSpecDataOverhead + kSpecPreambleIfg);
    }
    // Per-packet overhead of a data packet on the link: 62 + 20 = 82.
    EXPECT_EQ(kDataOverheadBytes, 82u);
}

// Rule: ACK and NACK frames are 66 bytes (header stack + AETH 4 + ICRC + FCS).
TEST(RdmaWire, AckAndNackFramesAre66)
{
    EXPECT_EQ(FrameBytes(RdmaPacketType::ACK, 0), kSpecAckFrame);
    EXPECT_EQ(FrameBytes(RdmaPacketType::NACK, 0), kSpecAckFrame);
}

// Rule: a CNP is 78 bytes (header stack + 16 reserved + ICRC + FCS).
TEST(RdmaWire, CnpFrameIs78)
{
    EXPECT_EQ(FrameBytes(RdmaPacketType::CNP, 0), kSpecCnpFrame);
}

// Rule: a PFC frame is a minimum-size Ethernet frame, 64 bytes including its FCS.
TEST(RdmaWire, PfcFrameIs64)
{
    EXPECT_EQ(FrameBytes(RdmaPacketType::PFC, 0), kSpecPfcFrame);
    // 60 bytes of header/padding + FCS 4; no ICRC (not a RoCE frame).
    EXPECT_EQ(TrailerBytes(RdmaPacketType::PFC), 4u);
    EXPECT_EQ(HeaderBytes(RdmaPacketType::PFC), 60u);
}

// Rule: RoCEv2 runs over UDP destination port 4791 (IANA).
TEST(RdmaWire, RoceUdpPortIs4791)
{
    EXPECT_EQ(kRoceUdpPort, 4791);
    RdmaHeader h;
    EXPECT_EQ(h.dport, 4791);
}

// Rule: the header's serialized size is the real header stack of its type, so that
// CreateRdmaFrame(h)->GetSize() equals FrameBytes(type, payload).
TEST(RdmaHeaderTest, CreateRdmaFrameSizeEqualsFrameBytes)
{
    for (uint32_t p : kPayloads)
    {
        RdmaHeader h;
        h.type = RdmaPacketType::DATA;
        h.payload = p;
        EXPECT_EQ(CreateRdmaFrame(h)->GetSize(), p + kSpecDataOverhead) << "payload " << p;
    }

    struct Case
    {
        RdmaPacketType type;
        uint32_t expected;
    };

    for (const Case& c : {Case{RdmaPacketType::ACK, kSpecAckFrame},
                          Case{RdmaPacketType::NACK, kSpecAckFrame},
                          Case{RdmaPacketType::CNP, kSpecCnpFrame},
                          Case{RdmaPacketType::PFC, kSpecPfcFrame}})
    {
        RdmaHeader h;
        h.type = c.type;
        h.payload = 0;
        EXPECT_EQ(CreateRdmaFrame(h)->GetSize(), c.expected) << "type " << int(c.type);
        EXPECT_EQ(h.GetSerializedSize() + TrailerBytes(c.type), c.expected);
    }
}

namespace
{

RdmaHeader
MakeDistinctiveHeader(RdmaPacketType type)
{
    // Every field non-default and with distinct bytes, so a swapped or truncated field shows.
    RdmaHeader h;
    h.type = type;
    h.priority = 5;
    h.ecn = RdmaHeader::CE;
    h.flags = RdmaHeader::FLAG_ACK_REQUEST | RdmaHeader::FLAG_LAST | RdmaHeader::FLAG_FIRST;
    h.src = 0x01020304;
    h.dst = 0xA0B0C0D0;
    h.sport = 0xBEEF;
    h.dport = 0x12B7; // 4791
    h.dstQpn = 0x00FEDCBA;
    h.psn = 0x00ABCDEF;
    h.payload = type == RdmaPacketType::DATA ? 1234 : 0;
    h.quanta = 0xFFFF;
    return h;
}

void
ExpectSameFields(const RdmaHeader& a, const RdmaHeader& b)
{
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.priority, b.priority);
    EXPECT_EQ(a.ecn, b.ecn);
    EXPECT_EQ(a.flags, b.flags);
    EXPECT_EQ(a.src, b.src);
    EXPECT_EQ(a.dst, b.dst);
    EXPECT_EQ(a.sport, b.sport);
    EXPECT_EQ(a.dport, b.dport);
    EXPECT_EQ(a.dstQpn, b.dstQpn);
    EXPECT_EQ(a.psn, b.psn);
    EXPECT_EQ(a.payload, b.payload);
    EXPECT_EQ(a.quanta, b.quanta);
}

} // namespace

// Rule: Serialize then Deserialize (through a Packet) keeps every field, for every type,
// consumes exactly the header stack and leaves payload + trailer in the packet.
TEST(RdmaHeaderTest, SerializeDeserializeRoundTripKeepsEveryField)
{
    for (RdmaPacketType type : {RdmaPacketType::DATA,
                                RdmaPacketType::ACK,
                                RdmaPacketType::NACK,
                                RdmaPacketType::CNP,
                                RdmaPacketType::PFC})
    {
        const RdmaHeader sent = MakeDistinctiveHeader(type);
        Ptr<Packet> p = CreateRdmaFrame(sent);
        const uint32_t frame = p->GetSize();

        RdmaHeader peeked;
        EXPECT_EQ(p->PeekHeader(peeked), HeaderBytes(type));
        ExpectSameFields(sent, peeked);

        RdmaHeader received; // defaults differ from every field of `sent`
        const uint32_t removed = p->RemoveHeader(received);
        EXPECT_EQ(removed, HeaderBytes(type)) << "type " << int(type);
        ExpectSameFields(sent, received);
        EXPECT_EQ(p->GetSize(), frame - HeaderBytes(type));
        EXPECT_EQ(p->GetSize(), sent.payload + TrailerBytes(type));
    }
}

// Rule: the round trip also works on a raw Buffer (Serialize writes exactly
// GetSerializedSize() bytes, Deserialize reads them back).
TEST(RdmaHeaderTest, BufferRoundTrip)
{
    const RdmaHeader sent = MakeDistinctiveHeader(RdmaPacketType::CNP);
    Buffer buf;
    buf.AddAtStart(sent.GetSerializedSize());
    sent.Serialize(buf.Begin());
    RdmaHeader got;
    EXPECT_EQ(got.Deserialize(buf.Begin()), 70u); // 14 + 20 + 8 + 12 + 16
    ExpectSameFields(sent, got);
}

// Rule: an extreme payload (jumbo 9000) and max PSN survive the round trip unchanged.
TEST(RdmaHeaderTest, RoundTripExtremeValues)
{
    RdmaHeader h;
    h.type = RdmaPacketType::DATA;
    h.payload = 9000;
    h.psn = 0xFFFFFFFF;
    h.src = 0xFFFFFFFF;
    h.dst = 0;
    h.sport = 0;
    h.dstQpn = 0xFFFFFFFF;
    Ptr<Packet> p = CreateRdmaFrame(h);
    EXPECT_EQ(p->GetSize(), 9000u + 62u);
    RdmaHeader got;
    p->RemoveHeader(got);
    ExpectSameFields(h, got);
}
