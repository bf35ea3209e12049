/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of packet trimming at an RdmaSwitch (PacketTrimmer), on a line of bare
 * ports: sender - switch - receiver, links of 1 us at 100 Gb/s, PFC off, the static
 * buffer policy (a fixed limit per egress queue). The receiver pauses the switch's
 * egress data class with a PFC frame so that the queue holds what arrives.
 *  - A DATA frame the buffer refuses is cut to TrimmedBytes (the header, FLAG_TRIMMED,
 *    PSN and QP kept, INT removed) and queued in the trim class, which is served while
 *    the data class waits; it is counted at the egress port (trims, trimsByReason: why
 *    the whole frame was refused) and fires the Trim trace. Nothing is dropped.
 *  - ACK, NACK, CNP frames and frames trimmed already are never trimmed: dropped.
 *  - A trimmed header that does not fit its own queue is dropped whole
 *    (TRIM_HEADER_OVERFLOW).
 */
#include "bare-link.h"

#include "ns3/boolean.h"
#include "ns3/node.h"
#include "ns3/packet-trimmer.h"
#include "ns3/pointer.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"
#include "ns3/static-buffer-policy.h"
#include "ns3/switch-verdict.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t kData = 3;
constexpr uint8_t kTrimClass = 7;
constexpr uint32_t kPayload = 1000;
const uint32_t kFrame = rdmawire::FrameBytes(RdmaPacketType::DATA, kPayload); // 1062

struct Arrival
{
    RdmaHeader h;
    uint32_t size;
};

struct Trim
{
    uint32_t psn;
    uint32_t size;
    uint32_t inPort;
    uint32_t outPort;
    std::string reason;
};

/// sender - switch (port 0 faces the sender, port 1 the receiver) - receiver. The
/// simulator is destroyed with it.
class TrimLine
{
  public:
    /// Each egress queue holds at most \p queueLimit bytes; trimmed frames are
    /// \p trimBytes (0: no trimmer, the switch drops).
    TrimLine(uint64_t queueLimit, uint32_t trimBytes = 64)
    {
        Ptr<Node> srcNode = CreateObject<Node>();
        Ptr<Node> swNode = CreateObject<Node>();
        Ptr<Node> dstNode = CreateObject<Node>();
        sw = CreateObject<RdmaSwitch>();
        swNode->AggregateObject(sw);
        Ptr<SwitchMmu> mmu = sw->GetMmu();
        mmu->SetAttribute("PfcEnabled", BooleanValue(false));
        mmu->SetAttribute("EcnEnabled", BooleanValue(false));
        Ptr<StaticBufferPolicy> policy = CreateObject<StaticBufferPolicy>();
        policy->SetAttribute("QueueLimit", UintegerValue(queueLimit));
        mmu->SetBufferPolicy(policy);
        if (trimBytes > 0)
        {
            Ptr<PacketTrimmer> trimmer = CreateObject<PacketTrimmer>();
            trimmer->SetAttribute("TrimmedBytes", UintegerValue(trimBytes));
            trimmer->SetAttribute("Priority", UintegerValue(kTrimClass));
            sw->SetAttribute("Trimmer", PointerValue(trimmer));
        }
        Ptr<RdmaNetDevice> in;
        Ptr<RdmaNetDevice> out;
        std::tie(src, in) = rdmatest::BareLink(srcNode, swNode);
        std::tie(out, dst) = rdmatest::BareLink(swNode, dstNode);
        EXPECT_EQ(sw->AddPort(in), 0u);
        EXPECT_EQ(sw->AddPort(out), 1u);
        sw->SetRoute(dstNode->GetId(), {1});
        sw->SetRoute(srcNode->GetId(), {0});
        dstId = dstNode->GetId();
        srcId = srcNode->GetId();
        sw->TraceConnectWithoutContext(
            "Trim",
            Callback<void, Ptr<const Packet>, uint32_t, uint32_t, const char*>(
                [this](Ptr<const Packet> p, uint32_t in, uint32_t out, const char* why) {
                    RdmaHeader h;
                    p->PeekHeader(h);
                    trims.push_back({h.psn, p->GetSize(), in, out, why});
                }));
        sw->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, uint32_t, uint32_t, const char*>(
                [this](Ptr<const Packet>, uint32_t, uint32_t, const char* why) {
                    drops.emplace_back(why);
                }));
        dst->SetRdmaReceiveCallback([this](Ptr<RdmaNetDevice>, Ptr<Packet> p, const RdmaHeader& h) {
            arrivals.push_back({h, p->GetSize()});
        });
    }

    ~TrimLine()
    {
        Simulator::Destroy();
    }

    TrimLine(const TrimLine&) = delete;
    TrimLine& operator=(const TrimLine&) = delete;

    RdmaHeader Header(RdmaPacketType type, uint32_t psn) const
    {
        RdmaHeader h;
        h.type = type;
        h.priority = kData;
        h.src = srcId;
        h.dst = dstId;
        h.dstQpn = 5;
        h.psn = psn;
        h.payload = type == RdmaPacketType::DATA ? kPayload : 0;
        return h;
    }

    /// At 1 us, the sender queues \p h.
    void Send(const RdmaHeader& h)
    {
        Simulator::Schedule(MicroSeconds(1),
                            [this, h]() { src->Enqueue(CreateRdmaFrame(h), h.priority, 0); });
    }

    /// The receiver pauses the switch's egress class \p c from 0 to 20 us.
    void Hold(uint8_t c)
    {
        Simulator::Schedule(Time(0), [this, c]() { dst->SendPfc(c, 0xffff); });
        Simulator::Schedule(MicroSeconds(20), [this, c]() { dst->SendPfc(c, 0); });
    }

    Ptr<RdmaSwitch> sw;
    Ptr<RdmaNetDevice> src;
    Ptr<RdmaNetDevice> dst;
    uint32_t srcId;
    uint32_t dstId;
    std::vector<Arrival> arrivals;
    std::vector<Trim> trims;
    std::vector<std::string> drops;
};

