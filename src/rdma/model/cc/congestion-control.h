/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-wire.h"
#include "ns3/simple-ref-count.h"
#include "ns3/traced-value.h"

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * Where a congestion controller reads the time. The NIC gives it the simulator's clock;
 * unit tests give it a fake one, so every rule can be tested without a simulation.
 */
class CcClock
{
  public:
    virtual ~CcClock() = default;
    virtual Time Now() const = 0;
};

/// The simulator's clock.
class SimulatorCcClock : public CcClock
{
  public:
    Time Now() const override;
    /// One shared instance (stateless).
    static const CcClock* Get();
};

/**
 * \ingroup rdma
 * State that the controllers of one peer group keep together (CcPeerGroup::shared):
 * the first controller that needs it creates it, the NIC only holds it.
 */
class CcSharedState : public SimpleRefCount<CcSharedState>
{
  public:
    virtual ~CcSharedState() = default;
};

/**
 * What a NIC knows about all its QPs, whatever their destination: facts of the NIC
 * itself, which assume nothing about the paths its QPs take.
 */
struct CcNicGroup
{
    uint32_t activeQps = 0; ///< QPs of the NIC with posted work not yet completed
    /// The controllers' own NIC-wide state (null until one creates it; RttProbe: the
    /// budget of first packets its new and restarting QPs send at once).
    Ptr<CcSharedState> shared;
};

/**
 * What a NIC knows about a QP's siblings: its QPs to the same destination (per-QP rate
 * limiting only). A NIC knows this without any help from the network; a controller may
 * use it to choose a sane first rate for a QP that joins many others.
 */
struct CcPeerGroup
{
    uint32_t activeQps = 0; ///< QPs with posted work not yet completed (this one included)
    uint32_t ratedQps = 0;  ///< of those, the QPs that have sent (their rate is in rateSum)
    uint64_t rateSum = 0;   ///< sum of their latest rates (bit/s)
    /// The controllers' own shared state (null until one creates it; RttProbe: the
    /// NIC's claim on the destination and its pacing credit).
    Ptr<CcSharedState> shared;
    /// The NIC's view of all its QPs (owned by the NIC, valid while it lives).
    CcNicGroup* nic = nullptr;
};

/// What a controller knows about its QP's path when it starts.
struct CcContext
{
    uint64_t lineRate = 0; ///< NIC port rate (bit/s)
    Time baseRtt;          ///< round trip of an MTU packet and its ACK, unloaded path
    uint32_t mtu = 1024;   ///< payload bytes per packet
    uint32_t hops = 1;     ///< links on the path (one way)
    Time fabricBaseRtt;    ///< largest base RTT between any two hosts (HPCC's T)
    /// The NIC's live view of its QPs to the same destination (owned by the NIC, valid
    /// while the NIC lives; `shared` is the controllers' to write); null when one
    /// controller paces all of them (RateLimitPerDestination) or outside a NIC (unit
    /// tests may set their own).
    CcPeerGroup* peers = nullptr;
    const CcClock* clock = nullptr;
    /// Uniform [0, 1) draws for controllers that randomize (the NIC's stream, numbered by
    /// RdmaNic::AssignStreams, shared by its controllers); null outside a NIC (a
    /// controller then creates its own).
    UniformRandomVariable* rng = nullptr;
};

/// An acknowledgement as the sender sees it.
struct CcAck
{
    uint64_t ackedBytes = 0;    ///< newly acknowledged payload bytes
    Time rtt;                   ///< RTT of the packet that triggered the ACK (send -> ACK)
    bool ecnEcho = false;       ///< the acknowledged data was CE-marked
    uint32_t ackPsn = 0;        ///< cumulative: every PSN below it has arrived
    uint32_t sndNxt = 0;        ///< the QP's next PSN to send when the ACK arrived
    uint64_t inflightBytes = 0; ///< payload bytes sent and not acknowledged, after this ACK
    Time remoteDelay;           ///< time the responder held the packet before acking (Swift)
    uint8_t intHops = 0;        ///< INT records (HPCC), packed IntHop values
    std::array<uint64_t, rdmawire::kMaxIntHops> intStack{};
};

