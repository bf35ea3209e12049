/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A QP's queue of messages: several messages posted on one QP each complete once, in
 * the order posted, with the bytes posted (an unbounded one with the bytes sent before
 * it was cut); the QP's cached last PSN of its oldest message (what an acknowledgement
 * reads instead of the message) follows the queue through posts, completions and a
 * truncation.
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace ns3;

namespace
{

/// The invariant: frontLastPsn is the oldest message's last PSN, or the largest PSN.
void
ExpectFrontCached(const SendQueuePair& qp, const char* when)
{
    const uint32_t expected =
        qp.messages.empty() ? std::numeric_limits<uint32_t>::max() : qp.messages.front().lastPsn;
    EXPECT_EQ(qp.frontLastPsn, expected) << when;
}

std::vector<RdmaNic::Completion> g_done;

void
Completed(const RdmaNic::Completion& c)
{
    g_done.push_back(c);
}

} // namespace

TEST(QpMessagesTest, MessagesOnOneQpCompleteOnceInOrderWithTheirBytes)
{
    g_done.clear();
    RdmaTopology topo;
    StarHelper star;
    star.hosts = 2;
    star.Build(topo);
    topo.Finalize();
    Simulator::Run(); // (as the runner does, before traffic)
    const auto& hosts = topo.GetHosts();
    Ptr<RdmaNic> nic = topo.GetNic(hosts[0]);
    Ptr<RdmaNic> peer = topo.GetNic(hosts[1]);
    nic->SetCcContextFor(hosts[1],
                         topo.GetBaseRtt(hosts[0], hosts[1]),
                         topo.GetPathLength(hosts[0], hosts[1]));
    const uint32_t qpn = RdmaNic::Connect(nic, peer, 3, 49152);
    nic->TraceConnectWithoutContext("MessageComplete", MakeCallback(&Completed));
    const SendQueuePair& qp = nic->GetSendQp(qpn);
    // Four messages on the one QP (one of a single packet), then an unbounded one, cut
    // 200 us in.
    const std::vector<uint64_t> bytes = {50000, 1000, 123456, 7};
    for (size_t i = 0; i < bytes.size(); ++i)
    {
        nic->PostSend(qpn, bytes[i], 100 + i);
        ExpectFrontCached(qp, "after a post");
    }
    nic->PostSend(qpn, RdmaMessage::kUnbounded, 200);
    ExpectFrontCached(qp, "after the unbounded post");
    Simulator::Schedule(MicroSeconds(200), [&]() {
        nic->TruncateMessage(qpn);
        ExpectFrontCached(qp, "after the truncation");
    });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    ExpectFrontCached(qp, "at the end");
    EXPECT_TRUE(qp.messages.empty());
    ASSERT_EQ(g_done.size(), 5u);
    // In the order posted, each once, with its bytes.
    const std::vector<uint64_t> ids = {100, 101, 102, 103, 200};
    for (size_t i = 0; i < g_done.size(); ++i)
    {
        EXPECT_EQ(g_done[i].flowId, ids[i]) << i;
        EXPECT_EQ(g_done[i].qpn, qpn);
        if (i > 0)
        {
            EXPECT_GE(g_done[i].completed, g_done[i - 1].completed);
        }
    }
    for (size_t i = 0; i < bytes.size(); ++i)
    {
        EXPECT_EQ(g_done[i].bytes, bytes[i]);
    }
    // The cut message: what was sent before the cut, whole packets of the MTU, and more
    // than nothing (200 us at 100 Gb/s is about 2.4 MB).
    EXPECT_GT(g_done[4].bytes, 1000000u);
    EXPECT_EQ(g_done[4].bytes % topo.GetMtu(), 0u) << "whole packets";
    // Everything completed was sent and acknowledged once: the QP's total.
    uint64_t total = 0;
    for (const auto& c : g_done)
    {
        total += c.bytes;
    }
    EXPECT_EQ(qp.completedBytes, total);
    Simulator::Destroy();
}
