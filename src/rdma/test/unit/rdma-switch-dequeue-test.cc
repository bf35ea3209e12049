/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of what an RdmaSwitch does to a frame as it leaves an egress queue
 * (RdmaSwitch::Dequeued), on a line of bare ports: a sender port, one or two switches, a
 * receiver port (no NIC; the receiver pauses the last switch's egress with PFC to build
 * a queue of known frames, then resumes it).
 *  - ECN (docs/design.md, "DCQCN", the CP): RED on the egress (port, class) queue, decided when
 *    the frame leaves, on the queue it waited in (itself included): p = 0 for q <= Kmin,
 *    Pmax (q - Kmin) / (Kmax - Kmin) for Kmin < q <= Kmax, 1 for q > Kmax; the reason is
 *    ECN_ABOVE_KMAX above Kmax, ECN_PROBABILISTIC between. Only ECN-capable frames (ECT0,
 *    ECT1) are CE-marked; a NOT_ECT frame is never changed or counted. Each mark counts
 *    in the egress port's PortStats::ecnMarked and marksByReason and fires the Mark
 *    trace with the marked frame, the egress port and the reason's name.
 *  - INT (docs/design.md, "HPCC"; int-hop.h): each switch pushes one 8-byte record on a
 *    DATA frame carrying FLAG_INT as it leaves the egress queue (the frame grows by 8
 *    bytes per hop, the records in hop order), holding the egress link's rate, the
 *    dequeue time (ns mod 2^24), the bytes the egress port has sent before it (in
 *    128-byte units) and the bytes of its class queue it leaves behind (in 80-byte
 *    units, rounded down); frames without FLAG_INT, and ACKs that echo a stack, get none.
 * Pmax = 1 and thresholds at multiples of the frame size keep every decision
 * deterministic (p is 0 or 1).
 */
#include "ns3/int-hop.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"
#include "ns3/switch-verdict.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t kClass = 3; // a lossless data class
constexpr uint16_t kMaxQuanta = 0xffff;

/// A frame as it reached the receiver.
struct Arrival
{
    Time at;
    RdmaHeader h;
    uint32_t size;
};

/// A Mark trace call.
struct Mark
{
    uint32_t psn;
    uint8_t ecn;
    uint32_t port;
    std::string reason;
};

using PacketSink = Callback<void, Ptr<const Packet>>;
using MarkSink = Callback<void, Ptr<const Packet>, uint32_t, const char*>;

/**
 * sender - switch 0 - ... - switch n-1 - receiver, links of 1 us; link i has rate
 * rates[i]. Each switch's port 0 faces the sender, port 1 the receiver. The simulator is
 * destroyed with it.
 */
class Line
{
  public:
    explicit Line(const std::vector<DataRate>& rates)
    {
        Ptr<Node> srcNode = CreateObject<Node>();
        srcId = srcNode->GetId();
        std::vector<Ptr<Node>> swNodes;
        for (std::size_t i = 0; i + 1 < rates.size(); ++i)
        {
            Ptr<Node> node = CreateObject<Node>();
            Ptr<RdmaSwitch> s = CreateObject<RdmaSwitch>();
            node->AggregateObject(s);
            swNodes.push_back(node);
            sw.push_back(s);
        }
        Ptr<Node> dstNode = CreateObject<Node>();
        dstId = dstNode->GetId();

        for (std::size_t i = 0; i < rates.size(); ++i)
        {
            Ptr<RdmaChannel> ch = CreateObject<RdmaChannel>();
            ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
            Ptr<RdmaNetDevice> left = Port(i == 0 ? srcNode : swNodes[i - 1], rates[i], ch);
            Ptr<RdmaNetDevice> right =
                Port(i + 1 == rates.size() ? dstNode : swNodes[i], rates[i], ch);
            if (i == 0)
            {
                src = left;
            }
            else
            {
                const uint32_t port = sw[i - 1]->AddPort(left);
                EXPECT_EQ(port, 1u);
                egress.push_back(left);
            }
            if (i + 1 == rates.size())
            {
                dst = right;
            }
            else
            {
                const uint32_t port = sw[i]->AddPort(right);
                EXPECT_EQ(port, 0u);
            }
        }
        egressTx.resize(sw.size());
        for (std::size_t i = 0; i < sw.size(); ++i)
        {
            sw[i]->SetRoute(dstId, {1});
            sw[i]->SetRoute(srcId, {0});
            egress[i]->TraceConnectWithoutContext("MacTx", PacketSink([this, i](Ptr<const Packet>) {
                                                      egressTx[i].push_back(Simulator::Now());
                                                  }));
            sw[i]->TraceConnectWithoutContext(
                "Mark",
                MarkSink([this](Ptr<const Packet> p, uint32_t port, const char* reason) {
                    RdmaHeader h;
                    p->PeekHeader(h);
                    marks.push_back({h.psn, h.ecn, port, reason});
                }));
        }
        dst->SetRdmaReceiveCallback([this](Ptr<RdmaNetDevice>, Ptr<Packet> p, const RdmaHeader& h) {
            arrivals.push_back({Simulator::Now(), h, p->GetSize()});
        });
    }

