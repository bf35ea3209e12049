/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_COLLECTIVE_REPLAY_H
#define RDMA_COLLECTIVE_REPLAY_H

#include "ns3/collective-trace.h"
#include "ns3/traffic-driver.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Plays a CollectiveTrace on a TrafficDriver: each flow is posted when every group it
 * waits for has completed on its sending host, gap_ns later, and not before
 * release_ns (a flow without waits starts at release_ns). A group has completed on a
 * host when the host's flows of the group -- sent or received -- have completed (at the
 * requester: last byte acknowledged); a group without flows on a host is complete there
 * from the start. Records, per group, when its first flow was posted and its last one
 * completed: collectives.csv and the collective_* keys of summary.json.
 *
 * Bookkeeping is per flow and per (host, group), never per packet.
 */
class CollectiveReplay
{
  public:
    /**
     * \param rankHosts host index of each rank of the trace
     * \param defaultPriority class of flows whose trace prio is empty
     * \param shareQps all flows from one host to another in one class share one QP (in
     *        order, as small messages on one connection); else one QP per flow
     */
    CollectiveReplay(TrafficDriver& driver,
                     const CollectiveTrace& trace,
                     const std::vector<uint32_t>& rankHosts,
                     uint8_t defaultPriority,
                     bool shareQps);

    /// Schedule the flows that wait for nothing; call before Simulator::Run.
    void Start();

    struct GroupStats
    {
        Time start = Time::Max(); ///< first flow posted
        Time end;                 ///< last flow completed
        uint64_t flows = 0;
        uint64_t bytes = 0;
        uint64_t completed = 0;
    };

    const std::vector<GroupStats>& GetGroupStats() const;
    /// collectives.csv: phase,layer,start_ns,end_ns,duration_ns,flows,bytes.
    void WriteCsv(std::ostream& out) const;
    /// The collective_* keys of summary.json.
    void Summarize(nlohmann::json& summary) const;

  private:
    struct FlowState
    {
        uint32_t srcHost;
        uint32_t dstHost;
        uint32_t pending = 0; ///< (host, group) waits not yet complete
        Time ready;           ///< latest completion among the waited groups
    };

    static uint64_t Key(uint32_t host, uint32_t group);
    void Completed(const TrafficDriver::Record& r);
    void GroupDoneOnHost(uint64_t key);
    void Release(uint32_t index);

    TrafficDriver& m_driver;
    CollectiveTrace m_trace;
    uint64_t m_firstFlowId;
    std::vector<FlowState> m_flows;
    std::unordered_map<uint64_t, uint32_t> m_remaining;            ///< (host, group) -> flows left
    std::unordered_map<uint64_t, std::vector<uint32_t>> m_waiters; ///< (host, group) -> flows
    std::vector<GroupStats> m_groups;
};

} // namespace ns3

#endif /* RDMA_COLLECTIVE_REPLAY_H */
