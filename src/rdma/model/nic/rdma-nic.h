/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "ns3/host-rx-model.h"
#include "ns3/loss-recovery.h"
#include "ns3/member-event.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/path-selector.h"
#include "ns3/qp-scheduler.h"
#include "ns3/queue-pair.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-port-owner.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A RoCEv2 RDMA NIC (one port) with reliable-connected queue pairs.
 *
 * Requester: messages are cut into packets of Mtu payload bytes with consecutive PSNs;
 * each QP is paced at the rate its congestion controller decides (per QP, or shared by
 * all QPs to one destination: RateLimitPerDestination), optionally limited to a window
 * of bytes in flight; QPs take turns (round robin) whenever the port is free. Data
 * packets carry their send time, echoed by the ACK (RTT samples), and collect INT
 * records when the controller needs them. The NIC sends an RTT probe when the controller
 * asks (one outstanding; its timeout doubles on each unanswered probe).
 *
 * Loss recovery is a policy (attribute LossRecovery, a LossRecovery: GoBackN by default,
 * SelectiveRepeat, DirectPlacement), which decides what the responder answers to each
 * data packet and what the requester sends after a NACK or a timeout; InflightCap bounds
 * the packets in flight (IRN's BDP-FC). A retransmission timeout always exists, so no run
 * can stall. Responders ACK every AckInterval packets and each message's last packet
 * (as the policy says), and answer CE-marked packets with CNPs (at most one per
 * CnpInterval per QP). ACK, NACK, CNP and probe responses travel in the port's strict
 * class. The UDP source port (ECMP entropy) of each data packet is a policy too
 * (attribute PathSelector, a PathSelector: PerQpEntropy, the QP's own port, by default;
 * oblivious, bitmap and REPS spraying over a space of entropies); ACKs and NACKs echo
 * the entropy of the packet they answer, and the policy hears of them.
 *
 * The implementation is split by concern: rdma-nic.cc (attributes, QPs, posting, receive
 * dispatch), rdma-nic-pacing.cc (requester: which QP sends, pacing, the packets it
 * builds), rdma-nic-recovery.cc (requester: ACK, NACK, probe answers and timeouts handed
 * to the controller and the loss-recovery policy, completions) and rdma-nic-responder.cc
 * (data answered as the policy decides, CNPs, probe answers).
 */
class RdmaNic : public Object, public RdmaPortOwner
{
  public:
    /// Completion of a message at the requester (its last byte acknowledged).
    struct Completion
    {
        uint32_t node;
        uint32_t qpn;
        uint64_t flowId;
        uint64_t bytes;
        Time posted;
        Time completed;
    };

    using CompletionCallback = Callback<void, const Completion&>;
    using CompletionTracedCallback = void (*)(const Completion&);
    /// A message delivered at the responder: (this NIC's node, the receive QP number).
    using DeliveryCallback = Callback<void, uint32_t, uint32_t>;
    using DeliveryTracedCallback = void (*)(uint32_t node, uint32_t qpn);

    /// NIC-wide counters.
    struct Stats
    {
        uint64_t payloadBytesSent = 0;      ///< first transmissions only
        uint64_t payloadBytesDelivered = 0; ///< accepted in order at this responder
        Time lastDelivery;                  ///< when payloadBytesDelivered last grew
        uint64_t dataPackets = 0;           ///< incl. retransmissions
        uint64_t retransmittedPackets = 0;
        uint64_t timeouts = 0;
        uint64_t acksSent = 0;
        uint64_t nacksSent = 0;
        uint64_t cnpsSent = 0;
        uint64_t cnpsReceived = 0;
        uint64_t outOfOrderPackets = 0;
        uint64_t trimmedReceived = 0; ///< DATA headers a switch trimmed (FLAG_TRIMMED)
        uint64_t probesSent = 0;
        uint64_t probeTimeouts = 0;
    };

    static TypeId GetTypeId();

    /// Lines of a SendQueuePair that a pull and an acknowledgement read (its first two;
    /// checked below this class against the fields they must hold).
    static constexpr uint32_t kQpLines = 2;

    RdmaNic();

    /// Attach the NIC's port (already added to the node and to a channel).
    void SetDevice(Ptr<RdmaNetDevice> device);
    Ptr<RdmaNetDevice> GetDevice() const;
    /// The congestion controller created for each new QP.
    void SetCongestionControl(const ObjectFactory& factory);
    /// Context handed to new QPs' controllers (line rate is filled in from the port).
    void SetCcContextFor(uint32_t peerNode, Time baseRtt, uint32_t hops);
    /// Largest base RTT of the fabric, handed to every new controller.
    void SetFabricBaseRtt(Time rtt);
    /// The controller pacing QP \p qpn.
    Ptr<CongestionControl> GetCongestionControl(uint32_t qpn) const;
    /**
     * Number the random stream its controllers draw from (CcContext::rng), so that a
     * run's draws do not depend on what else the process created before it.
     * \param stream the first stream number to use
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);
    /// \return the receiving host model (attribute HostRx), or null
    Ptr<HostRxModel> GetHostRx() const;
    /**
     * Take send QP \p qpn (not yet used) out of congestion control: its own limiter at
     * line rate (NoCongestionControl), outside its peer group. For a measuring QP, such
     * as a latency probe that must see the fabric's queueing and not its own pacing.
     */
    void ExemptFromCongestionControl(uint32_t qpn);

    /**
     * Create an RC connection from \p src to \p dst in class \p priority, with UDP
     * source port \p sport (ECMP entropy). Returns the requester QP number on \p src.
     */
    static uint32_t Connect(Ptr<RdmaNic> src,
                            Ptr<RdmaNic> dst,
                            uint8_t priority,
                            uint16_t sport,
                            uint32_t* recvQpn = nullptr);
    /**
     * The requester end of a connection whose responder is another MPI rank's NIC, on
     * node \p peerNode, where it is QP \p peerQpn. Returns its QP number here.
     */
    uint32_t ConnectTo(uint32_t peerNode, uint32_t peerQpn, uint8_t priority, uint16_t sport);
    /**
     * The responder end of a connection whose requester is another MPI rank's NIC, on
     * node \p peerNode, where it is QP \p peerQpn. Returns its QP number here.
     */
    uint32_t AcceptFrom(uint32_t peerNode, uint32_t peerQpn, uint8_t priority, uint16_t sport);

    /// Post a message of \p bytes (RdmaMessage::kUnbounded: until TruncateMessage).
    void PostSend(uint32_t qpn, uint64_t bytes, uint64_t flowId);
    /// End an unbounded message after the packets already sent.
    void TruncateMessage(uint32_t qpn);

    void SetCompletionCallback(CompletionCallback cb);
    /**
     * Call \p cb whenever a message has been delivered here, at the responder: its last
     * packet (RdmaHeader::FLAG_LAST) has been accepted and so has every packet before it
     * on the QP. Messages of a QP are delivered once each, in the order they were posted.
     */
    void SetDeliveryCallback(DeliveryCallback cb);
    const Stats& GetStats() const;
    const SendQueuePair& GetSendQp(uint32_t qpn) const;
    /// Payload bytes of QP \p qpn acknowledged so far.
    uint64_t GetAckedBytes(uint32_t qpn) const;
    uint32_t GetNodeId() const;
    uint32_t GetMtu() const;

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    friend class FabricLayout; ///< reads the QP tables' layout (model/sim)

    uint32_t AddSendQp(uint32_t peerNode, uint32_t peerQpn, uint16_t sport, uint8_t priority);
    /// A new rate limiter paced by \p cc (initialised here); returns its index.
    uint32_t AddLimiter(Ptr<CongestionControl> cc, uint32_t peerNode, CcPeerGroup* peers);
    /// Make \p qp send through limiter \p limiter: its index, its controller and the
    /// hooks that controller implements (which the packet path reads from the QP).
    void UseLimiter(SendQueuePair& qp, uint32_t limiter);
    uint32_t AddRecvQp(uint32_t peerNode, uint16_t sport, uint8_t priority);

    // transmit path
    Ptr<RdmaFrame> Pull(uint8_t pausedMask);
    /// The next data packet of \p qp: a hole to resend first, else new data.
    Ptr<RdmaFrame> MakeDataPacket(SendQueuePair& qp);
    /// Fill data packet \p psn's header (of \p msg, sent \p now); returns its payload.
    uint32_t FillDataHeader(RdmaHeader& h,
                            const SendQueuePair& qp,
                            const RdmaMessage& msg,
                            uint32_t psn,
                            const Time& now);
    /// Path selection of new send QP \p qp (its own selector if the policy keeps state
    /// per QP; at the NIC's first QP, the policy's shape).
    void AddQpPaths(const SendQueuePair& qp);
    /// The entropy of data packet \p psn of \p qp from its own selector (remembered
    /// until acknowledged if the policy reads feedback).
    uint16_t NextQpEntropy(const SendQueuePair& qp, uint32_t psn, const Time& now);
    /// Tell \p qp's selector what ACK or NACK \p h says of the path of the packet it
    /// answers, and forget the entropies of the packets now acknowledged.
    void NotePathFeedback(const SendQueuePair& qp, const RdmaHeader& h);
    /// Tell \p qp's selector its timer expired, with the entropy its oldest
    /// unacknowledged packet was last sent with.
    void NotePathTimeout(const SendQueuePair& qp, const Time& now);
    /// Count a data packet sent in the stats and advance sndNxt unless it fills a \p hole.
    void CountDataPacket(SendQueuePair& qp, uint32_t psn, uint32_t payload, bool hole);
    /// Tell the controller a data packet left and set when the QP's limiter may send next.
    void PaceDataPacket(SendQueuePair& qp, uint32_t payload);
    /// After a data packet: restart the timeout's wait if the QP was idle, arm it if unarmed.
    void ArmRtoForSend(SendQueuePair& qp, bool wasIdle, const Time& now);
    Ptr<RdmaFrame> MakeProbePacket(SendQueuePair& qp);
    void ProbeExpired(uint32_t limiter);
    /// Selective repeat: move the recovery scan past PSNs the receiver reported.
    static void SkipReported(SendQueuePair& qp);
    /// The next PSN NACKed as trimmed (left at resendFrom by SkipReported), marked resent.
    static uint32_t TakeResend(SendQueuePair& qp);
    /// A pacing wait of \p waitPs, capped at the controller's PacingRecheck().
    uint64_t CappedWaitPs(const SendQueuePair& qp, uint64_t waitPs) const;
    /// After an ACK: shorten a pending pacing gap if the rate has risen since.
    void Repace(SendQueuePair& qp);
    /// Put an IDLE QP back into the scheduler if it may send.
    void Reschedule(SendQueuePair& qp);
    bool WindowFull(const SendQueuePair& qp) const;
    /// Wake the port at \p ps (a pacing gap ends): one pending wake-up at a time, the
    /// earliest asked for.
    void ArmWake(uint64_t ps);
    void Wake();
    /// ACK or NACK for \p rq, echoing the timestamp (and INT stack) of \p data.
    /// \p hostDelay: how long the host held \p data (HostRxModel), echoed in the answer.
    void SendAck(const RecvQueuePair& rq,
                 const RdmaHeader& data,
                 RdmaPacketType type,
                 uint32_t psn,
                 uint8_t extraFlags,
                 Time hostDelay = Time(0));
    /// The host is done with \p data: its answer leaves now (the scheduled form of SendAck).
    void SendHeldAck(RdmaHeader data, RdmaPacketType type, uint32_t psn, uint8_t flags, Time held);
    void SendCnp(const RecvQueuePair& rq);

    // receive path
    /// A frame for this NIC: dispatch by type.
    void Receive(const RdmaHeader& h);
    // RdmaPortOwner: the port's direct calls (Receive and Pull).
    void FrameReceived(uint32_t port, RdmaNetDevice* dev, const Ptr<RdmaFrame>& f) override;
    Ptr<RdmaFrame> PullFrame(uint32_t port, uint8_t pausedMask) override;
    /// False when no QP is ready, waiting or parked (Reschedule then tells the port).
    bool HasFramesToPull(uint32_t port) const override;
    void ReceiveData(const RdmaHeader& h);
    /// After ReceiveData accepted \p h (\p placed: for the first time) on \p rq, whose
    /// in-order point was \p before: report the messages that are now delivered.
    void NoteDeliveries(const RdmaHeader& h, const RecvQueuePair& rq, uint32_t before, bool placed);
    void ReceiveAck(const RdmaHeader& h);
    void ReceiveNack(const RdmaHeader& h);
    void ReceiveProbe(const RdmaHeader& h);
    void ReceiveProbeResponse(const RdmaHeader& h);
    /// Cumulative acknowledgement up to \p newUna (exclusive); feeds the controller.
    void Acknowledge(SendQueuePair& qp, uint32_t newUna, const RdmaHeader& h);
    /// Complete the messages whose every packet is acknowledged.
    void CompleteAcknowledged(SendQueuePair& qp);
    Time CurrentRto(const SendQueuePair& qp) const;
    void ArmRto(SendQueuePair& qp, Time at);
    void RtoExpired(uint32_t qpn);

    // Attributes
    uint32_t m_mtu;
    uint32_t m_ackInterval;
    Time m_cnpInterval;
    uint64_t m_window;
    bool m_ecnCapable;
    uint8_t m_pintBits; ///< bits of PINT's value (PintCode)
    Ptr<LossRecovery> m_recovery;
    uint32_t m_inflightCap;
    bool m_cnpOnOutOfOrder;
    bool m_perDestination;
    Time m_probeTimeout;
    int32_t m_probeRequestPriority;
    int32_t m_probeResponsePriority;
    ObjectFactory m_pathFactory; ///< attribute PathSelector

    /// The path selection of one send QP whose policy keeps state per QP.
    struct QpPaths
    {
        Ptr<PathSelector> selector;
        uint32_t sentBase = 0; ///< PSN of sent[0]
        /// Entropy of the last transmission of each PSN from sentBase on, while
        /// unacknowledged (a timeout blames the oldest one's path): policies with feedback.
        CompactDeque<uint16_t> sent;
    };

    /// The selector of every QP, when the policy keeps no state per QP (the default).
    Ptr<PathSelector> m_sharedPaths;
    /// Per send QP, when the policy keeps state per QP (else empty).
    std::vector<QpPaths> m_qpPaths;
    bool m_perQpPaths = false;   ///< the policy keeps state per QP
    bool m_pathFeedback = false; ///< the policy reads ACKs, NACKs and timeouts
    bool m_keepsQpPort = false;  ///< every packet takes its QP's port: nothing to ask

    Ptr<RdmaNetDevice> m_device;
    uint32_t m_nodeId;
    ObjectFactory m_ccFactory;
    /// Its controllers read their peer groups' rates (CongestionControl::HOOK_PEER_RATES):
    /// each data packet's rate goes into its group's sum (NotePeerRate) only then.
    bool m_trackPeerRates = false;

    struct PathInfo
    {
        Time baseRtt;
        uint32_t hops;
    };

    /// By peer node id (only the peers it has QPs to: a NIC of a 10,000-host fabric talks
    /// to a few of them).
    std::unordered_map<uint32_t, PathInfo> m_paths;
    Time m_fabricBaseRtt;
    /// The receiving host, if modelled (attribute HostRx): answers wait until it is done.
    Ptr<HostRxModel> m_hostRx;
    /// The controllers' draws (CcContext::rng), one stream per NIC.
    Ptr<UniformRandomVariable> m_ccRng;

    /// Record \p rate as \p qp's latest in its peer group's sums (if it is in one).
    void NotePeerRate(SendQueuePair& qp, uint64_t rate);
    /// Count \p qp out of its peer group once its posted work is all completed.
    void LeavePeerGroupIfDone(SendQueuePair& qp);
    /// Per-QP limiting: the NIC's view of its QPs to each peer node, by peer node id
    /// (node-based, so the addresses held by QPs and CcContext stay valid as it grows).
    std::unordered_map<uint32_t, CcPeerGroup> m_peerGroups;
    /// Per-QP limiting: the NIC's view of all its QPs (CcPeerGroup::nic of every group).
    CcNicGroup m_nicGroup;

    std::vector<RateLimiter> m_limiters;
    /// Per peer node id (per-destination mode): its limiter.
    std::unordered_map<uint32_t, uint32_t> m_destinationLimiter;
    std::vector<SendQueuePair> m_sendQps;
    std::vector<RecvQueuePair> m_recvQps;
    QpScheduler m_scheduler;
    /// The pacing wake-up (no event allocated per wait under the fast core).
    RearmableEvent<RdmaNic, &RdmaNic::Wake> m_wake;
    uint64_t m_wakePs; ///< when the pending wake-up is due (ps)
    bool m_inPull;     ///< inside Pull(): the port is about to send
    Stats m_stats;

    CompletionCallback m_completionCallback;
    TracedCallback<const Completion&> m_completionTrace;
    DeliveryCallback m_deliveryCallback;
    TracedCallback<uint32_t, uint32_t> m_deliveryTrace;
    /// (receive QP, PSN) of last packets placed beyond their QP's in-order point
    /// (selective repeat, direct placement): delivered once that point passes them.
    std::vector<std::pair<uint32_t, uint32_t>> m_lastsAhead;
};

static_assert(offsetof(SendQueuePair, lastProgress) + sizeof(Time) <= RdmaNic::kQpLines * 64,
              "what a pull and an acknowledgement read fits in a QP's first kQpLines lines");

} // namespace ns3

#endif /* RDMA_NIC_H */
