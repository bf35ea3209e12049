/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ROUTE_TABLE_H
#define RDMA_ROUTE_TABLE_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A switch's routes: the equal-cost egress ports towards each destination node, kept as
 * one index (4 bytes) per destination into the switch's distinct port sets. A fabric's
 * hosts behind the same ToR share one set at every other switch, so a 10,000-host
 * fat-tree needs a few dozen sets per switch instead of a vector per host (about 1 GB
 * over its 1,445 switches).
 *
 * A destination reached through one port keeps that port itself in its entry (Route), so
 * that forwarding a frame there reads one entry and not the set behind it: on a large
 * fabric each of those reads is a cache miss of its own.
 */
class RouteTable
{
  public:
    RouteTable()
        : m_sets(1) // set 0: no route
    {
    }

    /// Route's answer when \p dst has no single port (none, or several).
    static constexpr uint32_t kNotSingle = UINT32_MAX;

    /// The ports towards node \p dst (empty: none; a port number below 2^31).
    void Set(uint32_t dst, const std::vector<uint32_t>& ports)
    {
        if (m_setOf.size() <= dst)
        {
            m_setOf.resize(dst + 1, 0);
        }
        const uint32_t set = Intern(ports);
        if (ports.size() != 1)
        {
            m_setOf[dst] = set;
            return;
        }
        const uint32_t port = ports[0];
        if (m_setOfPort.size() <= port)
        {
            m_setOfPort.resize(port + 1, 0);
        }
        m_setOfPort[port] = set;
        m_setOf[dst] = kSingle | port;
    }

    const std::vector<uint32_t>& Get(uint32_t dst) const
    {
        if (dst >= m_setOf.size())
        {
            return m_sets[0];
        }
        const uint32_t e = m_setOf[dst];
        return m_sets[(e & kSingle) != 0 ? m_setOfPort[e & ~kSingle] : e];
    }

    /**
     * The forwarding lookup: the one port towards \p dst if there is exactly one (one
     * read), else kNotSingle with \p *ports set to its ports (empty: no route).
     */
    uint32_t Route(uint32_t dst, const std::vector<uint32_t>** ports) const
    {
        const uint32_t e = dst < m_setOf.size() ? m_setOf[dst] : 0;
        if ((e & kSingle) != 0)
        {
            return e & ~kSingle;
        }
        *ports = &m_sets[e];
        return kNotSingle;
    }

    /// Distinct port sets held (the empty one included).
    std::size_t GetNSets() const
    {
        return m_sets.size();
    }

  private:
    uint32_t Intern(const std::vector<uint32_t>& ports)
    {
        if (ports.empty())
        {
            return 0;
        }
        if (m_sets[m_last] == ports)
        {
            return m_last; // routes are usually set destination after destination alike
        }
        auto it = m_index.find(ports);
        if (it == m_index.end())
        {
            it = m_index.emplace(ports, m_sets.size()).first;
            m_sets.push_back(ports);
        }
        m_last = it->second;
        return m_last;
    }

    static constexpr uint32_t kSingle = 1u << 31; ///< entry flag: the rest is the port

    /// by destination node id: its set's index, or kSingle | its one port
    std::vector<uint32_t> m_setOf;
    std::vector<uint32_t> m_setOfPort;                 ///< one port's set, by port (Get)
    std::vector<std::vector<uint32_t>> m_sets;         ///< distinct port sets
    std::map<std::vector<uint32_t>, uint32_t> m_index; ///< set -> its index
    uint32_t m_last = 0;                               ///< the set given last
};

} // namespace ns3

#endif /* RDMA_ROUTE_TABLE_H */
