/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rocewire::Render: the bytes of a frame as on a real RoCEv2 link, read back here field
 * by field at the offsets of the standards (Ethernet II, IPv4, UDP, InfiniBand BTH and
 * AETH, IEEE 802.1Qbb PFC), independently of the code that wrote them.
 */
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-frame.h"
#include "ns3/rdma-net-device.h"
#include "ns3/roce-wire-image.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{
const Mac48Address kSrc("02:00:00:00:00:0a");
const Mac48Address kDst("02:00:00:00:00:0b");
constexpr std::size_t kIp = 14;    // IPv4 header offset
constexpr std::size_t kUdp = 34;   // UDP header offset
constexpr std::size_t kBth = 42;   // BTH offset
constexpr std::size_t kAfter = 54; // first byte after the BTH

uint32_t
Be(const std::vector<uint8_t>& b, std::size_t at, int bytes)
{
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
    {
        v = (v << 8) | b.at(at + i);
    }
    return v;
}

RdmaHeader
Data(uint32_t payload)
{
    RdmaHeader h;
    h.type = RdmaPacketType::DATA;
    h.priority = 3;
    h.ecn = RdmaHeader::CE;
    h.flags = RdmaHeader::FLAG_ACK_REQUEST | RdmaHeader::FLAG_LAST;
    h.src = 5;
    h.dst = 300;
    h.sport = 49999;
    h.dstQpn = 0x123456;
    h.psn = 0x1abcdef; // more than 24 bits: the BTH keeps the low 24
    h.payload = payload;
    return h;
}

std::vector<uint8_t>
Render(const RdmaHeader& h)
{
    std::vector<uint8_t> b;
    rocewire::Render(h, RdmaFrame(h).GetSize(), kSrc, kDst, b);
    return b;
}
} // namespace

TEST(RoceWireImage, DataFrameHasEthernetIpv4UdpAndBth)
{
    const RdmaHeader h = Data(1000);
    const std::vector<uint8_t> b = Render(h);
    ASSERT_EQ(b.size(), RdmaFrame(h).GetSize() - 4u) << "the frame without its FCS";
    uint8_t mac[6];
    kDst.CopyTo(mac);
    EXPECT_TRUE(std::equal(mac, mac + 6, b.begin()));
    kSrc.CopyTo(mac);
    EXPECT_TRUE(std::equal(mac, mac + 6, b.begin() + 6));
    EXPECT_EQ(Be(b, 12, 2), 0x0800u);
    // IPv4: version 4, 20 bytes, DSCP = class, ECN = CE, lengths, UDP, addresses.
    EXPECT_EQ(b[kIp], 0x45);
    EXPECT_EQ(b[kIp + 1] & 3, RdmaHeader::CE);
    EXPECT_EQ(b[kIp + 1] >> 2, 3);
    EXPECT_EQ(Be(b, kIp + 2, 2), b.size() - 14);
    EXPECT_EQ(b[kIp + 9], 17);
    EXPECT_EQ(Be(b, kIp + 12, 4), (10u << 24) + 5);
    EXPECT_EQ(Be(b, kIp + 16, 4), (10u << 24) + 300);
    uint32_t sum = 0;
    for (std::size_t i = kIp; i < kIp + 20; i += 2)
    {
        sum += Be(b, i, 2);
    }
    sum = (sum & 0xffff) + (sum >> 16);
    EXPECT_EQ(sum, 0xffffu) << "the IPv4 header checksum verifies";
    // UDP to the RoCEv2 port.
    EXPECT_EQ(Be(b, kUdp, 2), 49999u);
    EXPECT_EQ(Be(b, kUdp + 2, 2), 4791u);
    EXPECT_EQ(Be(b, kUdp + 4, 2), b.size() - 34);
    // BTH: RC SEND last, P_Key, destination QP, AckReq, PSN (24 bits).
    EXPECT_EQ(b[kBth], 0x02);
    EXPECT_EQ(Be(b, kBth + 2, 2), 0xffffu);
    EXPECT_EQ(Be(b, kBth + 5, 3), 0x123456u);
    EXPECT_EQ(b[kBth + 8], 0x80);
    EXPECT_EQ(Be(b, kBth + 9, 3), 0xabcdefu);
    // Payload and ICRC are zeros.
    EXPECT_TRUE(std::all_of(b.begin() + kAfter, b.end(), [](uint8_t x) { return x == 0; }));
}