std::size_t
Index(DropReason r)
{
    return static_cast<std::size_t>(r);
}

} // namespace

TEST(SwitchTrimTest, AFullQueueTrimsDataToItsHeaderInTheTrimClass)
{
    // The data queue holds two frames; four arrive while it waits: the last two are
    // trimmed, overtake the queue in class 7 and arrive first, 64 bytes each.
    TrimLine line(2 * kFrame);
    line.Hold(kData);
    for (uint32_t psn = 0; psn < 4; ++psn)
    {
        line.Send(line.Header(RdmaPacketType::DATA, psn));
    }
    Simulator::Run();

    ASSERT_EQ(line.arrivals.size(), 4u);
    for (uint32_t k = 0; k < 2; ++k)
    {
        const Arrival& a = line.arrivals[k];
        EXPECT_EQ(a.h.psn, 2 + k);
        EXPECT_EQ(a.size, 64u) << "switch.trim.bytes";
        EXPECT_TRUE(a.h.flags & RdmaHeader::FLAG_TRIMMED);
        EXPECT_EQ(a.h.type, RdmaPacketType::DATA);
        EXPECT_EQ(a.h.dstQpn, 5u) << "the QP is kept";
        EXPECT_EQ(int(a.h.priority), kTrimClass);
        EXPECT_EQ(a.h.payload, 64u - PacketTrimmer::kMinBytes);
    }
    for (uint32_t k = 2; k < 4; ++k)
    {
        EXPECT_EQ(line.arrivals[k].h.psn, k - 2);
        EXPECT_EQ(line.arrivals[k].size, kFrame);
        EXPECT_FALSE(line.arrivals[k].h.flags & RdmaHeader::FLAG_TRIMMED);
    }
    const RdmaSwitch::PortStats& out = line.sw->GetPortStats(1);
    EXPECT_EQ(out.trims, 2u);
    EXPECT_EQ(out.trimsByReason[Index(DropReason::STATIC_QUEUE_LIMIT)], 2u);
    EXPECT_EQ(out.drops, 0u);
    EXPECT_EQ(out.trimmedAway.frames, 0u) << "the frames went on";
    EXPECT_EQ(out.trimmedAway.bytes, 2u * (kFrame - 64));
    EXPECT_EQ(out.trimmedAway.dataPayload, 2u * (kPayload - 2));
    EXPECT_EQ(line.sw->GetPortStats(0).trims, 0u) << "counted at the egress port";
    ASSERT_EQ(line.trims.size(), 2u);
    EXPECT_EQ(line.trims[0].psn, 2u);
    EXPECT_EQ(line.trims[0].size, 64u) << "the trace sees the frame as trimmed";
    EXPECT_EQ(line.trims[0].inPort, 0u);
    EXPECT_EQ(line.trims[0].outPort, 1u);
    EXPECT_EQ(line.trims[0].reason, DropReasonName(DropReason::STATIC_QUEUE_LIMIT));
    EXPECT_TRUE(line.drops.empty());
}

