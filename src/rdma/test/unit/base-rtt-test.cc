/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaTopology::GetBaseRtt, kept per path shape (the switch segment between two ToRs,
 * in integer time steps): equal to the analytic value (per link of the path: one MTU
 * data frame and one ACK serialized, the delay both ways) on a leaf-spine and a
 * fat-tree whose rates make every serialization a whole number of nanoseconds; equal to
 * the per-hop sum over GetPath (the computation it replaces) on uneven rates, also after
 * a link's rate changes; and computed only for the ToR pairs asked for: Finalize holds
 * no path shape, and connecting flows adds one per distinct ToR pair they use.
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"
#include "ns3/rdma-wire.h"
#include "ns3/serialization-clock.h"

#include <gtest/gtest.h>
#include <set>
#include <utility>

using namespace ns3;

namespace
{

/// Base-RTT share (ns) of one link at \p nsPerByte ns per byte and \p delayNs each way.
int64_t
ShareNs(uint32_t mtu, int64_t nsPerByte, int64_t delayNs)
{
    const int64_t data = rdmawire::WireBytes(RdmaPacketType::DATA, mtu);
    const int64_t ack = rdmawire::WireBytes(RdmaPacketType::ACK, 0);
    return (data + ack) * nsPerByte + 2 * delayNs;
}

/// The computation GetBaseRtt replaced: every hop of GetPath, time steps summed.
int64_t
PerHopSum(const RdmaTopology& topo, uint32_t src, uint32_t dst)
{
    const uint64_t data = rdmawire::WireBytes(RdmaPacketType::DATA, topo.GetMtu());
    const uint64_t ack = rdmawire::WireBytes(RdmaPacketType::ACK, 0);
    int64_t sum = 0;
    for (const RdmaTopology::Hop& hop : topo.GetPath(src, dst))
    {
        sum += PicoSeconds(SerializationClock::Picoseconds(data, hop.bitRate)).GetTimeStep() +
               PicoSeconds(SerializationClock::Picoseconds(ack, hop.bitRate)).GetTimeStep() +
               2 * hop.delay.GetTimeStep();
    }
    return sum;
}

} // namespace

TEST(BaseRttTest, LeafSpineEqualsTheAnalyticValue)
{
    // 8 Gb/s: 1 ns per byte; 4 Gb/s: 2 ns per byte.
    RdmaTopology topo;
    LeafSpineHelper ls;
    ls.leaves = 3;
    ls.spines = 2;
    ls.hostsPerLeaf = 4;
    ls.linksPerSpine = 2;
    ls.hostRate = DataRate("4Gb/s");
    ls.fabricRate = DataRate("8Gb/s");
    ls.hostDelay = MicroSeconds(1);
    ls.fabricDelay = MicroSeconds(3);
    ls.Build(topo);
    topo.Finalize();
    const uint32_t mtu = topo.GetMtu();
    const int64_t host = ShareNs(mtu, 2, 1000);
    const int64_t fabric = ShareNs(mtu, 1, 3000);
    const auto& hosts = topo.GetHosts();
    for (uint32_t s = 0; s < hosts.size(); ++s)
    {
        for (uint32_t d = 0; d < hosts.size(); ++d)
        {
            const int64_t rtt = topo.GetBaseRtt(hosts[s], hosts[d]).GetNanoSeconds();
            if (s == d)
            {
                EXPECT_EQ(rtt, 0);
                continue;
            }
            const bool sameLeaf = s / ls.hostsPerLeaf == d / ls.hostsPerLeaf;
            EXPECT_EQ(rtt, 2 * host + (sameLeaf ? 0 : 2 * fabric)) << s << "->" << d;
            EXPECT_EQ(rtt, PerHopSum(topo, hosts[s], hosts[d])) << s << "->" << d;
        }
    }
    EXPECT_EQ(topo.GetMaxBaseRtt().GetNanoSeconds(), 2 * host + 2 * fabric);
    Simulator::Destroy();
}