TEST(RoceWireImage, SendOpcodeIsThePacketsPlaceInItsMessage)
{
    // IBTA RC opcodes: SEND First 0x00, Middle 0x01, Last 0x02, Only 0x04; a NIC sends a
    // message of one packet as Only, of more as First, Middle..., Last.
    struct Case
    {
        uint8_t flags;
        uint8_t opcode;
        const char* name;
    };

    const Case cases[] = {
        {RdmaHeader::FLAG_FIRST, 0x00, "First"},
        {0, 0x01, "Middle"},
        {RdmaHeader::FLAG_LAST, 0x02, "Last"},
        {RdmaHeader::FLAG_FIRST | RdmaHeader::FLAG_LAST, 0x04, "Only"},
    };
    for (const Case& c : cases)
    {
        RdmaHeader h = Data(64);
        h.flags = c.flags;
        h.ecn = RdmaHeader::NOT_ECT;
        const std::vector<uint8_t> b = Render(h);
        EXPECT_EQ(b[kBth], c.opcode) << "RC SEND " << c.name;
        EXPECT_EQ(b[kIp + 1] & 3, 0);
        EXPECT_EQ(b[kBth + 8], 0) << "no AckReq, no INT: FLAG_FIRST is not a BTH bit";
        EXPECT_EQ(b.size(), RdmaFrame(Data(64)).GetSize() - 4u) << "the flag adds no byte";
    }
}

TEST(RoceWireImage, AckAndNackCarryAnAeth)
{
    RdmaHeader ack;
    ack.type = RdmaPacketType::ACK;
    ack.flags = RdmaHeader::FLAG_ECN_ECHO;
    ack.psn = 77;
    std::vector<uint8_t> b = Render(ack);
    EXPECT_EQ(b[kBth], 0x11) << "RC ACKNOWLEDGE";
    EXPECT_EQ(b[kBth + 4] & 0x40, 0x40) << "BECN: the acknowledged packet was CE-marked";
    EXPECT_EQ(Be(b, kBth + 9, 3), 77u);
    EXPECT_EQ(b[kAfter], 0x1f) << "AETH syndrome: ACK";

    RdmaHeader nack = ack;
    nack.type = RdmaPacketType::NACK;
    nack.flags = RdmaHeader::FLAG_CNP;
    nack.sackPsn = 81;
    b = Render(nack);
    EXPECT_EQ(b[kBth], 0x11);
    EXPECT_EQ(b[kBth + 4] & 0x40, 0) << "no ECN echo";
    EXPECT_EQ(b[kBth + 8] & rocewire::kBthCnpNack, rocewire::kBthCnpNack);
    EXPECT_EQ(b[kAfter], 0x60) << "AETH syndrome: NAK, PSN sequence error";
    EXPECT_EQ(Be(b, kAfter + 1, 3), 81u) << "MSN: the PSN that arrived out of order";
}

TEST(RoceWireImage, CnpOpcodeWithBecn)
{
    RdmaHeader cnp;
    cnp.type = RdmaPacketType::CNP;
    cnp.dstQpn = 9;
    const std::vector<uint8_t> b = Render(cnp);
    EXPECT_EQ(b[kBth], 0x81);
    EXPECT_EQ(b[kBth + 4] & 0xc0, 0x40) << "RoCEv2 CNP: BECN set, FECN clear";
    EXPECT_EQ(Be(b, kBth + 5, 3), 9u);
}

