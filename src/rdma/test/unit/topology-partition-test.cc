/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaTopology::Partition, the fabric split over the ranks of a distributed run: a host
 * stays with its ToR, racks spread evenly, a fat-tree's aggregation switches stay with
 * their pod, links between ranks are exactly those whose ends differ, and a split that
 * cannot work is refused with the reason.
 */
#include "ns3/core-module.h"
#include "ns3/node-list.h"
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// A link of links.csv: its two node ids.
std::vector<std::pair<uint32_t, uint32_t>>
LinksOf(const RdmaTopology& topo)
{
    std::ostringstream csv;
    topo.WriteLinks(csv);
    std::istringstream in(csv.str());
    std::string line;
    std::getline(in, line); // header
    std::vector<std::pair<uint32_t, uint32_t>> links;
    while (std::getline(in, line))
    {
        std::istringstream row(line);
        std::string node;
        std::string port;
        std::string kind;
        std::string peer;
        std::getline(row, node, ',');
        std::getline(row, port, ',');
        std::getline(row, kind, ',');
        std::getline(row, peer, ',');
        if (std::stoul(node) < std::stoul(peer))
        {
            links.emplace_back(std::stoul(node), std::stoul(peer));
        }
    }
    return links;
}

/// What every split must hold: each node's system id is its rank, a host has its ToR's
/// rank, every rank holds a rack, and the cut links are those whose ends differ.
void
ExpectConsistent(const RdmaTopology& topo, uint32_t ranks)
{
    std::set<uint32_t> ranksWithHosts;
    for (uint32_t h : topo.GetHosts())
    {
        EXPECT_EQ(topo.GetRank(h), topo.GetRank(topo.GetAttachedSwitch(h))) << "host " << h;
        ranksWithHosts.insert(topo.GetRank(h));
    }
    EXPECT_EQ(ranksWithHosts.size(), ranks);
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        EXPECT_LT(topo.GetRank(n), ranks);
        EXPECT_EQ(NodeList::GetNode(n)->GetSystemId(), topo.GetRank(n)) << "node " << n;
    }
    uint32_t cut = 0;
    for (const auto& [a, b] : LinksOf(topo))
    {
        cut += topo.GetRank(a) != topo.GetRank(b) ? 1 : 0;
    }
    EXPECT_EQ(topo.GetNCutLinks(), cut);
}

class TopologyPartition : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

TEST_F(TopologyPartition, LeafSpineRacksSplitEvenlyAndSpinesSpread)
{
    RdmaTopology topo;
    LeafSpineHelper ls;
    ls.leaves = 4;
    ls.spines = 2;
    ls.hostsPerLeaf = 3;
    ls.Build(topo);
    ASSERT_EQ(topo.Partition(2), "");
    topo.Finalize();
    ExpectConsistent(topo, 2);
    std::map<uint32_t, int> leavesOf;
    std::map<uint32_t, int> spinesOf;
    for (uint32_t sw : topo.GetSwitches())
    {
        (topo.GetNodeKind(sw) == "leaf" ? leavesOf : spinesOf)[topo.GetRank(sw)]++;
    }
    EXPECT_EQ(leavesOf[0], 2);
    EXPECT_EQ(leavesOf[1], 2);
    EXPECT_EQ(spinesOf[0], 1);
    EXPECT_EQ(spinesOf[1], 1);
    // Each leaf has one spine link to the other rank's spine.
    EXPECT_EQ(topo.GetNCutLinks(), 4U);
}

TEST_F(TopologyPartition, FatTreeAggregationSwitchesStayWithTheirPod)
{
    RdmaTopology topo;
    FatTreeHelper ft;
    ft.SetK(4); // 4 pods of 2 ToRs and 2 aggregation switches, 4 cores
    ft.Build(topo);
    ASSERT_EQ(topo.Partition(2), "");
    topo.Finalize();
    ExpectConsistent(topo, 2);
    // An aggregation switch's ToRs (its pod) all have its rank.
    uint32_t aggs = 0;
    for (const auto& [a, b] : LinksOf(topo))
    {
        for (const auto& [agg, peer] : {std::pair{a, b}, std::pair{b, a}})
        {
            if (topo.GetNodeKind(agg) == "agg" && topo.GetNodeKind(peer) == "tor")
            {
                EXPECT_EQ(topo.GetRank(agg), topo.GetRank(peer)) << "agg " << agg;
                ++aggs;
            }
        }
    }
    EXPECT_EQ(aggs, 16U); // 8 aggregation switches x 2 ToRs each
}

