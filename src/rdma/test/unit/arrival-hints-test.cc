/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Where a link finds the state a frame's arrival reads first (RdmaArrivalHints): the
 * queue pair the frame is addressed to, looked up from its header when it is sent, so
 * that the simulator loads it into the cache with the frame. A hint changes nothing that
 * is simulated; what can go wrong is that it names the wrong memory, which these tests
 * check: DATA frames name the receive QP, answers the send QP, other frames and unknown
 * QP numbers nothing, and a NIC's tables stay right as its QP vectors grow and move.
 * Also that what is loaded covers what is read: every send QP starts a cache line (its
 * hot fields are its first two lines), and the registered rate controllers fit in the
 * lines RdmaNic::PrefetchSendState loads.
 */
#include "ns3/core-module.h"
#include "ns3/plugin-registry.h"
#include "ns3/rdma-module.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

RdmaHeader
Frame(RdmaPacketType type, uint32_t dstQpn)
{
    RdmaHeader h;
    h.type = type;
    h.dstQpn = dstQpn;
    return h;
}

} // namespace

TEST(ArrivalHintsTest, DataNamesTheReceiveEntryAndAnswersTheSendEntry)
{
    std::vector<char> recv(5 * 24);
    std::vector<char> send(3 * 40);
    RdmaArrivalHints hints;
    hints.data = recv.data();
    hints.dataCount = 5;
    hints.dataStride = 24;
    hints.answers = send.data();
    hints.answerCount = 3;
    hints.answerStride = 40;

    for (uint32_t n = 0; n < 5; ++n)
    {
        EXPECT_EQ(hints.For(Frame(RdmaPacketType::DATA, n)), recv.data() + 24 * n) << n;
    }
    for (RdmaPacketType t : {RdmaPacketType::ACK,
                             RdmaPacketType::NACK,
                             RdmaPacketType::CNP,
                             RdmaPacketType::PROBE_RESP})
    {
        for (uint32_t n = 0; n < 3; ++n)
        {
            EXPECT_EQ(hints.For(Frame(t, n)), send.data() + 40 * n) << int(t) << " " << n;
        }
        EXPECT_EQ(hints.For(Frame(t, 3)), nullptr) << "past the send table";
    }
    EXPECT_EQ(hints.For(Frame(RdmaPacketType::DATA, 5)), nullptr) << "past the receive table";
    // A probe is answered by the NIC without a QP; PFC stays in the device.
    EXPECT_EQ(hints.For(Frame(RdmaPacketType::PROBE, 0)), nullptr);
    EXPECT_EQ(hints.For(Frame(RdmaPacketType::PFC, 0)), nullptr);
    // An owner without tables (a switch) names nothing.
    EXPECT_EQ(RdmaArrivalHints().For(Frame(RdmaPacketType::ACK, 0)), nullptr);
    EXPECT_EQ(RdmaArrivalHints().For(Frame(RdmaPacketType::DATA, 0)), nullptr);
}