TEST(SwitchTrimTest, TheTrimmedSizeIsTrimmedBytes)
{
    TrimLine line(kFrame / 2, 100);
    line.Send(line.Header(RdmaPacketType::DATA, 0));
    Simulator::Run();
    ASSERT_EQ(line.arrivals.size(), 1u);
    EXPECT_EQ(line.arrivals[0].size, 100u);
    EXPECT_EQ(line.arrivals[0].h.payload, 100u - PacketTrimmer::kMinBytes);
}

TEST(SwitchTrimTest, OnlyDataFramesNotTrimmedYetAreTrimmed)
{
    // No queue may hold a 62-byte frame: what cannot be trimmed is dropped.
    TrimLine line(40);
    RdmaHeader trimmed = line.Header(RdmaPacketType::DATA, 9);
    trimmed.flags = RdmaHeader::FLAG_TRIMMED;
    trimmed.payload = 2;
    for (const RdmaHeader& h : {line.Header(RdmaPacketType::ACK, 1),
                                line.Header(RdmaPacketType::NACK, 2),
                                line.Header(RdmaPacketType::CNP, 3),
                                trimmed})
    {
        line.Send(h);
    }
    Simulator::Run();
    EXPECT_TRUE(line.arrivals.empty());
    EXPECT_TRUE(line.trims.empty());
    const RdmaSwitch::PortStats& out = line.sw->GetPortStats(1);
    EXPECT_EQ(out.trims, 0u);
    EXPECT_EQ(out.drops, 4u);
    EXPECT_EQ(out.dropsByReason[Index(DropReason::STATIC_QUEUE_LIMIT)], 4u);
}

TEST(SwitchTrimTest, AHeaderThatDoesNotFitIsDroppedWithItsReason)
{
    // Each queue holds 100 bytes: no data frame fits, one 64-byte header does. With both
    // classes held, the first frame is trimmed and the next two are dropped.
    TrimLine line(100);
    line.Hold(kData);
    line.Hold(kTrimClass);
    for (uint32_t psn = 0; psn < 3; ++psn)
    {
        line.Send(line.Header(RdmaPacketType::DATA, psn));
    }
    Simulator::Run();
    ASSERT_EQ(line.arrivals.size(), 1u);
    EXPECT_EQ(line.arrivals[0].h.psn, 0u);
    const RdmaSwitch::PortStats& out = line.sw->GetPortStats(1);
    EXPECT_EQ(out.trims, 1u);
    EXPECT_EQ(out.drops, 2u);
    EXPECT_EQ(out.dropsByReason[Index(DropReason::TRIM_HEADER_OVERFLOW)], 2u);
    EXPECT_EQ(out.droppedByReason[Index(DropReason::TRIM_HEADER_OVERFLOW)].bytes, 2u * kFrame)
        << "dropped whole";
    ASSERT_EQ(line.drops.size(), 2u);
    EXPECT_EQ(line.drops[0], "trim_header_overflow");
}

TEST(SwitchTrimTest, WithoutATrimmerARefusedFrameIsDropped)
{
    TrimLine line(kFrame / 2, 0);
    line.Send(line.Header(RdmaPacketType::DATA, 0));
    Simulator::Run();
    EXPECT_TRUE(line.arrivals.empty());
    EXPECT_EQ(line.sw->GetPortStats(1).drops, 1u);
    EXPECT_EQ(line.sw->GetPortStats(1).trims, 0u);
}

TEST(SwitchTrimTest, TheTrimmedBytesAttributeRefusesLessThanAHeader)
{
    Ptr<PacketTrimmer> t = CreateObject<PacketTrimmer>();
    EXPECT_EQ(PacketTrimmer::kMinBytes, 62u) << "Ethernet, IPv4, UDP, BTH, ICRC, FCS";
    EXPECT_FALSE(t->SetAttributeFailSafe("TrimmedBytes", UintegerValue(61)));
    EXPECT_TRUE(t->SetAttributeFailSafe("TrimmedBytes", UintegerValue(62)));
}