/**
 * \ingroup rdma
 * Per-QP congestion control, in the style of ns-3's TcpCongestionOps: the NIC creates
 * one instance per QP through an ObjectFactory (parameters are Attributes), feeds it
 * events and reads its decision (rate, optional window, probe wish). It never touches a
 * device or a packet.
 *
 * Controllers should keep timers lazy: the NIC asks GetRate() when it is about to send,
 * so a periodic rule (DCQCN's rate-increase timer, alpha decay) can be applied for all
 * the periods that elapsed since the last call, instead of one simulator event per
 * period per QP. Idle QPs then cost nothing.
 *
 * Call order, per controller (one per QP, or per destination with per-destination rate
 * limiting): Init once; then, as its QPs send, WantsProbe (before each data packet; a
 * probe takes the packet's turn), OnFirstSend (once, before the first GetRate), GetRate
 * and OnSend for each data packet (OnDrained after it if the QP has nothing more to
 * send), PacingDelay when a pacing gap has passed (with PacesByCredit, as soon as the
 * next packet is ready); as feedback arrives, OnAck for every ACK and NACK (before
 * OnNack), OnCnp, OnNack, OnProbeResponse or OnProbeTimeout, OnTimeout when the
 * retransmission timer expires; OnPeersChanged whenever the NIC's count of active QPs to
 * the destination changes. GetWindow, GetRetransmissionTimeout and PacingRecheck may be
 * asked at any time after Init. Time is Now() (the CcContext clock): hooks take no time
 * argument. A NIC does not call the optional hooks that ImplementedHooks() leaves out.
 */
class CongestionControl : public Object
{
  public:
    static TypeId GetTypeId();
    CongestionControl();

    /**
     * Called once, when the QP (or destination limiter) is created, before any other hook.
     * \param ctx the path and NIC the controller serves (line rate, base RTT, MTU, hops,
     *        the NIC's peer group, the clock); subclasses must call this base first
     */
    virtual void Init(const CcContext& ctx);
    /**
     * An acknowledgement arrived: a cumulative ACK, or the cumulative part of a NACK
     * (OnNack follows). Called after the NIC has applied it to the QP.
     * \param ack what it acknowledges, its RTT sample, ECN echo, in-flight bytes and INT
     *        records
     */
    virtual void OnAck(const CcAck& ack);
    /// A congestion notification packet arrived for this QP (or a NACK flagged as one).
    virtual void OnCnp();
    /// The receiver reported a sequence gap (a loss), after the OnAck of its cumulative
    /// part and before the loss-recovery policy decides what to resend.
    virtual void OnNack();
    /// The retransmission timer expired with packets outstanding, before the loss-recovery
    /// policy decides what to resend.
    virtual void OnTimeout();
    /**
     * A data packet (new or resent) is being sent, after GetRate() for it.
     * \param payloadBytes its payload
     */
    virtual void OnSend(uint32_t payloadBytes);
    /**
     * Called once, right before the QP's first data packet (before GetRate() for it), so
     * that a controller can choose its first rate from what it knows then (for example
     * CcContext::peers). Default: nothing.
     */
    virtual void OnFirstSend();
    /**
     * The NIC has just changed CcContext::peers->activeQps (a QP of the group, this one
     * or a sibling, got work or finished it), so that a controller whose rate depends on
     * it can account for the time before the change at the old count. Default: nothing.
     */
    virtual void OnPeersChanged();
    /**
     * \return whether data packets must collect INT records (switches stamp them); asked
     *         for every data packet and by the scenario checks (constant per class)
     */
    virtual bool NeedsInt() const;
    /**
     * Asked before each data packet while no probe of this controller is outstanding (the
     * NIC keeps at most one).
     * \return whether the NIC should send an RTT probe now, in this packet's turn
     */
    virtual bool WantsProbe();
    /**
     * The response to the outstanding probe arrived.
     * \param rtt the probe's round-trip time
     */
    virtual void OnProbeResponse(Time rtt);
    /// The outstanding probe got no response within the NIC's probe timeout (which then
    /// doubles); the probe is given up.
    virtual void OnProbeTimeout();
    /**
     * Asked for every data packet, right before it is sent; may advance lazy timers.
     * \return the sending rate now (bit/s), in [1, CcContext::lineRate]; the NIC paces
     *         the next packet of the QP one wire size at this rate later
     */
    virtual uint64_t GetRate() = 0;
    /**
     * The rate GetRate() would return now, for samplers and traces (cc.csv): it must not
     * change any state, so that what a run records cannot change what it simulates.
     * Override when GetRate() catches up lazily on rules that depend on time alone.
     * \return the sending rate now (bit/s); default: the rate decided last (the traced
     *         Rate, which such controllers keep current)
     */
    virtual uint64_t PeekRate() const;
    /**
     * Pacing by credit (default: none). The NIC fixes the gap after a packet at the
     * rate of that moment; a controller whose rate can change for reasons of its own
     * between two of its packets (a claim shared with other QPs) may hold the next one
     * back: asked when the gap has passed, it returns how much longer the QP must wait
     * before it has earned \p lastWireBytes, the wire size of its previous packet, at
     * the rates in force since that packet left (0: send now). Default: 0.
     */
    virtual Time PacingDelay(uint32_t lastWireBytes);
    /**
     * Longest time the NIC should wait before asking PacingDelay() again, so that a
     * rate that rises during a long gap takes effect within it (default: never, i.e.
     * Time::Max(); the NIC then waits the whole gap).
     */
    virtual Time PacingRecheck() const;
    /**
     * Part of the pacing hooks (HOOK_PACING; per-QP rate limiting only): called right
     * after OnSend when the packet just sent was the last the QP had, so that its next
     * packet will wait for its application, not for its rate. Default: nothing.
     */
    virtual void OnDrained();
    /**
     * Part of the pacing hooks (HOOK_PACING): whether the controller decides every gap
     * itself, by credit. The NIC then fixes no gap at GetRate() after a packet but asks
     * PacingDelay() as soon as the QP has another packet ready (and again when the wait
     * it returned has passed), so that the controller may lengthen or shorten any gap
     * (e.g. draw it around its mean, or let a QP idle for long send at once). Default:
     * false (PacingDelay only lengthens the NIC's gap).
     */
    virtual bool PacesByCredit() const;
    /// \return the in-flight limit (payload bytes); 0 means no window. Asked before each
    ///         data packet and after each acknowledgement.
    virtual uint64_t GetWindow() const;
    /// \return the retransmission timeout the controller wants (e.g. Swift: srtt + 4
    ///         rttvar); zero means the loss-recovery policy's (LossRecovery::GetRto).
    virtual Time GetRetransmissionTimeout() const;
    /**
     * The CNP spacing that goes with this controller's parameters (DCQCN: its preset's).
     * CNPs are paced by the receiving NIC (RdmaNic::CnpInterval), which does not know
     * the sender's controller, so no NIC asks: the scenario runner calls it once per run,
     * after Init, on the controller that CcRegistry::Resolve builds for the host line
     * rate, and uses the answer for `nic.cnp_interval_us` when the scenario does not set
     * it. The answer must depend only on the attributes and CcContext::lineRate.
     * \return the wanted minimum time between two CNPs for one QP (zero: a CNP for every
     *         marked packet); negative (the default) means no preference (the runner
     *         then uses 4 us)
     */
    virtual Time GetCnpInterval() const;
    /// \return the short name used in scenarios (cc.algorithm) and outputs ("dcqcn",
    ///         "none", ...); the registry asks a fresh instance, so it must not depend on
    ///         Init or attributes
    virtual std::string GetName() const = 0;