TEST(ArrivalHintsTest, NicTablesFollowItsQpsAsTheyGrow)
{
    RdmaTopology topo;
    StarHelper star;
    star.hosts = 2;
    star.Build(topo);
    topo.Finalize();
    Ptr<RdmaNic> sender = topo.GetNic(topo.GetHosts()[0]);
    Ptr<RdmaNic> receiver = topo.GetNic(topo.GetHosts()[1]);
    const RdmaArrivalHints* atSender = sender->GetDevice()->GetArrivalHints();
    const RdmaArrivalHints* atReceiver = receiver->GetDevice()->GetArrivalHints();
    ASSERT_NE(atSender, nullptr) << "a NIC's port knows where its QPs are";
    ASSERT_NE(atReceiver, nullptr);
    EXPECT_EQ(atSender->For(Frame(RdmaPacketType::ACK, 0)), nullptr) << "no QP yet";
    EXPECT_EQ(atReceiver->For(Frame(RdmaPacketType::DATA, 0)), nullptr) << "no QP yet";

    std::vector<const void*> qp0;
    // Enough connections for the QP vectors to reallocate several times.
    for (uint32_t i = 0; i < 100; ++i)
    {
        const uint32_t qpn = RdmaNic::Connect(sender, receiver, 3, static_cast<uint16_t>(1000 + i));
        ASSERT_EQ(qpn, i);
        qp0.push_back(&sender->GetSendQp(0));
        // The ports answer with the same objects, kept current.
        ASSERT_EQ(sender->GetDevice()->GetArrivalHints(), atSender);
        ASSERT_EQ(receiver->GetDevice()->GetArrivalHints(), atReceiver);
        for (uint32_t k = 0; k <= i; ++k)
        {
            ASSERT_EQ(atSender->For(Frame(RdmaPacketType::ACK, k)), &sender->GetSendQp(k))
                << "after " << i + 1 << " QPs, QP " << k;
            ASSERT_EQ(atSender->For(Frame(RdmaPacketType::CNP, k)), &sender->GetSendQp(k));
            // The hint loads two lines from the QP's start, which hold what a pull and
            // an acknowledgement read only if the QP starts a line.
            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(&sender->GetSendQp(k)) % 64, 0u)
                << "QP " << k << " is not aligned to a cache line";
        }
        EXPECT_EQ(atSender->For(Frame(RdmaPacketType::ACK, i + 1)), nullptr);
        EXPECT_NE(atReceiver->For(Frame(RdmaPacketType::DATA, i)), nullptr);
        EXPECT_EQ(atReceiver->For(Frame(RdmaPacketType::DATA, i + 1)), nullptr);
        // Each side holds only its half of the connection.
        EXPECT_EQ(atSender->For(Frame(RdmaPacketType::DATA, 0)), nullptr);
        EXPECT_EQ(atReceiver->For(Frame(RdmaPacketType::ACK, 0)), nullptr);
    }
    // The receive entries are consecutive QPs, one RecvQueuePair apart.
    const char* r0 = static_cast<const char*>(atReceiver->For(Frame(RdmaPacketType::DATA, 0)));
    const char* r7 = static_cast<const char*>(atReceiver->For(Frame(RdmaPacketType::DATA, 7)));
    EXPECT_EQ(r7 - r0, static_cast<std::ptrdiff_t>(7 * sizeof(RecvQueuePair)));
    // The test meant something only if the send table did move.
    EXPECT_NE(qp0.front(), qp0.back()) << "the QP vector never moved";
    Simulator::Destroy();
}

TEST(ArrivalHintsTest, QpPrefetchSpansItsControllerExactly)
{
    // CcPrefetchLines: from the line a controller starts in to the one its last byte is
    // in, for controllers at every offset the heap gives (many objects), capped at
    // kCcPrefetchLines; no line beyond its end (that one belongs to another object).
    // Every controller of the registry, the larger ones included.
    for (const PluginRegistry::Plugin& cc : PluginRegistry::CongestionControls().Plugins())
    {
        ObjectFactory factory;
        factory.SetTypeId(cc.tid);
        const uint32_t size = cc.tid.GetSize();
        std::vector<Ptr<CongestionControl>> keep; // alive, so each gets a new address
        for (int i = 0; i < 16; ++i)
        {
            keep.push_back(factory.Create<CongestionControl>());
            const auto first = reinterpret_cast<std::uintptr_t>(PeekPointer(keep.back()));
            const std::uintptr_t last = first + size - 1;
            const uint32_t spanned = static_cast<uint32_t>(last / 64 - first / 64 + 1);
            EXPECT_EQ(RdmaNic::CcPrefetchLines(*keep.back()),
                      std::min(spanned, RdmaNic::kCcPrefetchLines))
                << cc.name << " at offset " << first % 64;
        }
    }
    // A controller whose size is not registered: all kCcPrefetchLines.
    EXPECT_GE(RdmaNic::kCcPrefetchLines, RdmaNic::kCcFirstLines);
}