TEST(BaseRttTest, FatTreeEqualsTheAnalyticValue)
{
    // Host links 2 Gb/s (4 ns per byte), ToR-aggregation 4 Gb/s (2 ns), aggregation-core
    // 8 Gb/s (1 ns): each tier of the path counts once each way.
    RdmaTopology topo;
    FatTreeHelper ft;
    ft.SetK(4);
    ft.hostRate = DataRate("2Gb/s");
    ft.torAggRate = DataRate("4Gb/s");
    ft.aggCoreRate = DataRate("8Gb/s");
    ft.hostDelay = MicroSeconds(1);
    ft.fabricDelay = MicroSeconds(2);
    ft.Build(topo);
    topo.Finalize();
    const uint32_t mtu = topo.GetMtu();
    const int64_t host = ShareNs(mtu, 4, 1000);
    const int64_t torAgg = ShareNs(mtu, 2, 2000);
    const int64_t aggCore = ShareNs(mtu, 1, 2000);
    const auto& hosts = topo.GetHosts();
    ASSERT_EQ(hosts.size(), 16u);
    for (uint32_t s = 0; s < hosts.size(); ++s)
    {
        for (uint32_t d = 0; d < hosts.size(); ++d)
        {
            if (s == d)
            {
                continue;
            }
            const uint32_t torS = s / ft.hostsPerTor;
            const uint32_t torD = d / ft.hostsPerTor;
            int64_t expected = 2 * host;
            if (torS != torD)
            {
                expected += 2 * torAgg;
                if (torS / ft.torsPerPod != torD / ft.torsPerPod)
                {
                    expected += 2 * aggCore;
                }
            }
            const int64_t rtt = topo.GetBaseRtt(hosts[s], hosts[d]).GetNanoSeconds();
            EXPECT_EQ(rtt, expected) << s << "->" << d;
            EXPECT_EQ(rtt, PerHopSum(topo, hosts[s], hosts[d])) << s << "->" << d;
        }
    }
    EXPECT_EQ(topo.GetMaxBaseRtt().GetNanoSeconds(), 2 * host + 2 * torAgg + 2 * aggCore);
    Simulator::Destroy();
}

TEST(BaseRttTest, UnevenRatesAndARateChangeMatchThePerHopSum)
{
    // 100/400 Gb/s: serializations of fractional nanoseconds, each rounded on its own.
    RdmaTopology topo;
    FatTreeHelper ft;
    ft.SetK(4);
    ft.torAggRate = DataRate("400Gb/s");
    ft.aggCoreRate = DataRate("400Gb/s");
    ft.Build(topo);
    topo.Finalize();
    const auto& hosts = topo.GetHosts();
    auto checkAll = [&]() {
        for (uint32_t s : hosts)
        {
            for (uint32_t d : hosts)
            {
                ASSERT_EQ(topo.GetBaseRtt(s, d).GetTimeStep(), PerHopSum(topo, s, d))
                    << s << "->" << d;
            }
        }
    };
    checkAll();
    // Slow a link that memoized paths cross: host 0's ToR to its first aggregation
    // switch (the first shortest port), then host 0's own link.
    const uint32_t tor = topo.GetAttachedSwitch(hosts[0]);
    const Time before = topo.GetBaseRtt(hosts[0], hosts[15]);
    int32_t uplink = -1;
    for (uint32_t sw : topo.GetSwitches())
    {
        if (uplink < 0 && topo.GetNodeKind(sw) == "agg")
        {
            uplink = topo.FindLink(tor, sw);
        }
    }
    ASSERT_GE(uplink, 0);
    topo.SetLinkRate(uplink, DataRate("37Gb/s"));
    checkAll();
    EXPECT_GT(topo.GetBaseRtt(hosts[0], hosts[15]), before);
    topo.SetLinkRate(topo.FindLink(hosts[0], tor), DataRate("25Gb/s"));
    checkAll();
    Simulator::Destroy();
}

TEST(BaseRttTest, PathShapesOnlyForTheToRPairsUsed)
{
    // A 1,024-host fat-tree (128 ToRs: 16,256 ToR pairs); flows between some hosts.
    RdmaTopology topo;
    FatTreeHelper ft;
    ft.SetK(16);
    ft.Build(topo);
    topo.Finalize();
    EXPECT_EQ(topo.GetNPathShapes(), 0u) << "Finalize computes no pair";
    Simulator::Run(); // as the runner does before adding traffic
    const uint32_t n = topo.GetHosts().size();
    ASSERT_EQ(n, 1024u);
    TrafficDriver driver(topo);
    std::set<std::pair<uint32_t, uint32_t>> torPairs;
    for (uint32_t i = 0; i < n; i += 3)
    {
        // Each pair twice: a second flow between the same hosts adds no shape.
        const uint32_t dst = (i * 37 + 11) % n;
        if (dst == i)
        {
            continue;
        }
        for (uint32_t twice = 0; twice < 2; ++twice)
        {
            FlowSpec flow;
            flow.src = i;
            flow.dst = dst;
            flow.bytes = 1000;
            driver.AddFlow(flow);
        }
        torPairs.insert({i / ft.hostsPerTor, dst / ft.hostsPerTor});
        EXPECT_EQ(topo.GetNPathShapes(), torPairs.size()) << "after host " << i;
    }
    EXPECT_LT(torPairs.size(), 128u * 127u / 10);
    Simulator::Destroy();
}
