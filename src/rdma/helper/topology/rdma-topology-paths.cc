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
#include <queue>

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
} // namespace

void
RdmaTopology::ComputeRoutes()
{
    const uint32_t n = m_nodes.GetN();
    m_dist.assign(m_hosts.size(), {});
    for (uint32_t hi = 0; hi < m_hosts.size(); ++hi)
    {
        // BFS from the destination host; hosts other than it do not forward.
        const uint32_t dst = Local(m_hosts[hi]);
        std::vector<uint32_t>& dist = m_dist[hi];
        dist.assign(n, kUnreachable);
        dist[dst] = 0;
        std::queue<uint32_t> frontier;
        frontier.push(dst);
        while (!frontier.empty())
        {
            const uint32_t u = frontier.front();
            frontier.pop();
            if (m_isHost[u] && u != dst)
            {
                continue;
            }
            for (uint32_t li : m_portLinks[u])
            {
                const Link& l = m_links[li];
                const uint32_t v = Local(l.a) == u ? Local(l.b) : Local(l.a);
                if (l.up && dist[v] == kUnreachable)
                {
                    dist[v] = dist[u] + 1;
                    frontier.push(v);
                }
            }
        }
        for (uint32_t s = 0; s < n; ++s)
        {
            if (m_isHost[s])
            {
                continue;
            }
            if (dist[s] == kUnreachable)
            {
                m_switchObjs[s]->SetRoute(m_hosts[hi], {});
                continue;
            }
            std::vector<uint32_t> ports;
            for (uint32_t li : m_portLinks[s])
            {
                const Link& l = m_links[li];
                const bool sIsA = Local(l.a) == s;
                const uint32_t v = sIsA ? Local(l.b) : Local(l.a);
                if (l.up && dist[v] != kUnreachable && dist[v] + 1 == dist[s] &&
                    (!m_isHost[v] || v == dst))
                {
                    ports.push_back(sIsA ? l.portA : l.portB);
                }
            }
            m_switchObjs[s]->SetRoute(m_hosts[hi], ports);
        }
    }
}

std::vector<RdmaTopology::Hop>
RdmaTopology::GetPath(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_IF(!m_finalized, "RdmaTopology: Finalize before asking for paths");
    const auto it = std::find(m_hosts.begin(), m_hosts.end(), dst);
    NS_ABORT_MSG_IF(it == m_hosts.end() || !IsHost(src), "RdmaTopology: not a host pair");
    const std::vector<uint32_t>& dist = m_dist[it - m_hosts.begin()];
    std::vector<Hop> path;
    uint32_t u = Local(src);
    NS_ABORT_MSG_IF(dist[u] == kUnreachable, "RdmaTopology: no path " << src << "->" << dst);
    while (u != Local(dst))
    {
        for (uint32_t li : m_portLinks[u])
        {
            const Link& l = m_links[li];
            const uint32_t v = Local(l.a) == u ? Local(l.b) : Local(l.a);
            if (l.up && dist[v] + 1 == dist[u] && (!m_isHost[v] || v == Local(dst)))
            {
                path.push_back(Hop{l.bitRate, l.delay});
                u = v;
                break;
            }
        }
    }
    return path;
}

Time
RdmaTopology::GetBaseRtt(uint32_t src, uint32_t dst) const
{
    const uint64_t data = rdmawire::WireBytes(RdmaPacketType::DATA, GetMtu());
    const uint64_t ack = rdmawire::WireBytes(RdmaPacketType::ACK, 0);
    Time rtt;
    for (const Hop& h : GetPath(src, dst))
    {
        rtt += WireTime(data, h.bitRate) + WireTime(ack, h.bitRate) + h.delay * 2;
    }
    return rtt;
}

Time
RdmaTopology::GetMaxBaseRtt() const
{
    return m_maxBaseRtt;
}

uint64_t
RdmaTopology::GetBdp(uint32_t src, uint32_t dst) const
{
    const uint64_t rate = GetPath(src, dst).front().bitRate;
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
    const std::vector<Hop> path = GetPath(src, dst);
    size_t bottleneck = 0;
    for (size_t i = 1; i < path.size(); ++i)
    {
        if (path[i].bitRate < path[bottleneck].bitRate)
        {
            bottleneck = i;
        }
    }
    Time t = WireTime(totalWire, path[bottleneck].bitRate);
    for (size_t i = 0; i < path.size(); ++i)
    {
        if (i != bottleneck)
        {
            t += WireTime(lastWire, path[i].bitRate);
        }
        t += path[i].delay * 2 + WireTime(ack, path[i].bitRate);
    }
    return t;
}

} // namespace ns3