TEST_F(TopologyPartition, ARankBuildsOnlyItsOwnNodesAndTheEndsOfItsLinks)
{
    // This process is rank 0 (no MPI): of a split in two, it builds rank 0's half.
    RdmaTopology topo;
    LeafSpineHelper ls;
    ls.leaves = 4;
    ls.spines = 2;
    ls.hostsPerLeaf = 3;
    ls.Build(topo);
    ASSERT_EQ(topo.Partition(2), "");
    topo.Finalize();
    // Every node exists (ns-3 numbers them alike on every rank) ...
    EXPECT_EQ(NodeList::GetNNodes(), topo.GetHosts().size() + topo.GetSwitches().size());
    // ... but only rank 0's have a NIC or a switch, and devices.
    for (const auto* group : {&topo.GetHosts(), &topo.GetSwitches()})
    {
        for (uint32_t n : *group)
        {
            const bool mine = topo.GetRank(n) == 0;
            EXPECT_EQ(topo.IsLocal(n), mine) << "node " << n;
            EXPECT_EQ(topo.IsHost(n) ? bool(topo.GetNic(n)) : bool(topo.GetSwitch(n)), mine)
                << "node " << n;
            if (!mine)
            {
                EXPECT_EQ(topo.GetNode(n)->GetNDevices(), 0U) << "node " << n;
            }
        }
    }
    EXPECT_EQ(topo.GetLocalHosts().size(), 6U);
    EXPECT_EQ(topo.GetLocalSwitches().size(), 3U); // 2 leaves, 1 spine
    // A link to the other rank ends, here, in a device that names the far end as its own
    // rank numbers it (node, and port as in links.csv): where the frames go.
    std::ostringstream csv;
    topo.WriteLinks(csv);
    std::istringstream in(csv.str());
    std::string line;
    std::getline(in, line); // header
    uint32_t farEnds = 0;
    while (std::getline(in, line))
    {
        std::istringstream row(line);
        std::vector<uint32_t> f;
        for (std::string cell; std::getline(row, cell, ',');)
        {
            f.push_back(cell.empty() || !std::isdigit(cell[0]) ? 0 : std::stoul(cell));
        }
        const uint32_t node = f[0], port = f[1], peer = f[3], peerPort = f[4];
        if (!topo.IsLocal(node))
        {
            continue;
        }
        Ptr<RdmaNetDevice> dev = topo.IsHost(node) ? topo.GetNic(node)->GetDevice()
                                                   : topo.GetSwitch(node)->GetPort(port);
        // A cut link is a remote channel (its frames leave the process); a link within
        // the rank is a plain one.
        EXPECT_EQ(bool(DynamicCast<RdmaRemoteChannel>(dev->GetRdmaChannel())), !topo.IsLocal(peer))
            << "link " << node << ":" << port << " - " << peer;
        if (topo.IsLocal(peer))
        {
            continue;
        }
        Ptr<RdmaNetDevice> far = dev->GetRdmaChannel()->GetPeer(dev);
        EXPECT_EQ(far->GetNode()->GetId(), peer);
        EXPECT_EQ(far->GetIfIndex(), peerPort);
        ++farEnds;
    }
    EXPECT_EQ(farEnds, topo.GetNCutLinks()); // one end of each is here
    EXPECT_EQ(farEnds, 4U);
}

TEST_F(TopologyPartition, AGivenSplitIsAppliedAndABadOneIsNamed)
{
    // 4 leaves x 3 hosts, 2 spines: hosts 0-11, leaves 12-15, spines 16-17. Leaves 0 and
    // 2 (with their hosts) and spine 0 on rank 0, the others on rank 1.
    const auto build = [](RdmaTopology& topo) {
        LeafSpineHelper ls;
        ls.leaves = 4;
        ls.spines = 2;
        ls.hostsPerLeaf = 3;
        ls.Build(topo);
    };
    const std::vector<uint32_t> given = {0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1};
    {
        RdmaTopology topo;
        build(topo);
        ASSERT_EQ(topo.Partition(2, given), "");
        topo.Finalize();
        ExpectConsistent(topo, 2);
        for (uint32_t n = 0; n < given.size(); ++n)
        {
            EXPECT_EQ(topo.GetRank(n), given[n]) << "node " << n;
        }
        EXPECT_EQ(topo.GetLocalHosts(), (std::vector<uint32_t>{0, 1, 2, 6, 7, 8}));
        EXPECT_EQ(topo.GetNCutLinks(), 4U); // each leaf's link to the other rank's spine
        Simulator::Destroy();
    }
    const auto why = [&](std::vector<uint32_t> split, uint32_t ranks) {
        RdmaTopology topo;
        build(topo);
        const std::string reason = topo.Partition(ranks, split);
        Simulator::Destroy();
        return reason;
    };
    std::vector<uint32_t> bad = given;
    bad.pop_back();
    EXPECT_NE(why(bad, 2).find("17 ranks given for 18 nodes"), std::string::npos);
    bad = given;
    bad[4] = 0; // a host of leaf 1 (rank 1)
    EXPECT_NE(why(bad, 2).find("node 4 (a host) has rank 0 and its ToR, node 13, rank 1"),
              std::string::npos)
        << why(bad, 2);
    bad = given;
    bad[17] = 2;
    EXPECT_NE(why(bad, 2).find("node 17 has rank 2, and the ranks are 0 to 1"), std::string::npos);
    EXPECT_NE(why(given, 3).find("rank 2 has no host"), std::string::npos);
}

TEST_F(TopologyPartition, OneRankCutsNothing)
{
    RdmaTopology topo;
    LeafSpineHelper ls;
    ls.Build(topo);
    ASSERT_EQ(topo.Partition(1), "");
    topo.Finalize();
    ExpectConsistent(topo, 1);
    EXPECT_EQ(topo.GetNCutLinks(), 0U);
}

TEST_F(TopologyPartition, MoreRanksThanRacksIsRefused)
{
    RdmaTopology topo;
    StarHelper star;
    star.hosts = 4;
    star.Build(topo);
    const std::string why = topo.Partition(2);
    EXPECT_NE(why.find("2 ranks for 1 racks"), std::string::npos) << why;
}

TEST_F(TopologyPartition, ACutLinkWithoutDelayIsRefused)
{
    RdmaTopology topo;
    LeafSpineHelper ls;
    ls.fabricDelay = Time(0);
    ls.Build(topo);
    const std::string why = topo.Partition(2);
    EXPECT_NE(why.find("no delay"), std::string::npos) << why;
}
