/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ROUTE_TABLE_H
#define RDMA_ROUTE_TABLE_H

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
 */
class RouteTable
{
  public:
    RouteTable()
        : m_sets(1) // set 0: no route
    {
    }

    /// The ports towards node \p dst (empty: none).
    void Set(uint32_t dst, const std::vector<uint32_t>& ports)
    {
        if (m_setOf.size() <= dst)
        {
            m_setOf.resize(dst + 1, 0);
        }
        m_setOf[dst] = Intern(ports);
    }

    const std::vector<uint32_t>& Get(uint32_t dst) const
    {
        return dst < m_setOf.size() ? m_sets[m_setOf[dst]] : m_sets[0];
    }

    /// Distinct port sets held (the empty one included).
    size_t GetNSets() const
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

    std::vector<uint32_t> m_setOf;                     ///< by destination node id
    std::vector<std::vector<uint32_t>> m_sets;         ///< distinct port sets
    std::map<std::vector<uint32_t>, uint32_t> m_index; ///< set -> its index
    uint32_t m_last = 0;                               ///< the set given last
};

} // namespace ns3

#endif /* RDMA_ROUTE_TABLE_H */