    /// The optional hooks of the packet path, as bits of ImplementedHooks().
    enum Hook : uint8_t
    {
        HOOK_ACK = 1 << 0,    ///< OnAck
        HOOK_WINDOW = 1 << 1, ///< GetWindow
        HOOK_PACING = 1 << 2, ///< PacingDelay, PacingRecheck, OnDrained, PacesByCredit
        HOOK_PROBE = 1 << 3,  ///< WantsProbe (no probe is sent without it)
        HOOK_INT = 1 << 4,    ///< NeedsInt
        HOOK_RTO = 1 << 5,    ///< GetRetransmissionTimeout
        /// reads CcPeerGroup::ratedQps and rateSum (the NIC keeps them, a write per data
        /// packet to a group of its own, only for a controller that reads them)
        HOOK_PEER_RATES = 1 << 6,
        HOOK_ALL = (1 << 7) - 1,
    };

    /**
     * Which optional hooks this class implements, in the manner of
     * TcpCongestionOps::HasCongControl. The NIC asks once, when it creates the controller
     * (after Init), and on its packet path does not call a hook left out: it takes the
     * base class's answer instead (OnAck does nothing, no window, no pacing delay and no
     * recheck, no probe, no INT, the loss-recovery policy's RTO). That saves a virtual
     * call per packet and, with hundreds of thousands of QPs, the cache miss of loading
     * a controller that would only give the default answer. Samplers may still call any
     * hook.
     * \return a set of Hook bits, constant per class; it may leave out only hooks whose
     *         behaviour is the base class's. Default: HOOK_ALL (every hook asked).
     */
    virtual uint8_t ImplementedHooks() const;

    const CcContext& GetContext() const;

  protected:
    Time Now() const;
    /// Clamp to [minRate, line rate].
    uint64_t ClampRate(double rate, uint64_t minRate) const;

    CcContext m_ctx;
    /// The rate decided last (bit/s), for tracing; subclasses update it.
    TracedValue<uint64_t> m_rate;
};

} // namespace ns3

#endif /* RDMA_CONGESTION_CONTROL_H */
