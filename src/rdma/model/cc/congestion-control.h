/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

#include "ns3/cc-extension.h"
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
    /// the ACK carries PINT's value (HOOK_PINT): pintU is the path's bottleneck
    /// utilisation as the switches encoded it (PintCode), decoded by the NIC
    bool hasPint = false;
    double pintU = 0; ///< decoded PINT utilisation (dimensionless), if hasPint
};

/**
 * The send-side events of a QP that a controller may act on, in the manner of TCP's
 * CwndEvent (CongestionControl::OnSendEvent).
 */
enum class CcSendEvent : uint8_t
{
    /// A data packet (new or resent) is being sent, after GetRate() for it; the payload
    /// bytes come with it.
    SEND,
    /// Once, right before the QP's first data packet (before GetRate() for it), so that a
    /// controller can choose its first rate from what it knows then (CcContext::peers).
    FIRST_SEND,
    /// Right after SEND when the packet just sent was the last the QP had, so that its
    /// next packet will wait for its application, not for its rate. Part of the pacing
    /// hooks: sent only to a controller declaring HOOK_PACING, with per-QP limiting.
    DRAINED,
    /// The NIC has just changed CcContext::peers->activeQps (a QP of the group, this one
    /// or a sibling, got work or finished it), so that a controller whose rate depends on
    /// it can account for the time before the change at the old count.
    PEERS_CHANGED,
};

/**
 * \ingroup rdma
 * Per-QP congestion control, in the style of ns-3's TcpCongestionOps: the NIC creates
 * one instance per QP through an ObjectFactory (parameters are Attributes), feeds it
 * events and reads its decision (rate, optional window). It never touches a device or a
 * packet.
 *
 * Non-virtual interface, as ns-3's QueueDisc: the NIC calls the public entry points
 * (OnAck, OnSendEvent, GetRate, ...), which are the place for what every controller
 * shares (the context, the traced Rate); an algorithm implements the private virtual
 * hooks (DoOnAck, DoOnSendEvent, DoGetRate, ...), each with the contract of its entry
 * point. A controller's own timing of sends (pacing by credit, RTT probes, the
 * retransmission timeout) is an optional extension (CcSendTiming, GetExtension()). What
 * a class needs of the NIC is data, not a method: INT records are a bit of
 * ImplementedHooks() (HOOK_INT), the CNP spacing a parameter set goes with a read-only
 * attribute (CnpInterval).
 *
 * Controllers should keep timers lazy: the NIC asks GetRate() when it is about to send,
 * so a periodic rule (DCQCN's rate-increase timer, alpha decay) can be applied for all
 * the periods that elapsed since the last call, instead of one simulator event per
 * period per QP. Idle QPs then cost nothing.
 *
 * Call order, per controller (one per QP, or per destination with per-destination rate
 * limiting): Init once; then, as its QPs send, OnSendEvent(FIRST_SEND) (once, before the
 * first GetRate), GetRate and OnSendEvent(SEND) for each data packet (DRAINED after it
 * if the QP has nothing more to send); as feedback arrives, OnAck for every ACK and NACK
 * (before OnNack), OnCnp, OnNack, OnTimeout when the retransmission timer expires;
 * OnSendEvent(PEERS_CHANGED) whenever the NIC's count of active QPs to the destination
 * changes. GetWindow may be asked at any time after Init.
 * Time is Now() (the CcContext clock): hooks take no time argument. A NIC does not call
 * the optional hooks that ImplementedHooks() leaves out.
 */
class CongestionControl : public Object
{
  public:
    static TypeId GetTypeId();
    CongestionControl();

    /// The optional hooks of the packet path, as bits of ImplementedHooks().
    enum Hook : uint16_t
    {
        HOOK_ACK = 1 << 0,    ///< OnAck
        HOOK_WINDOW = 1 << 1, ///< GetWindow
        /// the extension's PacingDelay, PacingRecheck, PacesByCredit; the DRAINED event
        HOOK_PACING = 1 << 2,
        HOOK_PROBE = 1 << 3, ///< the extension's WantsProbe (no probe is sent without it)
        /// not a call: the controller reads INT records (CcAck::intStack), so its data
        /// packets collect them (NeedsInt)
        HOOK_INT = 1 << 4,
        HOOK_RTO = 1 << 5, ///< the extension's RetransmissionTimeout
        /// reads CcPeerGroup::ratedQps and rateSum (the NIC keeps them, a write per data
        /// packet to a group of its own, only for a controller that reads them)
        HOOK_PEER_RATES = 1 << 6,
        /// the hooks above, asked when implemented
        HOOK_ALL = (1 << 7) - 1,
        /// not a call: the controller counts the ECN echo of every ACK as the mark of the
        /// bytes it acknowledges (DCTCP's alpha), which is exact only with one ACK per
        /// packet, so a scenario with a larger nic.ack_interval is refused
        HOOK_ECN_PER_PACKET = 1 << 7,
        /// not a call: the controller reads PINT's one value (CcAck::pintU), so its data
        /// packets carry a PINT field that switches fill in (NeedsPint)
        HOOK_PINT = 1 << 8,
    };

