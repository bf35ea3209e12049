/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What a QP costs: a flow's QP (requester and responder sides, its rate limiter and
 * congestion controller, the driver's record of the flow) stays under 1 KB of memory,
 * and the loss-recovery containers stay unallocated while nothing is lost.
 */
#include "ns3/core-module.h"
#include "ns3/plugin-registry.h"
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>
#include <malloc.h>

using namespace ns3;

namespace
{

/// Heap bytes in use (glibc): small blocks plus mmapped large ones (big vectors).
size_t
HeapInUse()
{
    const struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

/// Bytes per flow of \p n flows (own QP each) between two hosts under congestion
/// control \p cc, measured as the heap growth plus the QP structures' share of it.
double
BytesPerFlow(TypeId cc, uint32_t n)
{
    RdmaTopology topo;
    ObjectFactory f;
    f.SetTypeId(cc);
    topo.SetCongestionControl(f);
    StarHelper star;
    star.hosts = 2;
    star.Build(topo);
    topo.Finalize();
    // As the runner does: an empty run ends ns-3's record of every live Time object
    // (a set node per Time until the first Simulator::Run).
    Simulator::Run();
    TrafficDriver driver(topo);
    FlowSpec flow;
    flow.src = 0;
    flow.dst = 1;
    flow.bytes = 64 * 1024;
    // Warm up (first QPs size the NICs' vectors), then measure the next n.
    for (uint32_t i = 0; i < 64; ++i)
    {
        driver.AddFlow(flow);
    }
    const size_t before = HeapInUse();
    for (uint32_t i = 0; i < n; ++i)
    {
        driver.AddFlow(flow);
    }
    const double perFlow = double(HeapInUse() - before) / n;
    std::cout << cc.GetName() << ": " << perFlow << " B per flow\n";
    Simulator::Destroy();
    return perFlow;
}

} // namespace

TEST(QpMemoryTest, AFreshQpHasNoLossRecoveryStorage)
{
    SendQueuePair sq;
    RecvQueuePair rq;
    EXPECT_EQ(sq.messages.capacity(), 0u);
    EXPECT_EQ(sq.sacked.capacity(), 0u);
    EXPECT_EQ(rq.placed.capacity(), 0u);
    EXPECT_LE(sizeof(SendQueuePair) + sizeof(RecvQueuePair), 320u)
        << "requester " << sizeof(SendQueuePair) << " B, responder " << sizeof(RecvQueuePair)
        << " B";
}

TEST(QpMemoryTest, AFlowCostsUnderOneKilobyte)
{
    // The QP vectors grow by doubling: 64 + n flows fill them exactly (no spare capacity
    // counted). The controller is a large part of it (DCQCN's 216 B and the RTT probe's
    // 304 B on 3.37, both with their attributes in a shared block). Every controller of
    // the registry stays under the bound, so a new one cannot escape it. The bound is the
    // same on every ns-3 (3.42 on, ns3::Object is 24 B larger): the RTT probe's flow is
    // 920 B on 3.37 (a rate per QP, the default: a claim of its own each), 728 B with
    // ShareWithPeers.
    const uint32_t n = (1 << 14) - 64;
    int checked = 0;
    for (const PluginRegistry::Plugin& cc : PluginRegistry::CongestionControls().Plugins())
    {
        ++checked;
        EXPECT_LE(BytesPerFlow(cc.tid, n), 1024.0) << cc.name;
    }
    EXPECT_GE(checked, 6) << "dcqcn, hpcc, none, rtt-probe, swift and timely at least";
}

TEST(QpMemoryTest, RecoveryContainersStayEmptyWithoutLoss)
{
    int checked = 0;
    for (const PluginRegistry::Plugin& p : PluginRegistry::LossRecoveries().Plugins())
    {
        ++checked;
        const std::string& policy = p.name;
        RdmaTopology topo;
        ObjectFactory recovery;
        recovery.SetTypeId(p.tid);
        topo.SetLossRecovery(recovery);
        StarHelper star;
        star.hosts = 3;
        star.Build(topo);
        topo.Finalize();
        TrafficDriver driver(topo);
        for (uint32_t i = 0; i < 8; ++i)
        {
            FlowSpec flow;
            flow.src = 1 + i % 2;
            flow.dst = 0;
            flow.bytes = 20000 + 1000 * i;
            driver.AddFlow(flow);
        }
        driver.SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
        driver.Start();
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        ASSERT_TRUE(driver.IsDone()) << policy;
        for (uint64_t id = 0; id < 8; ++id)
        {
            const auto [node, qpn] = driver.GetFlowQp(id);
            const SendQueuePair& qp = topo.GetNic(node)->GetSendQp(qpn);
            EXPECT_TRUE(qp.messages.empty());
            EXPECT_EQ(qp.messages.capacity(), 1u) << "one message posted";
            EXPECT_EQ(qp.sacked.capacity(), 0u) << policy << ": nothing lost";
        }
        EXPECT_EQ(topo.GetNic(topo.GetHosts()[0])->GetStats().outOfOrderPackets, 0u);
        Simulator::Destroy();
    }
    EXPECT_GE(checked, 3) << "go_back_n, selective_repeat and direct_placement at least";
}