    ~Line()
    {
        Simulator::Destroy();
    }

    Line(const Line&) = delete;
    Line& operator=(const Line&) = delete;

    /// A frame from the sender to the receiver, class kClass.
    RdmaHeader Header(RdmaPacketType type, uint32_t psn, uint32_t payload) const
    {
        RdmaHeader h;
        h.type = type;
        h.priority = kClass;
        h.src = srcId;
        h.dst = dstId;
        h.psn = psn;
        h.payload = payload;
        return h;
    }

    /// At \p t, the sender queues the frame \p h.
    void Send(Time t, const RdmaHeader& h)
    {
        Simulator::Schedule(t, [this, h]() { src->Enqueue(CreateRdmaFrame(h), h.priority, 0); });
    }

    /// At 0, the receiver pauses the last switch's egress (for 335 us at 100 Gb/s).
    void PauseLastEgress()
    {
        Simulator::Schedule(Time(0), [this]() { dst->SendPfc(kClass, kMaxQuanta); });
    }

    /// The receiver pauses the last switch's egress from 0 until it resumes it at \p t.
    void HoldLastEgressUntil(Time t)
    {
        PauseLastEgress();
        Simulator::Schedule(t, [this]() { dst->SendPfc(kClass, 0); });
    }

    uint32_t srcId;
    uint32_t dstId;
    Ptr<RdmaNetDevice> src;
    Ptr<RdmaNetDevice> dst;
    std::vector<Ptr<RdmaSwitch>> sw;
    std::vector<Ptr<RdmaNetDevice>> egress;  ///< each switch's port 1
    std::vector<std::vector<Time>> egressTx; ///< per switch: start of each frame on port 1
    std::vector<Arrival> arrivals;
    std::vector<Mark> marks;

  private:
    static Ptr<RdmaNetDevice> Port(Ptr<Node> node, DataRate rate, Ptr<RdmaChannel> ch)
    {
        Ptr<RdmaNetDevice> dev = CreateObject<RdmaNetDevice>();
        dev->SetDataRate(rate);
        node->AddDevice(dev);
        dev->Attach(ch);
        return dev;
    }
};

constexpr uint64_t k100G = 100000000000ULL;
constexpr uint64_t k40G = 40000000000ULL;
constexpr uint64_t k25G = 25000000000ULL;

std::size_t
Reason(MarkReason r)
{
    return static_cast<std::size_t>(r);
}

} // namespace

