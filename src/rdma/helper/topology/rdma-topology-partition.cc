/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaTopology::Partition: the fabric split over the ranks of a distributed run.
 */
#include "ns3/rdma-ranks.h"
#include "ns3/rdma-topology.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// Sentinel of a node not yet given a rank.
constexpr uint32_t kNoRank = 0xffffffff;
} // namespace

std::string
RdmaTopology::Partition(uint32_t ranks)
{
    NS_ABORT_MSG_IF(m_finalized, "RdmaTopology: Partition after Finalize");
    NS_ABORT_MSG_IF(m_partitioned, "RdmaTopology: Partition called twice");
    CheckHostsLinked();
    IndexHosts();
    const uint32_t racks = m_anchors.size();
    if (ranks == 0 || ranks > racks)
    {
        return std::to_string(ranks) + " ranks for " + std::to_string(racks) +
               " racks (hosts stay with their ToR: at most one rank per rack)";
    }
    AssignRanks(ranks);
    return ApplyPartition();
}

std::string
RdmaTopology::Partition(uint32_t ranks, const std::vector<uint32_t>& rankOfNode)
{
    NS_ABORT_MSG_IF(m_finalized, "RdmaTopology: Partition after Finalize");
    NS_ABORT_MSG_IF(m_partitioned, "RdmaTopology: Partition called twice");
    const std::string why = CheckPartition(ranks, rankOfNode);
    if (!why.empty())
    {
        return why;
    }
    m_rankOf = rankOfNode;
    return ApplyPartition();
}

std::string
RdmaTopology::CheckPartition(uint32_t ranks, const std::vector<uint32_t>& rankOfNode)
{
    CheckHostsLinked();
    IndexHosts();
    const uint32_t n = m_nodes.GetN();
    if (rankOfNode.size() != n)
    {
        return std::to_string(rankOfNode.size()) + " ranks given for " + std::to_string(n) +
               " nodes (one per node, in node id order from " + std::to_string(m_firstId) + ")";
    }
    std::vector<bool> hasHost(ranks, false);
    for (uint32_t v = 0; v < n; ++v)
    {
        const std::string node = "node " + std::to_string(m_firstId + v);
        if (rankOfNode[v] >= ranks)
        {
            return node + " has rank " + std::to_string(rankOfNode[v]) +
                   ", and the ranks are 0 to " + std::to_string(ranks - 1);
        }
        if (!m_isHost[v])
        {
            continue;
        }
        const uint32_t tor = Local(GetAttachedSwitch(m_firstId + v));
        if (rankOfNode[tor] != rankOfNode[v])
        {
            return node + " (a host) has rank " + std::to_string(rankOfNode[v]) +
                   " and its ToR, node " + std::to_string(m_firstId + tor) + ", rank " +
                   std::to_string(rankOfNode[tor]) + " (a host stays with its ToR)";
        }
        hasHost[rankOfNode[v]] = true;
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        if (!hasHost[r])
        {
            return "rank " + std::to_string(r) + " has no host";
        }
    }
    return "";
}

void
RdmaTopology::AssignRanks(uint32_t ranks)
{
    const uint32_t racks = m_anchors.size();
    const uint32_t n = m_nodes.GetN();
    m_rankOf.assign(n, kNoRank);
    std::vector<uint32_t> switchesOf(ranks, 0);
    for (uint32_t a = 0; a < racks; ++a)
    {
        // Contiguous blocks of racks: neighbours in the helpers' order (a pod's ToRs) share
        // a rank, and block sizes differ by at most one.
        const uint32_t rank = static_cast<uint64_t>(a) * ranks / racks;
        m_rankOf[m_anchors[a]] = rank;
        switchesOf[rank] += m_isHost[m_anchors[a]] ? 0 : 1;
        for (uint32_t hi : m_anchorHosts[a])
        {
            m_rankOf[Local(m_hosts[hi])] = rank;
        }
    }
    // Every other switch, a wave at a time outwards from the racks (so that the order in
    // which a wave is walked does not matter): the rank most of its links lead to.
    for (bool assigned = true; assigned;)
    {
        assigned = false;
        std::vector<std::pair<uint32_t, uint32_t>> wave; // (local node, rank)
        for (uint32_t v = 0; v < n; ++v)
        {
            if (m_rankOf[v] != kNoRank)
            {
                continue;
            }
            std::vector<uint32_t> votes(ranks, 0);
            for (uint32_t li : m_portLinks[v])
            {
                const Link& l = m_links[li];
                const uint32_t peer = Local(l.a) == v ? Local(l.b) : Local(l.a);
                if (m_rankOf[peer] != kNoRank)
                {
                    ++votes[m_rankOf[peer]];
                }
            }
            const uint32_t most = *std::max_element(votes.begin(), votes.end());
            if (most == 0)
            {
                continue;
            }
            uint32_t best = kNoRank;
            for (uint32_t r = 0; r < ranks; ++r)
            {
                if (votes[r] == most && (best == kNoRank || switchesOf[r] < switchesOf[best]))
                {
                    best = r;
                }
            }
            wave.emplace_back(v, best);
            ++switchesOf[best]; // so that ties in one wave spread too
        }
        for (const auto& [v, rank] : wave)
        {
            m_rankOf[v] = rank;
            assigned = true;
        }
    }
    for (uint32_t v = 0; v < n; ++v)
    {
        if (m_rankOf[v] == kNoRank)
        {
            m_rankOf[v] = 0; // a switch linked to no rack (unreachable): any rank
        }
    }
}

std::string
RdmaTopology::ApplyPartition()
{
    const uint32_t n = m_nodes.GetN();
    Time lookahead = Time::Max();
    uint32_t cut = 0; // links between ranks
    for (const Link& l : m_links)
    {
        if (m_rankOf[Local(l.a)] == m_rankOf[Local(l.b)])
        {
            continue;
        }
        if (l.delay.IsZero())
        {
            m_rankOf.clear(); // nothing applied
            return "the link between nodes " + std::to_string(l.a) + " and " + std::to_string(l.b) +
                   " joins two ranks but has no delay (the ranks' lookahead is the "
                   "smallest delay of such links)";
        }
        ++cut;
        lookahead = std::min(lookahead, l.delay);
    }
    RdmaRanks::SetLookahead(lookahead);
    for (uint32_t v = 0; v < n; ++v)
    {
        m_nodes.Get(v)->SetAttribute("SystemId", UintegerValue(m_rankOf[v]));
    }
    m_cutLinks = cut;
    m_partitioned = true; // Finalize builds this rank's nodes and links only
    return "";
}

uint32_t
RdmaTopology::GetRank(uint32_t node) const
{
    return m_rankOf.empty() ? 0 : m_rankOf[Local(node)];
}

bool
RdmaTopology::IsLocal(uint32_t node) const
{
    return GetRank(node) == RdmaRanks::Rank();
}

uint32_t
RdmaTopology::GetNCutLinks() const
{
    return m_cutLinks;
}

} // namespace ns3