    /**
     * Called once, when the QP (or destination limiter) is created, before any other
     * entry point: keeps \p ctx (with the simulator's clock if it has none), sets the
     * traced Rate to the line rate, then calls DoInit.
     */
    void Init(const CcContext& ctx);

    /// An acknowledgement arrived (DoOnAck).
    void OnAck(const CcAck& ack)
    {
        DoOnAck(ack);
    }

    /// A congestion notification packet arrived for this QP (DoOnCnp).
    void OnCnp()
    {
        DoOnCnp();
    }

    /// The receiver reported a sequence gap (DoOnNack).
    void OnNack()
    {
        DoOnNack();
    }

    /// The retransmission timer expired with packets outstanding (DoOnTimeout).
    void OnTimeout()
    {
        DoOnTimeout();
    }

    /**
     * A send-side event of the QP (DoOnSendEvent).
     * \param event what happened
     * \param payloadBytes the data packet's payload for SEND, 0 otherwise
     */
    void OnSendEvent(CcSendEvent event, uint32_t payloadBytes = 0)
    {
        DoOnSendEvent(event, payloadBytes);
    }

    /// \return the sending rate now, bit/s (DoGetRate)
    uint64_t GetRate()
    {
        return DoGetRate();
    }

    /// \return the rate GetRate() would return now, changing nothing (DoPeekRate)
    uint64_t PeekRate() const
    {
        return DoPeekRate();
    }

    /// \return the in-flight limit in payload bytes, 0 for none (DoGetWindow)
    uint64_t GetWindow() const
    {
        return DoGetWindow();
    }

    /// \return whether data packets must collect INT records (switches stamp them):
    ///         HOOK_INT in ImplementedHooks(), constant per class
    bool NeedsInt() const
    {
        return (ImplementedHooks() & HOOK_INT) != 0;
    }

    /// \return whether data packets must carry a PINT value (switches write it):
    ///         HOOK_PINT in ImplementedHooks(), constant per class
    bool NeedsPint() const
    {
        return (ImplementedHooks() & HOOK_PINT) != 0;
    }

    /**
     * The CNP spacing that goes with this controller's parameters (DCQCN: its preset's),
     * read from the class's read-only attribute CnpInterval. CNPs are paced by the
     * receiving NIC (RdmaNic::CnpInterval), which does not know the sender's controller,
     * so no NIC asks: the scenario runner asks once per run, after Init, the controller
     * that CcRegistry::Resolve builds for the host line rate, and uses the answer for
     * `nic.cnp_interval_us` when the scenario does not set it.
     * \return the wanted minimum time between two CNPs for one QP (zero: a CNP for every
     *         marked packet); negative if the class has no such attribute (no preference:
     *         the runner then uses 4 us)
     */
    Time GetCnpInterval() const;

    /// \return the short name used in scenarios (DoGetName)
    std::string GetName() const
    {
        return DoGetName();
    }

    /// \return the Hook bits the class implements (DoImplementedHooks)
    uint16_t ImplementedHooks() const
    {
        return DoImplementedHooks();
    }

    /// \return the pacing-and-probes extension, or null (DoGetExtension)
    CcSendTiming* GetExtension()
    {
        return DoGetExtension();
    }

    const CcContext& GetContext() const;

  protected:
    Time Now() const;
    /// Clamp to [minRate, line rate].
    uint64_t ClampRate(double rate, uint64_t minRate) const;
    /**
     * For a window-based controller that paces: set m_rate to a window of \p window
     * payload bytes per \p rttSec seconds, in wire bits (\p wireRatio wire bytes per
     * payload byte: the NIC spaces packets by their wire bytes), clamped to [\p minRate,
     * line rate]. m_rate is written (and traced) only when it changes.
     */
    void SetRateOfWindow(double window, double wireRatio, double rttSec, uint64_t minRate);

