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
 * host when the host's flows of the group -- sent or received -- are done there; a group
 * without flows on a host is complete there from the start. A flow the host sends is
 * done when its last byte is acknowledged. A flow it receives is done, as its sender sees
 * it, when that acknowledgement arrives (Wait::ACKNOWLEDGED), or, as the receiver sees
 * it, when its last byte is delivered (Wait::DELIVERED: then every host waits only on
 * what happens at itself, which is what lets the replay run over MPI ranks). Records, per group,
 * when its first flow was posted and its last one completed: collectives.csv and the collective_*
 * keys of summary.json.
 *
 * Bookkeeping is per flow and per (host, group), never per packet.
 */
class CollectiveReplay
{
  public:
    /// When a host counts a flow it receives as done.
    enum class Wait
    {
        ACKNOWLEDGED, ///< its last byte acknowledged at the sender
        DELIVERED,    ///< its last byte delivered at the receiver (RdmaNic delivery)
    };

    /**
     * \param trace the flows and groups; it must outlive the replay (not copied). Over
     *        MPI ranks the replay keeps only the flows with an end on this rank
     *        (TrafficDriver::IsKept), and DropRemoteFlows moves them out of it.
     * \param rankHosts host index of each rank of the trace
     * \param defaultPriority class of flows whose trace prio is empty
     * \param shareQps all flows from one host to another in one class share one QP (in
     *        order, as small messages on one connection); else one QP per flow. With
     *        Wait::DELIVERED, the flows of a QP are posted in trace order (a flow released
     *        before the one ahead of it waits for it), as its receiver counts them so.
     * \param wait when a received flow is done
     */
    CollectiveReplay(TrafficDriver& driver,
                     CollectiveTrace& trace,
                     const std::vector<uint32_t>& rankHosts,
                     uint8_t defaultPriority,
                     bool shareQps,
                     Wait wait = Wait::ACKNOWLEDGED);

    /// Schedule the flows that wait for nothing; call before Simulator::Run.
    void Start();
    /**
     * Over MPI ranks, once the trace was written out: move the kept flows' rows out of
     * the trace and drop the others, leaving its groups (each rank's memory then shrinks
     * with its part). Nothing when every flow is kept.
     */
    void DropRemoteFlows();

    struct GroupStats
    {
        Time start = Time::Max(); ///< first flow posted
        Time end;                 ///< last flow completed
        uint64_t flows = 0;
        uint64_t bytes = 0;
        uint64_t completed = 0;
    };

    const std::vector<GroupStats>& GetGroupStats() const;
    /**
     * Over MPI ranks: make every rank's group statistics those of the whole run (each
     * rank saw its own senders' completions). Collective; nothing in a serial run.
     */
    void CombineRanks();
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
        uint32_t nextOnQp;    ///< Wait::DELIVERED: the next flow on its QP, or kNone
        bool behind = false;  ///< Wait::DELIVERED: the flow ahead on its QP is not posted yet
        bool held = false;    ///< released, waiting for the flow ahead (at heldAt)
        Time heldAt;
    };

    static constexpr uint32_t kNone = ~uint32_t(0);

    static uint64_t Key(uint32_t host, uint32_t group);
    /// Index in m_flows of flow \p flowId, or kNone if it is not one kept here.
    uint32_t Index(uint64_t flowId) const;
    /// The flow id of m_flows[\p i].
    uint64_t IdOf(uint32_t i) const;
    /// The trace row of m_flows[\p i].
    const TraceFlow& Row(uint32_t i) const;
    void Completed(const TrafficDriver::Record& r);
    void Delivered(uint64_t flowId);
    /// Flow \p index is done on \p host (as a sender or a receiver).
    void DoneOnHost(uint32_t index, uint32_t host);
    void GroupDoneOnHost(uint64_t key);
    void Release(uint32_t index);
    /// Post flow \p index at \p at, unless the flow ahead on its QP is not posted yet.
    void Post(uint32_t index, Time at);

    TrafficDriver& m_driver;
    CollectiveTrace& m_trace; ///< the caller's, not copied (the run's largest table)
    Wait m_wait;
    uint64_t m_firstFlowId;
    uint64_t m_traceFlows;          ///< flows of the trace, kept or not (ids from m_firstFlowId)
    uint64_t m_firstKept;           ///< the driver's kept index of m_flows[0]
    std::vector<FlowState> m_flows; ///< the flows the driver keeps (TrafficDriver::IsKept)
    /// Once a flow is not kept (over ranks): each kept flow's trace row (until
    /// DropRemoteFlows, then m_own holds the rows). Until then m_flows[i] is trace row i.
    bool m_sparse = false;
    bool m_dropped = false;
    std::vector<uint32_t> m_traceOf;
    std::vector<TraceFlow> m_own;
    std::unordered_map<uint64_t, uint32_t> m_remaining;            ///< (host, group) -> flows left
    std::unordered_map<uint64_t, std::vector<uint32_t>> m_waiters; ///< (host, group) -> flows
    std::vector<GroupStats> m_groups;
};

} // namespace ns3

#endif /* RDMA_COLLECTIVE_REPLAY_H */
