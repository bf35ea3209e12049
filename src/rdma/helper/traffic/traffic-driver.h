/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TRAFFIC_DRIVER_H
#define RDMA_TRAFFIC_DRIVER_H

#include "ns3/flow-spec.h"
#include "ns3/rdma-topology.h"

#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Turns flow specifications into QPs and posted messages on a finalized topology, and
 * reports every completion with its ideal completion time.
 *
 * Flows are "foreground" (the run ends when they are all complete) except latency
 * probes, which repeat in the background until the foreground is done.
 *
 * Over MPI ranks a probe's rank cannot see when the other ranks' foreground is done, so
 * it keeps probing until the ranks have compared (SetForegroundEnd). Its records are
 * kept back once its own foreground is done: those of probes posted before the end of
 * the whole foreground are then reported, in order, as a serial run would have; the
 * later ("late") ones are not, and only counted (GetLateProbes).
 */
class TrafficDriver
{
  public:
    /// One completed message.
    struct Record
    {
        uint64_t flowId;
        FlowKind kind;
        uint32_t src;
        uint32_t dst;
        uint32_t qpn;
        uint8_t priority;
        uint64_t bytes;
        Time start;
        Time end;
        Time ideal;
        /// The completion event's uid if events are ordered by node
        /// (RdmaSim::OrdersByNode), else 0: over ranks, it puts the records of one
        /// instant in the serial run's order.
        uint32_t order = 0;
    };

    using RecordCallback = Callback<void, const Record&>;

    explicit TrafficDriver(RdmaTopology& topo);

    /// Add a foreground flow (own QP); returns its flow id.
    uint64_t AddFlow(const FlowSpec& flow);
    /**
     * Add a foreground flow that is posted only when ReleaseFlow says so (dependencies
     * resolved during the run, e.g. collectives); its start is ignored. With
     * \p shareQpOf = the id of an earlier flow between the same hosts, it uses that
     * flow's QP (an RC QP carries its messages in order) instead of a new one.
     */
    uint64_t AddDeferredFlow(const FlowSpec& flow, int64_t shareQpOf = -1);
    /// Post deferred flow \p flowId after \p delay (once).
    void ReleaseFlow(uint64_t flowId, Time delay);
    /**
     * A latency probe: one QP from \p src to \p dst posting a \p bytes message every
     * \p interval (closed loop: never before the previous one completed) from \p start
     * until the foreground traffic is done. \p rateLimited false takes its QP out of
     * congestion control (RdmaNic::ExemptFromCongestionControl).
     */
    void AddProbe(uint32_t src,
                  uint32_t dst,
                  uint64_t bytes,
                  Time start,
                  Time interval,
                  uint8_t priority,
                  bool rateLimited = true);

    /// Schedule everything; call once before Simulator::Run.
    void Start();
    void SetRecordCallback(RecordCallback cb);
    /// One more receiver of every completed message (called after the record callback).
    void AddCompletionListener(RecordCallback cb);
    using DeliveryCallback = Callback<void, uint64_t>;
    /**
     * One more receiver of every delivery: \p cb gets the id of a foreground flow whose
     * message has arrived whole at its receiver (RdmaNic::SetDeliveryCallback), on the
     * receiver's rank. Flows sharing a QP must be posted in flow id order. Call before
     * Start.
     */
    void AddDeliveryListener(DeliveryCallback cb);
    /**
     * Called once when every foreground flow has completed and no probe is in flight (a
     * serial run, or one rank: over more ranks the ranks compare GetRankProgress).
     */
    void SetDoneCallback(Callback<void> cb);

    /// Where this rank is, for the ranks' comparison of whether the run is over.
    struct RankProgress
    {
        bool foregroundDone; ///< this rank's foreground flows have completed (none: true)
        Time foregroundEnd;  ///< when (0 if it has none)
        /// The post time of the oldest probe message in flight (Time::Max(): none).
        Time oldestProbeInFlight;
    };

    /**
     * This rank's progress. The foreground of a run without foreground flows is never
     * done: its probes run until the stop time, as serially.
     */
    RankProgress GetRankProgress() const;
    /**
     * Over MPI ranks: every rank's foreground is done, the last of it at \p end. Probes
     * stop; the records kept back of probes posted before \p end are reported, the
     * others dropped as late. Call once, on every rank.
     */
    void SetForegroundEnd(Time end);
    /// The end of the last completion reported (foreground or probe).
    Time GetLastRecordEnd() const;
    /// Probe messages posted after the foreground's end over ranks: not reported.
    uint64_t GetLateProbes() const;
    /// Their payload bytes (sent on the wire, in the tail after the run's end).
    uint64_t GetLateProbeBytes() const;