TEST(RdmaSwitchDequeue, EcnIsDecidedOnTheQueueTheFrameLeavesNotTheOneItJoined)
{
    // Four ECT0 frames of S = 1062 bytes (1000 of payload) wait at the paused egress;
    // Kmin = 2S, Kmax = 3S, Pmax = 1. Leaving, frame k sees (4 - k) S: 4S > Kmax (marked,
    // above Kmax), 3S (p = (3S - 2S) / S = 1: marked, probabilistic), 2S and S <= Kmin
    // (not marked). Had the queue they joined decided ((k + 1) S), it would be the
    // last two.
    Line line({DataRate(k100G), DataRate(k100G)});
    const uint32_t s = rdmawire::FrameBytes(RdmaPacketType::DATA, 1000);
    ASSERT_EQ(s, 1062u);
    line.sw[0]->GetMmu()->SetEcnThresholds(1, 2 * s, 3 * s, 1.0);
    line.HoldLastEgressUntil(MicroSeconds(10));
    for (uint32_t psn = 0; psn < 4; ++psn)
    {
        RdmaHeader h = line.Header(RdmaPacketType::DATA, psn, 1000);
        h.ecn = RdmaHeader::ECT0;
        line.Send(MicroSeconds(2), h);
    }
    Simulator::Run();

    ASSERT_EQ(line.arrivals.size(), 4u);
    for (uint32_t k = 0; k < 4; ++k)
    {
        EXPECT_EQ(line.arrivals[k].h.psn, k);
        const int expected = k < 2 ? RdmaHeader::CE : RdmaHeader::ECT0;
        EXPECT_EQ(int(line.arrivals[k].h.ecn), expected) << "psn " << k;
    }
    const RdmaSwitch::PortStats& out = line.sw[0]->GetPortStats(1);
    EXPECT_EQ(out.ecnMarked, 2u);
    EXPECT_EQ(out.marksByReason[Reason(MarkReason::ECN_ABOVE_KMAX)], 1u);
    EXPECT_EQ(out.marksByReason[Reason(MarkReason::ECN_PROBABILISTIC)], 1u);
    EXPECT_EQ(line.sw[0]->GetPortStats(0).ecnMarked, 0u) << "counted at the egress port";

    ASSERT_EQ(line.marks.size(), 2u);
    EXPECT_EQ(line.marks[0].psn, 0u);
    EXPECT_EQ(int(line.marks[0].ecn), RdmaHeader::CE) << "the trace sees the frame as marked";
    EXPECT_EQ(line.marks[0].port, 1u);
    EXPECT_EQ(line.marks[0].reason, MarkReasonName(MarkReason::ECN_ABOVE_KMAX));
    EXPECT_EQ(line.marks[1].psn, 1u);
    EXPECT_EQ(int(line.marks[1].ecn), RdmaHeader::CE);
    EXPECT_EQ(line.marks[1].port, 1u);
    EXPECT_EQ(line.marks[1].reason, MarkReasonName(MarkReason::ECN_PROBABILISTIC));
}

TEST(RdmaSwitchDequeue, OnlyEcnCapableFramesAreMarked)
{
    // Kmin = Kmax = 0: every frame leaves a queue holding at least itself (q > Kmax), so
    // every ECN-capable frame is marked; NOT_ECT frames pass unchanged and uncounted.
    Line line({DataRate(k100G), DataRate(k100G)});
    line.sw[0]->GetMmu()->SetEcnThresholds(1, 0, 0, 1.0);
    const std::vector<uint8_t> sent = {RdmaHeader::NOT_ECT,
                                       RdmaHeader::ECT0,
                                       RdmaHeader::NOT_ECT,
                                       RdmaHeader::ECT1,
                                       RdmaHeader::NOT_ECT};
    for (uint32_t psn = 0; psn < sent.size(); ++psn)
    {
        RdmaHeader h = line.Header(RdmaPacketType::DATA, psn, 1000);
        h.ecn = sent[psn];
        line.Send(MicroSeconds(2 + psn), h); // 1 us apart: each alone in the queue
    }
    Simulator::Run();

    ASSERT_EQ(line.arrivals.size(), sent.size());
    for (uint32_t k = 0; k < sent.size(); ++k)
    {
        const int expected = sent[k] == RdmaHeader::NOT_ECT ? RdmaHeader::NOT_ECT : RdmaHeader::CE;
        EXPECT_EQ(int(line.arrivals[k].h.ecn), expected) << "psn " << k;
    }
    const RdmaSwitch::PortStats& out = line.sw[0]->GetPortStats(1);
    EXPECT_EQ(out.ecnMarked, 2u);
    EXPECT_EQ(out.marksByReason[Reason(MarkReason::ECN_ABOVE_KMAX)], 2u);
    EXPECT_EQ(out.marksByReason[Reason(MarkReason::ECN_PROBABILISTIC)], 0u);
    ASSERT_EQ(line.marks.size(), 2u);
    EXPECT_EQ(line.marks[0].psn, 1u);
    EXPECT_EQ(line.marks[1].psn, 3u);
}

