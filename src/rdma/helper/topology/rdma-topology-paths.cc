/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaTopology, what is derived from the links once they are all known: shortest-path
 * ECMP routes of every switch, and per host pair the path, base RTT, BDP and the ideal
 * completion time of a message.
 */
#include "ns3/abort.h"
#include "ns3/rdma-topology.h"
#include "ns3/rdma-wire.h"
#include "ns3/serialization-clock.h"

#include <algorithm>
#include <limits>

namespace ns3
{

namespace
{
constexpr uint32_t kUnreachable = std::numeric_limits<uint32_t>::max();

Time
WireTime(uint64_t bytes, uint64_t bitRate)
{
    return PicoSeconds(SerializationClock::Picoseconds(bytes, bitRate));
}

/// A switch's up link to another switch.
struct SwitchHop
{
    uint32_t next; ///< switch index of the neighbour
    uint32_t port; ///< the port towards it
};

/// Per switch (by switch index), its up links to other switches in port order:
/// hops[firstHop[si]] up to hops[firstHop[si + 1]]. Read once per anchor, contiguously.
struct SwitchHops
{
    std::vector<SwitchHop> hops;
    std::vector<uint32_t> firstHop;
};

/// BFS over the switches from switch \p start: the hop distance of every switch it reaches
/// into \p dist (kUnreachable for all on entry); \p frontier is scratch.
void
SwitchDistances(const SwitchHops& t,
                uint32_t start,
                std::vector<uint32_t>& dist,
                std::vector<uint32_t>& frontier)
{
    frontier.clear();
    dist[start] = 0;
    frontier.push_back(start);
    for (size_t head = 0; head < frontier.size(); ++head)
    {
        const uint32_t u = frontier[head];
        for (uint32_t k = t.firstHop[u]; k < t.firstHop[u + 1]; ++k)
        {
            const uint32_t v = t.hops[k].next;
            if (dist[v] == kUnreachable)
            {
                dist[v] = dist[u] + 1;
                frontier.push_back(v);
            }
        }
    }
}

/// Into \p ports, the ECMP set of switch \p si towards the anchor of \p dist: its ports
/// one hop closer, in port order (none at the anchor itself, or if it cannot reach it).
void
CloserPorts(const SwitchHops& t,
            const std::vector<uint32_t>& dist,
            uint32_t si,
            bool atAnchor,
            std::vector<uint32_t>& ports)
{
    ports.clear();
    if (atAnchor || dist[si] == kUnreachable)
    {
        return;
    }
    for (uint32_t k = t.firstHop[si]; k < t.firstHop[si + 1]; ++k)
    {
        if (dist[t.hops[k].next] + 1 == dist[si])
        {
            ports.push_back(t.hops[k].port);
        }
    }
}

/// Per anchor, the two largest base-RTT shares of its hosts' links (-1: fewer hosts), from
/// each link's share \p linkRtt and each host's link and anchor.
void
LargestHostShares(const std::vector<int64_t>& linkRtt,
                  const std::vector<uint32_t>& hostLink,
                  const std::vector<uint32_t>& hostAnchor,
                  std::vector<int64_t>& top1,
                  std::vector<int64_t>& top2)
{
    for (uint32_t hi = 0; hi < hostLink.size(); ++hi)
    {
        const int64_t c = linkRtt[hostLink[hi]];
        const uint32_t a = hostAnchor[hi];
        if (c > top1[a])
        {
            top2[a] = top1[a];
            top1[a] = c;
        }
        else if (c > top2[a])
        {
            top2[a] = c;
        }
    }
}

/// The switches \p dist reaches, by distance (counting sort), into \p order: so each
/// one's next hop comes before it.
void
OrderByDistance(const std::vector<uint32_t>& dist, std::vector<uint32_t>& order)
{
    std::vector<uint32_t> count;
    for (uint32_t si = 0; si < dist.size(); ++si)
    {
        if (dist[si] != kUnreachable)
        {
            if (count.size() <= dist[si])
            {
                count.resize(dist[si] + 1, 0);
            }
            ++count[dist[si]];
        }
    }
    std::vector<uint32_t> startOf(count.size() + 1, 0);
    for (size_t k = 0; k < count.size(); ++k)
    {
        startOf[k + 1] = startOf[k] + count[k];
    }
    order.assign(startOf.back(), 0);
    for (uint32_t si = 0; si < dist.size(); ++si)
    {
        if (dist[si] != kUnreachable)
        {
            order[startOf[dist[si]]++] = si;
        }
    }
}
} // namespace

void
RdmaTopology::IndexHosts()
{
    const uint32_t n = m_nodes.GetN();
    m_hostLink.assign(m_hosts.size(), 0);
    m_hostAnchor.assign(m_hosts.size(), 0);
    m_anchors.clear();
    m_anchorHosts.clear();
    std::vector<uint32_t> anchorOf(n, kUnreachable);
    for (uint32_t hi = 0; hi < m_hosts.size(); ++hi)
    {
        const uint32_t local = Local(m_hosts[hi]);
        const uint32_t li = m_portLinks[local].front(); // a host has exactly one link
        const Link& l = m_links[li];
        const uint32_t peer = Local(l.a) == local ? Local(l.b) : Local(l.a);
        if (anchorOf[peer] == kUnreachable)
        {
            anchorOf[peer] = m_anchors.size();
            m_anchors.push_back(peer);
            m_anchorHosts.emplace_back();
        }
        m_hostLink[hi] = li;
        m_hostAnchor[hi] = anchorOf[peer];
        m_anchorHosts[anchorOf[peer]].push_back(hi);
    }
}

void
RdmaTopology::ComputeRoutes()
{
    // Routes towards a host are those towards its anchor (the switch it is linked to),
    // one hop longer, except at the anchor itself: so one BFS per anchor, not per host.
    // Hosts do not forward.
    m_segments.clear();
    const uint32_t nSw = m_switches.size();
    m_dist.assign(m_anchors.size(), {});
    std::vector<uint32_t> frontier;
    frontier.reserve(nSw);
    std::vector<uint32_t> ports;
    const std::vector<uint32_t> none;
    SwitchHops t;
    t.firstHop.assign(nSw + 1, 0);
    for (uint32_t si = 0; si < nSw; ++si)
    {
        const uint32_t s = Local(m_switches[si]);
        t.firstHop[si] = t.hops.size();
        for (uint32_t li : m_portLinks[s])
        {
            const Link& l = m_links[li];
            const bool sIsA = Local(l.a) == s;
            const uint32_t v = sIsA ? Local(l.b) : Local(l.a);
            if (l.up && !m_isHost[v])
            {
                t.hops.push_back(SwitchHop{m_switchIndex[v], sIsA ? l.portA : l.portB});
            }
        }
    }
    t.firstHop[nSw] = t.hops.size();
    // Last anchor first: the highest host ids come first, so that each switch sizes its
    // table once rather than by doubling.
    for (uint32_t a = m_anchors.size(); a-- > 0;)
    {
        const uint32_t anchor = m_anchors[a];
        std::vector<uint32_t>& dist = m_dist[a];
        dist.assign(nSw, kUnreachable);
        if (!m_isHost[anchor])
        {
            SwitchDistances(t, m_switchIndex[anchor], dist, frontier);
        }
        for (uint32_t si = 0; si < nSw; ++si)
        {
            const uint32_t s = Local(m_switches[si]);
            if (!m_switchObjs[s])
            {
                continue; // another rank's switch: its rank routes it
            }
            CloserPorts(t, dist, si, s == anchor, ports);
            for (auto it = m_anchorHosts[a].rbegin(); it != m_anchorHosts[a].rend(); ++it)
            {
                const uint32_t hi = *it;
                const Link& hl = m_links[m_hostLink[hi]];
                if (!hl.up)
                {
                    m_switchObjs[s]->SetRoute(m_hosts[hi], none); // unreachable
                }
                else if (s == anchor)
                {
                    m_switchObjs[s]->SetRoute(m_hosts[hi],
                                              {Local(hl.a) == s ? hl.portA : hl.portB});
                }
                else
                {
                    m_switchObjs[s]->SetRoute(m_hosts[hi], ports);
                }
            }
        }
    }
}

uint32_t
RdmaTopology::NextLink(uint32_t u, uint32_t a) const
{
    // The first port, in port order, one hop closer (as the routes' first choice).
    const std::vector<uint32_t>& dist = m_dist[a];
    const uint32_t du = dist[m_switchIndex[u]];
    for (uint32_t li : m_portLinks[u])
    {
        const Link& l = m_links[li];
        const uint32_t v = Local(l.a) == u ? Local(l.b) : Local(l.a);
        if (l.up && !m_isHost[v] && dist[m_switchIndex[v]] + 1 == du)
        {
            return li;
        }
    }
    return kUnreachable;
}

RdmaTopology::SegmentInfo&
RdmaTopology::Segment(uint32_t from, uint32_t to) const
{
    const uint64_t key = (uint64_t(from) << 32) | to;
    auto it = m_segments.find(key);
    if (it != m_segments.end())
    {
        return it->second;
    }
    SegmentInfo seg;
    uint32_t u = m_anchors[from];
    const uint32_t target = m_anchors[to];
    NS_ABORT_MSG_IF(m_isHost[u] || m_isHost[target] || m_dist[to][m_switchIndex[u]] == kUnreachable,
                    "RdmaTopology: no path from node " << m_firstId + u << " to node "
                                                       << m_firstId + target);
    while (u != target)
    {
        const uint32_t li = NextLink(u, to);
        const Link& l = m_links[li];
        seg.links.push_back(li);
        u = Local(l.a) == u ? Local(l.b) : Local(l.a);
    }
    return m_segments.emplace(key, std::move(seg)).first->second;
}

RdmaTopology::PathView
RdmaTopology::Path(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_IF(!m_finalized, "RdmaTopology: Finalize before asking for paths");
    const uint32_t si = GetHostIndex(src);
    const uint32_t di = GetHostIndex(dst);
    NS_ABORT_MSG_IF(si == kNotAHost || di == kNotAHost, "RdmaTopology: not a host pair");
    PathView path;
    if (si == di)
    {
        return path;
    }
    path.head = m_hostLink[si];
    path.tail = m_hostLink[di];
    const Link& first = m_links[path.head];
    NS_ABORT_MSG_IF(!first.up || !m_links[path.tail].up,
                    "RdmaTopology: no path " << src << "->" << dst);
    if (path.head == path.tail)
    {
        path.size = 1; // two hosts linked to each other
        return path;
    }
    path.mid = &Segment(m_hostAnchor[si], m_hostAnchor[di]);
    path.size = path.mid->links.size() + 2;
    return path;
}

std::vector<RdmaTopology::Hop>
RdmaTopology::GetPath(uint32_t src, uint32_t dst) const
{
    const PathView view = Path(src, dst);
    std::vector<Hop> path;
    path.reserve(view.size);
    for (uint32_t i = 0; i < view.size; ++i)
    {
        const Link& l = m_links[view[i]];
        path.push_back(Hop{l.bitRate, l.delay});
    }
    return path;
}

uint32_t
RdmaTopology::GetPathLength(uint32_t src, uint32_t dst) const
{
    return Path(src, dst).size;
}

int64_t
RdmaTopology::LinkRttSteps(uint32_t link) const
{
    const uint64_t data = rdmawire::WireBytes(RdmaPacketType::DATA, GetMtu());
    const uint64_t ack = rdmawire::WireBytes(RdmaPacketType::ACK, 0);
    const Link& l = m_links[link];
    return WireTime(data, l.bitRate).GetTimeStep() + WireTime(ack, l.bitRate).GetTimeStep() +
           2 * l.delay.GetTimeStep();
}

Time
RdmaTopology::GetBaseRtt(uint32_t src, uint32_t dst) const
{
    const PathView path = Path(src, dst);
    if (path.size == 0)
    {
        return Time(0);
    }
    int64_t rtt = LinkRttSteps(path.head);
    if (path.size == 1)
    {
        return Time(rtt); // two hosts linked to each other
    }
    // The segment's share once per ToR pair (path shape), not once per flow.
    SegmentInfo& seg = *path.mid;
    if (seg.rttSteps == SegmentInfo::kUnknown)
    {
        seg.rttSteps = 0;
        for (uint32_t li : seg.links)
        {
            seg.rttSteps += LinkRttSteps(li);
        }
    }
    return Time(rtt + seg.rttSteps + LinkRttSteps(path.tail));
}

size_t
RdmaTopology::GetNPathShapes() const
{
    return m_segments.size();
}

Time
RdmaTopology::ComputeMaxBaseRtt() const
{
    // The base RTT of a host pair is its two host links' shares plus the share of the
    // switch segment between their anchors; that segment follows the first shortest
    // port at every switch, so its cost is one pass over the switches in BFS order per
    // destination anchor. Per anchor pair, the worst hosts give the largest RTT.
    const uint32_t nA = m_anchors.size();
    const uint32_t nSw = m_switches.size();
    // Each link's share once (not once per destination anchor): O(links).
    std::vector<int64_t> linkRtt(m_links.size());
    for (uint32_t li = 0; li < m_links.size(); ++li)
    {
        linkRtt[li] = LinkRttSteps(li);
    }
    std::vector<int64_t> top1(nA, -1);
    std::vector<int64_t> top2(nA, -1);
    LargestHostShares(linkRtt, m_hostLink, m_hostAnchor, top1, top2);
    int64_t best = 0;
    for (uint32_t a : m_anchors)
    {
        if (m_isHost[a])
        {
            // Two hosts linked to each other reach nothing else.
            NS_ABORT_MSG_IF(m_hosts.size() != 2,
                            "RdmaTopology: no path from node " << m_firstId + a << " to a switch");
            return Time(linkRtt[m_hostLink[0]]);
        }
    }
    std::vector<int64_t> cost(nSw, 0);
    std::vector<uint32_t> order;
    order.reserve(nSw);
    for (uint32_t d = 0; d < nA; ++d)
    {
        if (top2[d] >= 0)
        {
            best = std::max(best, top1[d] + top2[d]); // two hosts of the same anchor
        }
        if (nA == 1)
        {
            break;
        }
        const uint32_t target = m_anchors[d];
        const std::vector<uint32_t>& dist = m_dist[d];
        OrderByDistance(dist, order);
        for (uint32_t si : order)
        {
            const uint32_t u = Local(m_switches[si]);
            if (u == target)
            {
                cost[si] = 0;
                continue;
            }
            const uint32_t li = NextLink(u, d);
            const Link& l = m_links[li];
            const uint32_t v = Local(l.a) == u ? Local(l.b) : Local(l.a);
            cost[si] = linkRtt[li] + cost[m_switchIndex[v]];
        }
        for (uint32_t s = 0; s < nA; ++s)
        {
            if (s == d)
            {
                continue;
            }
            const uint32_t from = m_anchors[s];
            NS_ABORT_MSG_IF(dist[m_switchIndex[from]] == kUnreachable,
                            "RdmaTopology: no path from node " << m_firstId + from << " to node "
                                                               << m_firstId + target);
            best = std::max(best, top1[s] + cost[m_switchIndex[from]] + top1[d]);
        }
    }
    return Time(best);
}

Time
RdmaTopology::GetMaxBaseRtt() const
{
    return m_maxBaseRtt;
}

uint64_t
RdmaTopology::GetBdp(uint32_t src, uint32_t dst) const
{
    const uint64_t rate = m_links[Path(src, dst).head].bitRate;
    return static_cast<uint64_t>(double(rate) / 8 * GetBaseRtt(src, dst).GetSeconds());
}

Time
RdmaTopology::GetIdealFct(uint32_t src, uint32_t dst, uint64_t bytes) const
{
    const uint32_t mtu = GetMtu();
    const uint64_t full = bytes / mtu;
    const uint32_t rest = bytes % mtu;
    const uint64_t mtuWire = rdmawire::WireBytes(RdmaPacketType::DATA, mtu);
    const uint64_t lastWire = rest ? rdmawire::WireBytes(RdmaPacketType::DATA, rest) : mtuWire;
    const uint64_t totalWire = full * mtuWire + (rest ? lastWire : 0);
    const uint64_t ack = rdmawire::WireBytes(RdmaPacketType::ACK, 0);
    const PathView path = Path(src, dst);
    uint32_t bottleneck = 0;
    for (uint32_t i = 1; i < path.size; ++i)
    {
        if (m_links[path[i]].builtRate < m_links[path[bottleneck]].builtRate)
        {
            bottleneck = i;
        }
    }
    Time t = WireTime(totalWire, m_links[path[bottleneck]].builtRate);
    for (uint32_t i = 0; i < path.size; ++i)
    {
        const Link& l = m_links[path[i]];
        if (i != bottleneck)
        {
            t += WireTime(lastWire, l.builtRate);
        }
        t += l.delay * 2 + WireTime(ack, l.builtRate);
    }
    return t;
}

} // namespace ns3