    CcContext m_ctx;
    /// The rate decided last (bit/s), for tracing; subclasses update it.
    TracedValue<uint64_t> m_rate;

  private:
    /**
     * The controller's own start, after the base class has kept \p ctx (GetContext(),
     * m_ctx) and set the traced Rate to the line rate. Default: nothing.
     * \param ctx the path and NIC the controller serves (line rate, base RTT, MTU, hops,
     *        the NIC's peer group, the clock)
     */
    virtual void DoInit(const CcContext& ctx);
    /**
     * An acknowledgement arrived: a cumulative ACK, or the cumulative part of a NACK
     * (OnNack follows). Called after the NIC has applied it to the QP, and only if
     * ImplementedHooks() has HOOK_ACK. Default: nothing.
     * \param ack what it acknowledges, its RTT sample, ECN echo, in-flight bytes and INT
     *        records
     */
    virtual void DoOnAck(const CcAck& ack);
    /// A congestion notification packet arrived for this QP (or a NACK flagged as one).
    /// Default: nothing.
    virtual void DoOnCnp();
    /// The receiver reported a sequence gap (a loss), after the OnAck of its cumulative
    /// part and before the loss-recovery policy decides what to resend. Default: nothing.
    virtual void DoOnNack();
    /// The retransmission timer expired with packets outstanding, before the loss-recovery
    /// policy decides what to resend. Default: nothing.
    virtual void DoOnTimeout();
    /**
     * A send-side event of the QP, in the order CcSendEvent describes: per data packet
     * FIRST_SEND (first only), GetRate, SEND, DRAINED (if it was the QP's last); and
     * PEERS_CHANGED at any time. A controller ignores the events it has no use for.
     * Default: nothing.
     * \param event what happened
     * \param payloadBytes the data packet's payload for SEND, 0 otherwise
     */
    virtual void DoOnSendEvent(CcSendEvent event, uint32_t payloadBytes);
    /**
     * Asked for every data packet, right before it is sent; may advance lazy timers.
     * \return the sending rate now (bit/s), in [1, CcContext::lineRate]; the NIC paces
     *         the next packet of the QP one wire size at this rate later
     */
    virtual uint64_t DoGetRate() = 0;
    /**
     * The rate GetRate() would return now, for samplers and traces (cc.csv): it must not
     * change any state, so that what a run records cannot change what it simulates.
     * Override when GetRate() catches up lazily on rules that depend on time alone.
     * \return the sending rate now (bit/s); default: the rate decided last (the traced
     *         Rate, which such controllers keep current)
     */
    virtual uint64_t DoPeekRate() const;
    /// \return the in-flight limit (payload bytes); 0 (the default) means no window.
    ///         Asked before each data packet and after each acknowledgement (HOOK_WINDOW).
    virtual uint64_t DoGetWindow() const;
    /// \return the short name used in scenarios (cc.algorithm) and outputs ("dcqcn",
    ///         "none", ...); the registry asks a fresh instance, so it must not depend on
    ///         Init or attributes
    virtual std::string DoGetName() const = 0;
    /**
     * Which optional hooks this class implements, in the manner of
     * TcpCongestionOps::HasCongControl. The NIC asks once, when it creates the controller
     * (after Init), and on its packet path does not call a hook left out: it takes the
     * default answer instead (OnAck does nothing, no window, no pacing delay and no
     * recheck, no probe, no INT, the loss-recovery policy's RTO). That saves a virtual
     * call per packet and, with hundreds of thousands of QPs, the cache miss of loading
     * a controller that would only give the default answer. Samplers may still call any
     * hook. HOOK_INT is no hook but the class's need for INT records (NeedsInt).
     * \return a set of Hook bits, constant per class; it may leave out only hooks whose
     *         behaviour is the default. HOOK_PACING, HOOK_PROBE and HOOK_RTO require the
     *         extension. Default: every hook asked, no INT (HOOK_ALL without HOOK_INT).
     */
    virtual uint16_t DoImplementedHooks() const;
    /**
     * \return the controller's CcSendTiming (a controller that inherits it returns
     *         this), constant per instance; default null (the NIC then neither paces by
     *         credit nor probes, and arms the loss-recovery policy's timeout)
     */
    virtual CcSendTiming* DoGetExtension();
};

} // namespace ns3

#endif /* RDMA_CONGESTION_CONTROL_H */