TEST(RdmaSwitchDequeue, AnIntRecordHoldsRateDequeueTimeBytesSentAndQueueLeftBehind)
{
    // Three DATA frames with FLAG_INT wait at the paused 40 Gb/s egress. Each is
    // 54 + 2 (INT header) + 1208 + 8 = 1272 bytes in the queue, 1280 once stamped
    // (10 units of 128 bytes), 1300 on the wire: 10,400 bits = 260 ns at 40 Gb/s.
    // Frame k leaves after k stamped frames (k x 1280 bytes sent) and leaves (2 - k)
    // frames behind: 2544 bytes (31 units of 80, 2480), 1272 (15 units, 1200), 0.
    Line line({DataRate(k100G), DataRate(k40G)});
    line.HoldLastEgressUntil(MicroSeconds(10));
    for (uint32_t psn = 0; psn < 3; ++psn)
    {
        RdmaHeader h = line.Header(RdmaPacketType::DATA, psn, 1208);
        h.flags = RdmaHeader::FLAG_INT;
        ASSERT_EQ(CreateRdmaFrame(h)->GetSize(), 1272u);
        line.Send(MicroSeconds(2), h);
    }
    Simulator::Run();

    ASSERT_EQ(line.arrivals.size(), 3u);
    ASSERT_EQ(line.egressTx[0].size(), 3u);
    const uint64_t qlen[3] = {2480, 1200, 0};
    for (uint32_t k = 0; k < 3; ++k)
    {
        SCOPED_TRACE(k);
        const Arrival& a = line.arrivals[k];
        EXPECT_EQ(a.h.psn, k);
        ASSERT_EQ(a.h.intHops, 1u);
        EXPECT_EQ(a.size, 1280u) << "one 8-byte record added";
        const IntHop hop(a.h.intStack[0]);
        EXPECT_EQ(hop.bitRate, k40G) << "the egress link's rate";
        const uint64_t dequeuedNs = line.egressTx[0][k].GetNanoSeconds();
        EXPECT_EQ(hop.ts, dequeuedNs % (1u << IntHop::kTsBits)) << "stamped as it leaves";
        EXPECT_EQ(hop.tx, 10u * k) << "bytes sent before it, in 128-byte units";
        EXPECT_EQ(hop.qlen, qlen[k]) << "bytes left behind, in 80-byte units";
    }
    // Back to back at 40 Gb/s: the records are 260 ns and 1280 bytes apart.
    for (uint32_t k = 1; k < 3; ++k)
    {
        const IntHop later(line.arrivals[k].h.intStack[0]);
        const IntHop earlier(line.arrivals[k - 1].h.intStack[0]);
        EXPECT_EQ(later.TimeDelta(earlier), 260u);
        EXPECT_EQ(later.TxDelta(earlier), 1280u);
    }
}

TEST(RdmaSwitchDequeue, OnlyDataFramesCarryingFlagIntGetARecord)
{
    // A DATA frame without FLAG_INT, an ACK echoing a 2-record stack (FLAG_INT set) and
    // a DATA frame with FLAG_INT, 1 us apart.
    Line line({DataRate(k100G), DataRate(k100G)});
    const RdmaHeader plain = line.Header(RdmaPacketType::DATA, 0, 1000);
    RdmaHeader ack = line.Header(RdmaPacketType::ACK, 1, 0);
    ack.flags = RdmaHeader::FLAG_INT;
    const uint64_t echoed[2] = {IntHop::Pack(k100G, 1111, 2222 * 128, 33 * 80),
                                IntHop::Pack(k25G, 4444, 5555 * 128, 66 * 80)};
    ack.AppendIntHop(echoed[0]);
    ack.AppendIntHop(echoed[1]);
    RdmaHeader data = line.Header(RdmaPacketType::DATA, 2, 1000);
    data.flags = RdmaHeader::FLAG_INT;
    const uint32_t plainSize = CreateRdmaFrame(plain)->GetSize();
    const uint32_t ackSize = CreateRdmaFrame(ack)->GetSize();
    const uint32_t dataSize = CreateRdmaFrame(data)->GetSize();
    line.Send(MicroSeconds(2), plain);
    line.Send(MicroSeconds(3), ack);
    line.Send(MicroSeconds(4), data);
    Simulator::Run();

    ASSERT_EQ(line.arrivals.size(), 3u);
    EXPECT_EQ(line.arrivals[0].h.intHops, 0u);
    EXPECT_EQ(line.arrivals[0].size, plainSize);

    const Arrival& a = line.arrivals[1];
    EXPECT_EQ(a.h.type, RdmaPacketType::ACK);
    ASSERT_EQ(a.h.intHops, 2u) << "the echoed stack is not added to";
    EXPECT_EQ(a.h.intStack[0], echoed[0]);
    EXPECT_EQ(a.h.intStack[1], echoed[1]);
    EXPECT_EQ(a.size, ackSize);

    EXPECT_EQ(line.arrivals[2].h.intHops, 1u);
    EXPECT_EQ(line.arrivals[2].size, dataSize + rdmawire::kIntHop);
}