    uint64_t GetFlowsTotal() const;     ///< foreground flows
    uint64_t GetFlowsCompleted() const; ///< foreground flows completed
    uint64_t GetProbesCompleted() const;
    /// Payload bytes the foreground flows will carry (unbounded flows: 0).
    uint64_t GetForegroundBytes() const;
    bool IsDone() const;
    /// Foreground flows this rank posts (all of them in a serial run); set by Start.
    uint64_t GetLocalFlows() const;
    /// Whether foreground flow \p flowId is posted on this rank (its source is local).
    bool IsLocalFlow(uint64_t flowId) const;
    /// (host node id, QP number) carrying foreground flow \p flowId (any flow).
    std::pair<uint32_t, uint32_t> GetFlowQp(uint64_t flowId) const;
    /// The size of foreground flow \p flowId (any flow; unbounded: RdmaMessage::kUnbounded).
    uint64_t GetFlowBytes(uint64_t flowId) const;
    /**
     * Whether this rank keeps flow \p flowId whole: one of its ends is local (every flow
     * in a serial run). Over MPI ranks a flow between two other ranks' hosts is only
     * numbered (its id, its QPs, its port), so that each rank's memory shrinks with its
     * part of the fabric.
     */
    bool IsKept(uint64_t flowId) const;
    /// GetKeptIndex of a flow that is not kept.
    static constexpr uint64_t kNotKept = ~uint64_t(0);
    /// The index of flow \p flowId among the kept flows (in id order), or kNotKept.
    uint64_t GetKeptIndex(uint64_t flowId) const;
    /// The id of the kept flow of index \p index.
    uint64_t GetKeptId(uint64_t index) const;
    /// The number of flows kept so far.
    uint64_t GetKeptFlows() const;
    /// The specification of kept foreground flow \p flowId (read-only).
    const FlowSpec& GetFlowSpec(uint64_t flowId) const;

  private:
    /// Message ids of probe messages: this bit plus the probe index.
    static constexpr uint64_t kProbeBit = 1ULL << 62;

    struct Probe
    {
        uint32_t src;
        uint32_t dst;
        uint64_t bytes;
        Time start;
        Time interval;
        uint8_t priority;
        uint32_t qpn;
        Time lastPost;
        bool inFlight = false;
    };

    struct FlowState
    {
        FlowSpec spec;
        uint32_t qpn;          ///< requester QP number (on the source)
        uint32_t recvQpn;      ///< responder QP number (on the destination)
        bool deferred = false; ///< posted by ReleaseFlow, not at spec.start
    };

    /// What every flow keeps over MPI ranks, kept or not (GetFlowQp, GetFlowBytes).
    struct FlowBrief
    {
        uint64_t bytes;
        uint32_t src;
        uint32_t qpn;
    };

    /// A new QP from \p src to \p dst; returns (requester, responder) QP numbers.
    std::pair<uint32_t, uint32_t> Connect(uint32_t src, uint32_t dst, uint8_t priority);
    /// Add flow \p s (numbered, kept if an end is local); returns its id.
    uint64_t Add(const FlowState& s);
    void PostFlow(uint64_t slot);
    void PostProbe(uint32_t probe);
    void Completed(const RdmaNic::Completion& c);
    /// Fill \p r from probe message \p index's completion and post the next message;
    /// false if \p r is kept back or late (not reported now).
    bool ProbeCompleted(uint32_t index, Record& r);
    /// Number a probe's record (its flow id, after the foreground's) and count it.
    void NumberProbe(Record& r);
    /// Report \p r: its ideal completion time, then the callbacks.
    void Report(Record& r);
    void Delivered(uint32_t node, uint32_t recvQpn);
    /// The per-QP delivery order of the flows whose receivers are local (listeners only).
    void IndexDeliveries();

    RdmaTopology& m_topo;
    std::vector<FlowState> m_flows; ///< the kept flows, in id order
    uint64_t m_total = 0;           ///< flows added, kept or not
    /// Once a flow is not kept (over ranks): each kept flow's id, and every flow's brief.
    /// Until then a flow's id is its index in m_flows.
    bool m_sparse = false;
    std::vector<uint64_t> m_ids;
    std::vector<FlowBrief> m_briefs;
    std::vector<Probe> m_probes;
    uint64_t m_completed;
    uint64_t m_localFlows = 0; ///< foreground flows whose source this rank steps
    uint64_t m_probesCompleted;
    uint64_t m_probeSeq;
    uint64_t m_probesPosted;
    bool m_foregroundDone; ///< over ranks: every rank's (SetForegroundEnd)
    /// Over MPI ranks (not every host is this rank's): probes and the end as above.
    bool m_split = false;
    bool m_localForegroundDone = false;
    Time m_localForegroundEnd;
    Time m_foregroundEnd = Time::Max(); ///< over ranks, once known
    std::vector<Record> m_heldProbes;   ///< kept back, in completion order
    uint64_t m_lateProbes = 0;
    uint64_t m_lateProbeBytes = 0;
    Time m_lastRecordEnd;
    uint64_t m_foregroundBytes;
    bool m_started;
    bool m_done;
    std::vector<uint32_t> m_nextSport; ///< per host
    /// Over MPI ranks, per host: the next send and receive QP numbers of another rank's
    /// NIC (Connect).
    std::vector<std::pair<uint32_t, uint32_t>> m_remoteQpns;
    RecordCallback m_recordCallback;
    std::vector<RecordCallback> m_listeners;
    std::vector<DeliveryCallback> m_deliveryListeners;
    /// Per host: receive QP number -> the next flow it delivers (slot; kNoFlow: none).
    std::vector<std::vector<uint64_t>> m_nextDelivery;
    std::vector<uint64_t> m_nextOnQp; ///< per kept flow: the next on its QP (slot; kNoFlow: none)
    Callback<void> m_doneCallback;
};

} // namespace ns3

#endif /* RDMA_TRAFFIC_DRIVER_H */
