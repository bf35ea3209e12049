/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_COLLECTIVE_TRACE_H
#define RDMA_COLLECTIVE_TRACE_H

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * One flow of a collective trace: a message from rank src to rank dst that belongs to
 * the group (phase, layer) and starts once every group it waits for has completed on
 * its sending host, gap_ns later, and not before release_ns.
 */
struct TraceFlow
{
    uint64_t flowId = 0;
    int64_t releaseNs = 0;
    uint32_t src = 0; ///< rank
    uint32_t dst = 0; ///< rank
    uint64_t bytes = 0;
    std::string phase; ///< e.g. dispatch, combine
    uint32_t layer = 0;
    std::vector<uint32_t> waits; ///< indices into CollectiveTrace::groups
    int64_t gapNs = 0;
    int32_t priority = -1; ///< -1: the default data class
    uint32_t group = 0;    ///< index of (phase, layer) in CollectiveTrace::groups
};

/**
 * \ingroup rdma
 * A collective trace: flows with dependencies between groups, as a CSV
 * `flow_id,release_ns,src,dst,bytes,phase,layer,wait_groups,gap_ns,prio`.
 *
 * A group is a (phase, layer) pair, written `phase:layer` in wait_groups (several
 * separated by ';', empty for none); prio may be empty. A group has completed on a host
 * when every flow of the group that the host sends or receives has completed (a group
 * with no flow on a host has completed there from the start). Dependencies stay local
 * to one host: a flow waits for its groups on its own sending host. The groups must not
 * wait for each other in a cycle (that could never start).
 *
 * Read checks every line (file:line in the error): the header, numbers, ranks below
 * \p ranks, distinct flow ids, phases made of letters, digits, '_' and '-', waits for
 * groups that have flows, and no cycle.
 */
struct CollectiveTrace
{
    struct Group
    {
        std::string phase;
        uint32_t layer;
    };

    std::vector<TraceFlow> flows;
    std::vector<Group> groups;
    std::map<std::pair<std::string, uint32_t>, uint32_t> groupIndex; ///< (phase, layer) -> group

    /// Index of group (phase, layer), created if new.
    uint32_t GroupIndex(const std::string& phase, uint32_t layer);
    /// Throws ScenarioError if groups wait for each other in a cycle (\p origin names
    /// the input).
    void CheckAcyclic(const std::string& origin) const;

    static CollectiveTrace Read(const std::string& path, uint32_t ranks);
    void Write(std::ostream& out) const;
    /// The CSV header line (without newline).
    static const char* Header();
};

} // namespace ns3

#endif /* RDMA_COLLECTIVE_TRACE_H */