TEST(RdmaSwitchDequeue, EachSwitchOnThePathAddsItsOwnRecordInHopOrder)
{
    // sender -100G- switch 0 -100G- switch 1 -25G- receiver: the frame arrives with two
    // records, switch 0's (100 Gb/s) then switch 1's (25 Gb/s), 16 bytes larger, and
    // the records are as far apart in time as the two dequeues.
    Line line({DataRate(k100G), DataRate(k100G), DataRate(k25G)});
    RdmaHeader h = line.Header(RdmaPacketType::DATA, 0, 1000);
    h.flags = RdmaHeader::FLAG_INT;
    const uint32_t size = CreateRdmaFrame(h)->GetSize();
    line.Send(MicroSeconds(2), h);
    Simulator::Run();

    ASSERT_EQ(line.arrivals.size(), 1u);
    const Arrival& a = line.arrivals[0];
    ASSERT_EQ(a.h.intHops, 2u);
    EXPECT_EQ(a.size, size + 2 * rdmawire::kIntHop);
    const IntHop first(a.h.intStack[0]);
    const IntHop second(a.h.intStack[1]);
    EXPECT_EQ(first.bitRate, k100G);
    EXPECT_EQ(second.bitRate, k25G);
    ASSERT_EQ(line.egressTx[0].size(), 1u);
    ASSERT_EQ(line.egressTx[1].size(), 1u);
    EXPECT_EQ(first.ts, line.egressTx[0][0].GetNanoSeconds() % (1u << IntHop::kTsBits));
    EXPECT_EQ(second.ts, line.egressTx[1][0].GetNanoSeconds() % (1u << IntHop::kTsBits));
    EXPECT_EQ(second.TimeDelta(first),
              uint64_t((line.egressTx[1][0] - line.egressTx[0][0]).GetNanoSeconds()));
    EXPECT_GT(second.TimeDelta(first), 1000u) << "at least the 1 us link between them";
    EXPECT_EQ(first.qlen, 0u);
    EXPECT_EQ(second.qlen, 0u);
    EXPECT_EQ(first.tx, 0u) << "the first frame on either egress";
    EXPECT_EQ(second.tx, 0u);
}

// RdmaNetDevice::SetLinkUp(false) discards the queued frames through the dequeue
// callback (so that the switch releases their buffer); a discard is not a departure: the
// frame is neither CE-marked nor counted as marked nor reported on the Mark trace, whose
// contract is "as it leaves an egress queue" for the wire. (A frame lost to the link is a
// LINK_DOWN drop only.)
TEST(RdmaSwitchDequeue, FramesDiscardedWhenTheEgressLinkGoesDownAreNotCountedAsMarked)
{
    // Kmin = Kmax = 0: any ECN-capable frame that left for the wire would be marked.
    // Three ECT0 frames wait at the paused egress; at 10 us its link goes down.
    Line line({DataRate(k100G), DataRate(k100G)});
    line.sw[0]->GetMmu()->SetEcnThresholds(1, 0, 0, 1.0);
    line.PauseLastEgress();
    for (uint32_t psn = 0; psn < 3; ++psn)
    {
        RdmaHeader h = line.Header(RdmaPacketType::DATA, psn, 1000);
        h.ecn = RdmaHeader::ECT0;
        line.Send(MicroSeconds(2), h);
    }
    Simulator::Schedule(MicroSeconds(10), [&line]() { line.egress[0]->SetLinkUp(false); });
    Simulator::Run();

    ASSERT_EQ(line.egress[0]->GetLinkDownDrops(), 3u) << "the three frames were discarded";
    EXPECT_TRUE(line.arrivals.empty());
    EXPECT_EQ(line.sw[0]->GetMmu()->GetEgressBytes(1, kClass), 0u) << "their buffer released";
    const RdmaSwitch::PortStats& out = line.sw[0]->GetPortStats(1);
    EXPECT_EQ(out.ecnMarked, 0u) << "no frame left on the wire, so none was marked";
    EXPECT_EQ(out.marksByReason[Reason(MarkReason::ECN_ABOVE_KMAX)], 0u);
    EXPECT_TRUE(line.marks.empty());
}