TEST(RoceWireImage, IntStackFollowsTheBth)
{
    RdmaHeader h = Data(100);
    h.flags |= RdmaHeader::FLAG_INT;
    h.AppendIntHop(0x1122334455667788ULL);
    h.AppendIntHop(0x99aabbccddeeff00ULL);
    const std::vector<uint8_t> b = Render(h);
    ASSERT_EQ(b.size(), RdmaFrame(h).GetSize() - 4u);
    EXPECT_EQ(b[kBth + 8] & rocewire::kIntStackPresent, rocewire::kIntStackPresent);
    EXPECT_EQ(Be(b, kAfter, 2), 2u);
    EXPECT_EQ(Be(b, kAfter + 2, 4), 0x11223344u);
    EXPECT_EQ(Be(b, kAfter + 6, 4), 0x55667788u);
    EXPECT_EQ(Be(b, kAfter + 10, 4), 0x99aabbccu);
}

TEST(RoceWireImage, PfcIsAMacControlFrameWithPerClassQuanta)
{
    RdmaHeader h;
    h.type = RdmaPacketType::PFC;
    h.priority = 3;
    h.quanta = 0xffff;
    const std::vector<uint8_t> b = Render(h);
    ASSERT_EQ(b.size(), 60u) << "a minimum frame without FCS";
    const std::vector<uint8_t> dst = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
    EXPECT_TRUE(std::equal(dst.begin(), dst.end(), b.begin()));
    EXPECT_EQ(Be(b, 12, 2), 0x8808u);
    EXPECT_EQ(Be(b, 14, 2), 0x0101u);
    EXPECT_EQ(Be(b, 16, 2), 1u << 3) << "class-enable vector";
    for (uint32_t c = 0; c < 8; ++c)
    {
        EXPECT_EQ(Be(b, 18 + 2 * c, 2), c == 3 ? 0xffffu : 0u) << "class " << c;
    }
    h.quanta = 0;
    EXPECT_EQ(Be(Render(h), 18 + 6, 2), 0u) << "resume: quanta 0";
}

TEST(RoceWireImage, SnifferSeesTheSameBytesAtBothEndsOfALink)
{
    Ptr<RdmaNetDevice> a = CreateObject<RdmaNetDevice>();
    Ptr<RdmaNetDevice> b = CreateObject<RdmaNetDevice>();
    Ptr<RdmaChannel> ch = CreateObject<RdmaChannel>();
    for (const Ptr<RdmaNetDevice>& dev : {a, b})
    {
        CreateObject<Node>()->AddDevice(dev);
        dev->Attach(ch);
    }
    std::vector<std::vector<uint8_t>> sentByA;
    std::vector<std::vector<uint8_t>> seenByB;
    auto keep = [](std::vector<std::vector<uint8_t>>* v, Ptr<const Packet> p) {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        v->push_back(bytes);
    };
    a->TraceConnectWithoutContext("Sniffer", MakeBoundCallback(+keep, &sentByA));
    b->TraceConnectWithoutContext("Sniffer", MakeBoundCallback(+keep, &seenByB));
    a->Enqueue(RdmaFrame::Make(Data(512)), 3);
    a->SendPfc(3, 100);
    Simulator::Run();
    Simulator::Destroy();
    ASSERT_EQ(sentByA.size(), 2u);
    ASSERT_EQ(seenByB.size(), 2u);
    // The data frame (the port was idle), then the PFC frame; the same bytes at both
    // ends; A's MAC is the source, B's the destination of the data frame.
    EXPECT_EQ(Be(sentByA[0], 12, 2), 0x0800u);
    EXPECT_EQ(Be(sentByA[1], 12, 2), 0x8808u);
    EXPECT_EQ(sentByA, seenByB);
    uint8_t mac[6];
    Mac48Address::ConvertFrom(b->GetAddress()).CopyTo(mac);
    EXPECT_TRUE(std::equal(mac, mac + 6, sentByA[0].begin()));
    Mac48Address::ConvertFrom(a->GetAddress()).CopyTo(mac);
    EXPECT_TRUE(std::equal(mac, mac + 6, sentByA[0].begin() + 6));
    EXPECT_TRUE(std::equal(mac, mac + 6, sentByA[1].begin() + 6)) << "PFC source: A";
}
