/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RTT_PROBE_H
#define RDMA_RTT_PROBE_H

#include "ns3/congestion-control.h"
#include "ns3/random-variable-stream.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * RTT-probe no-PFC controller (the China Telecom CTCC design; docs/design.md,
 * "RTT-probe"): end to end and rate based, it needs no switch feature (no ECN, no PFC, no
 * INT) and is meant to run with PFC off. The NIC measures RTTs; the controller does AIMD
 * against a target RTT. Two rule sets, chosen by the Preset attribute
 * (docs/design-notes.md derives them):
 *
 * **Scalable (default)**: holds thousands of QPs per port (7 x 1,000 QPs into one 100G
 * port, no PFC, no drop). At that fan-in a QP's fair share is a few Mb/s, one packet
 * every few hundred microseconds, so its own feedback comes once per packet, far slower
 * than the RTT. Every rule is built for that:
 *  - samples: every data packet probes (its ACK echoes the send time, as RoCE NICs do in
 *    hardware), so a QP that sends little costs no probe traffic; a separate probe
 *    packet leaves only when feedback is overdue (data in flight and no sample for
 *    ProbeInterval), and its age while it waits is a lower bound on the RTT;
 *  - one update per RTT: a sample is a regular update only if its packet left after the
 *    last one (Swift's rule); with a shared claim the group's QPs together sample often,
 *    so the claim is updated once per RTT like one flow's; an older sample still bounds
 *    the rate its packet left at (below), so a queue that keeps growing within the RTT
 *    tightens the rate with every ACK;
 *  - target: TargetRtt plus flow scaling, FlowScaleStep per halving of the QP's rate
 *    below one MTU per target RTT (at most FlowScaleMax): a QP below its peers' rate
 *    aims at a higher RTT and gains on them (Swift's flow-scaled target), which is what
 *    makes thousands of QPs converge to equal rates;
 *  - decrease above the target, from the rate the sampled packet left at, by the larger
 *    of two cuts (at most MaxMd): the level, Beta (rtt - target) / rtt (with Beta 1:
 *    rate x target / rtt), and the gradient, 1 - 1 / (1 + g) where g is the queueing
 *    delay's growth per second of sending (over at least GradientSpan): senders that
 *    together offer (1 + g) x the drain rate each scale by 1 / (1 + g). The level alone
 *    reacts too late to a large fan-in, since each RTT reports the queue as it was one
 *    queueing delay ago;
 *  - increase at or below it: rate += min(MiFactor x rate, AiPackets x MTU / TargetRtt):
 *    multiplicative for QPs below about one MTU per RTT (their sum grows by at most
 *    MiFactor per sample, whatever their number), additive above (AIMD fairness among
 *    few fast flows);
 *  - first rate without a shared claim (FirstRate PeerShare): the mean rate of the NIC's
 *    QPs to the destination that already send, from the NIC's own counts
 *    (CcPeerGroup), the line rate if none does;
 *  - shared claim (ShareWithPeers true, an option): the rate the rules act on is one
 *    claim on what the NIC may send to the destination, kept by the NIC's peer group and
 *    updated by the samples of all its QPs (one regular update per RTT for the group, as
 *    for one flow); each QP paces at claim / the NIC's active QPs to it, so QPs joining
 *    or leaving change the split, not the NIC's total, and a newcomer starts at the
 *    claim its siblings have learned;
 *  - pacing by credit (shared claim): a QP earns credit at its share of the claim as it
 *    changes, and sends when it has earned its last packet, a token bucket one packet
 *    deep; the NIC re-checks at least every PacingRecheck. A cut thus acts on every QP
 *    of the group at once, not after each one's next packet (at a fair share of a few
 *    Mb/s, hundreds of microseconds later), and a rise within PacingRecheck. Each packet
 *    costs its wire size x (1 + u), u uniform in +-PacingJitter, so QPs that once sent
 *    together drift apart instead of coming due together every gap; a newcomer's first
 *    packet goes at a random point of its first gap;
 *  - increase validation (shared claim): the claim grows only while the group sends what
 *    it claims, up to (1 + MiFactor) x its send rate over the last PacingRecheck
 *    (RFC 7661's rule for TCP's window), so it cannot run ahead of its own pacing;
 *  - a NACK multiplies by NackFactor, once per loss episode (and, for a shared claim,
 *    once per RTT across the group's QPs).
 *
 * **Scalable per QP (ShareWithPeers false, the default)**: each QP has its own rate, set
 * by its own samples only; the NIC shares counts of its QPs and a budget of first packets, never a
 * rate or a claim (docs/design-notes.md, "Per-QP rates"). On top of the rules above:
 *  - start: one of several QPs of its NIC to its destination sends one packet (an
 *    initial window of one), a QP alone to its destination up to InitialWindow, and
 *    waits for its sample; the first packet leaves at once while the NIC's start budget
 *    lasts (StartBurst bytes,
 *    refilled at StartShare x line; RttProbeStartBudget), so a small message on a new
 *    QP is not held back, while 1,000 QPs starting together on a NIC are spread;
 *  - first rate: line / the NIC's active QPs to the destination (FirstRate CountShare),
 *    then at the first sample the lowest of that, one packet per that RTT, and the rate
 *    whose flow-scaled target that RTT is: QPs at equilibrium sit at their target, so a
 *    newcomer reads its peers' rate from its own first sample; its next packet is then
 *    due one gap at that rate after its last (the credit earned at the first rate is
 *    not spent);
 *  - pacing by its own credit (PacesByCredit): a cut at an ACK lengthens the gap being
 *    waited, not only the next one;
 *  - a cut acts on the rate the QP actually sent at (its last packet's jittered price
 *    over the gap it waited), if its NIC held it below its rate;
 *  - above the target, a proportional-derivative cut, QpLevelGain x (rtt - target) / rtt
 *    + QpGradientGain x g with g signed, none if that is not positive: each QP samples
 *    once per packet, so the level alone, applied by all QPs over a sample interval,
 *    makes the aggregate swing between an empty queue and a long one; the gradient
 *    stops the cuts once the queue drains;
 *  - below the target a surge (gradient >= SurgeGradient) cuts by 1 / (1 + g), and a
 *    growing queue damps the increase by QpIncreaseDamping x g (a cut if g is large);
 *  - increase: MiFactor x (target - rtt) / rtt (at most doubling; below one MTU per
 *    target RTT, where a QP samples once per packet, per MiPeriod of time since its last
 *    update), plus AiRate / (the NIC's active QPs) x that time (AIMD fairness, the NIC's
 *    total increase independent of its QP count), at most the send rate x (1 +
 *    MiFactor);
 *  - idle restart: a QP that has had nothing to send for IdleRestart sends its next
 *    packet from the start budget, not after its gap (TCP's restart after idle);
 *  - an older sample (its packet left before the last update) bounds the rate its packet
 *    left at, never the rate the QP sends at now, which the last update has already cut;
 *  - a QP alone on its NIC (SharesNic() false) is one flow like any other: the cut,
 *    surge, damping, increase and used-rate rules above are for QPs that share their
 *    NIC; alone, it takes the shared claim's cut (level or gradient, a claim of its own)
 *    and grows additively in time, AiPackets MTU per TargetRtt per TargetRtt, validated
 *    only if it sent below (1 - MiFactor) of its rate.
 *
 * **NvidiaSample**: the reference parameterisation of NVIDIA's public RTT sample
 * algorithm (DOCA PCC "rtt_template"), kept so the published reference can be run. A
 * probe about once per ProbeInterval; per answer: rtt >= HighRtt: x HighRttMdFactor
 * (x NackFactor if a NACK is pending, NackMode OnHighRtt); rtt > target: x MdFactor;
 * else + AiStep x line rate; flows start at line rate. Module extensions (attributes):
 * NackMode Immediate with NackOncePerEpisode, LateProbeDecrease (a probe still out
 * after k target RTTs counts as k samples above the target), UseAckRtt.
 *
 * Shared by both: TargetMode/TargetRtt/TargetMargin, ProbeInterval, NackFactor,
 * NackOncePerEpisode, MinRateFraction. Every rate stays in [MinRateFraction x line, line].
 * No timers: every change happens in an event handler or lazily at GetRate(), so idle
 * QPs cost nothing and every rule is testable with a fake clock.
 */
class RttProbe : public CongestionControl
{
  public:
    /// Which rule set runs.
    enum Preset
    {
        PRESET_SCALABLE,     ///< module default, holds thousands of QPs per port
        PRESET_NVIDIA_SAMPLE ///< NVIDIA RTT sample algorithm (published reference)
    };

    /// Where the target RTT comes from.
    enum TargetMode
    {
        TARGET_ABSOLUTE,  ///< TargetRtt as given (NVIDIA sample: 13 us)
        TARGET_BASE_PLUS, ///< the path's base RTT + TargetMargin
    };

    /// How a NACK acts on the rate (NvidiaSample).
    enum NackMode
    {
        NACK_IMMEDIATE,   ///< x NackFactor at once (CTCC design)
        NACK_ON_HIGH_RTT, ///< x NackFactor at the next sample with rtt >= HighRtt (NVIDIA)
    };

    /// First rate of a QP (Scalable).
    enum FirstRate
    {
        FIRST_COUNT_SHARE, ///< line / the NIC's active QPs to the destination (a count)
        FIRST_PEER_SHARE,  ///< the mean paced rate of the QP's siblings to its destination
        FIRST_LINE_RATE,   ///< line rate
    };

    static TypeId GetTypeId();
    RttProbe();

    void Init(const CcContext& ctx) override;
    void OnFirstSend() override;
    void OnSend(uint32_t payloadBytes) override;
    void OnAck(const CcAck& ack) override;
    void OnNack() override;
    bool WantsProbe() override;
    void OnProbeResponse(Time rtt) override;
    void OnProbeTimeout() override;
    uint64_t GetRate() override;
    /// GetRate() without applying the late decreases it would apply (no state changes).
    uint64_t PeekRate() const override;
    void OnPeersChanged() override;
    Time PacingDelay(uint32_t lastWireBytes) override;
    Time PacingRecheck() const override;
    void OnDrained() override;
    /// Per QP (Scalable): true, every gap is the QP's own credit.
    bool PacesByCredit() const override;
    /// Per QP: one packet in flight until the QP's first RTT sample, none after.
    uint64_t GetWindow() const override;
    std::string GetName() const override;
    /// \return the optional hooks it implements: OnAck, PacingDelay, PacingRecheck and WantsProbe
    uint8_t ImplementedHooks() const override;

    /// The target RTT at the QP's current rate (with flow scaling in Scalable).
    Time GetTargetRtt() const;
    /// The shortest spacing of two probes in use (resolved at Init).
    Time GetProbeInterval() const;
    /// Whether the controller is waiting for the answer to a probe it asked for.
    bool IsProbeOutstanding() const;

    /**
     * Every attribute's value (the attribute of the same name, capitalised; TargetRtt
     * and ProbeInterval as given, before Init resolves them). One block serves every
     * controller with the same values: the controllers start on a shared default block,
     * an attribute set to another value gives the object its own copy (MutableParams),
     * and Init interns it (thousands of QPs with the same attributes hold one block).
     * The members are ordered by size (8, 4, 1 bytes: no padding between them).
     */
    struct Params
    {
        Time targetRttAttr = MicroSeconds(13);   ///< TargetRtt
        Time targetMargin = MicroSeconds(9);     ///< TargetMargin
        Time probeIntervalAttr = Time(0);        ///< ProbeInterval (0: the target RTT)
        Time highRtt = MicroSeconds(150);        ///< HighRtt
        Time flowScaleStep = MicroSeconds(4);    ///< FlowScaleStep
        Time flowScaleMax = MicroSeconds(64);    ///< FlowScaleMax
        Time gradientSpan = MicroSeconds(2);     ///< GradientSpan
        Time aiSpan = MilliSeconds(1);           ///< AiSpan
        Time miPeriod = MicroSeconds(500);       ///< MiPeriod
        Time pacingRecheck = MicroSeconds(50);   ///< PacingRecheck
        Time idleRestart = MicroSeconds(10);     ///< IdleRestart
        double mdFactor = 0.9;                   ///< MdFactor
        double highRttMdFactor = 0.8;            ///< HighRttMdFactor
        double aiStep = 0.05;                    ///< AiStep
        double nackFactor = 0.5;                 ///< NackFactor
        double minRateFraction = 1.0 / 16384;    ///< MinRateFraction
        double beta = 1.0;                       ///< Beta
        double maxMd = 0.9;                      ///< MaxMd
        double miFactor = 0.1;                   ///< MiFactor
        double aiPackets = 1.0;                  ///< AiPackets
        double surgeGradient = 1.0;              ///< SurgeGradient
        double qpLevelGain = 0.2;                ///< QpLevelGain
        double qpGradientGain = 2.0;             ///< QpGradientGain
        double qpIncreaseDamping = 6.0;          ///< QpIncreaseDamping
        double aiRate = 2e12;                    ///< AiRate (bit/s per second)
        double pacingJitter = 0.5;               ///< PacingJitter
        double startShare = 0.03125;             ///< StartShare
        Preset preset = PRESET_SCALABLE;         ///< Preset
        TargetMode targetMode = TARGET_ABSOLUTE; ///< TargetMode
        NackMode nackMode = NACK_IMMEDIATE;      ///< NackMode
        FirstRate firstRate = FIRST_COUNT_SHARE; ///< FirstRate
        uint32_t startBurst = 16384;             ///< StartBurst (bytes)
        uint32_t initialWindow = 16384;          ///< InitialWindow (bytes)
        bool nackOncePerEpisode = true;          ///< NackOncePerEpisode
        bool lateProbeDecrease = true;           ///< LateProbeDecrease
        bool useAckRtt = false;                  ///< UseAckRtt
        bool shareWithPeers = false;             ///< ShareWithPeers

        /// Field by field.
        bool operator==(const Params& o) const;
    };

    /// \return the parameters (after Init, the interned block in use)
    const Params& GetParams() const
    {
        return *m_params;
    }

    /**
     * The parameters to change: the block is copied first unless this object alone
     * holds it (so that an attribute set after Init changes this QP's controller only).
     * \return this object's own block
     */
    Params& MutableParams();

  private:
    /// Scalable: a regular update (at most one per RTT) and the rate it set.
    struct Epoch
    {
        Time start;
        double rate = 0;
    };

    /// Apply one RTT sample (probe answer, or data ACK).
    void Sample(Time rtt);
    /// NvidiaSample: the reference rule for one sample.
    void ReferenceSample(Time rtt);
    /// Scalable: the rule for one sample.
    void ScalableSample(Time rtt);
    /// Scalable: the increase for a sample at or below the target, from epoch \p last.
    void ScalableIncrease(const Epoch& last, Time rtt, double gradient);
    /// Scalable: the multiplicative step of that increase (MiFactor, per QP scaled).
    double IncreaseFactor(const Epoch& last, Time rtt, double dt) const;
    /// Scalable: \p rate capped by what the group or QP sends (no growth it cannot use).
    double UsableIncrease(double rate, double lastRate);
    /// The outstanding probe has been out for \p elapsed: apply the decrease this
    /// lower bound of the RTT implies (NvidiaSample: one per whole target RTT; Scalable:
    /// the proportional decrease from the rate the probe left at).
    void ApplyLateDecreases(Time elapsed);

    /// What ApplyLateDecreases(\p elapsed) would leave: the claim before clamping, the
    /// NvidiaSample decreases then applied and whether the NACK factor is still pending.
    struct LateDecrease
    {
        double rate;
        uint64_t count;
        bool nackPending;
    };

    LateDecrease PendingLateDecreases(Time elapsed) const;
    /// The QP's rate: in Scalable, the claim shared by Sharers() QPs.
    double Effective() const;
    /// Shared claim: bring the group's pacing credit and send-rate estimate up to now
    /// (at the rate in force until now), then note the rate in force from now.
    void Advance();
    /// With a shared claim: the NIC's active QPs to the destination; else 1.
    uint32_t Sharers() const;
    /// Scalable: a packet that left at \p sentRate saw \p rtt: the rate becomes at most
    /// sentRate x (1 - min(max(Beta (rtt - target) / rtt, 1 - 1 / (1 + gradient)),
    /// MaxMd)) (nothing at or below the target).
    bool Bound(double sentClaim, Time rtt, double gradient);
    /// Scalable: that bound (infinity at or below the target), changing nothing.
    double BoundFor(double sentClaim, Time rtt, double gradient) const;
    /// Scalable: the queueing delay's growth per second of send time, from this sample
    /// and a reference at least GradientSpan older (0 until known).
    double Gradient(Time sent, Time rtt);
    /// Scalable: the rate in force when a packet left at \p t (its epoch's rate).
    double RateSentAt(Time t) const;
    /// Scalable: a regular update happened now; packets sent from now on belong to it.
    void NewEpoch();
    /// Target RTT for a QP at \p rate (flow scaling in Scalable).
    Time TargetFor(double rate) const;
    /// Scalable: the rate whose target is \p rtt (TargetFor inverted; infinity at or
    /// below TargetRtt, where every rate from one MTU per target RTT up has it).
    double RateForTarget(Time rtt) const;
    /// Per QP: the wait before a packet that leaves without the QP's own credit (its
    /// first, or its first after an idle restart), from the NIC's start budget.
    Time StartDelay(uint32_t wireBytes);
    /// Per QP: whether the QP has had nothing to send for at least IdleRestart.
    bool IdleLongEnough() const;
    /// Per QP: whether other QPs of its NIC have work. Only then do the per-QP rules
    /// apply (the PD cut, the surge, the damping, the increase in time, the used rate):
    /// a QP alone on its NIC is one flow like any other and follows the rules of a
    /// claim of its own, with an additive increase in time.
    bool SharesNic() const;
    /// Per QP: \p rate, or the rate the QP actually sent at if lower (a cut acts on
    /// what the QP sends, not on a rate its NIC did not let it use).
    double Used(double rate) const;
    /// The pacing jitter's draws: the group's, the NIC's, or the controller's own.
    UniformRandomVariable* Rng();
    void SetRate(double rate);

    /// The claim and what the rules keep about it: the QP's own, or (shared claim) one
    /// per NIC peer group, held in CcPeerGroup::shared by all its controllers.
    struct ClaimState : public CcSharedState
    {
        double rc = 0;                     ///< current rate (bit/s); Scalable: the claim
        std::array<Epoch, 4> epochs;       ///< Scalable: the latest regular updates (a ring)
        uint8_t epochHead = 0;             ///< index of the newest epoch
        bool gradRefValid = false;         ///< Scalable: the gradient's reference sample is set
        Time gradRefSent;                  ///< its send time
        Time gradRefRtt;                   ///< its RTT
        double lastGradient = 0;           ///< the latest gradient measured
        double earned = 0;                 ///< shared: bytes one QP has earned so far
        double sendRate = 0;               ///< shared: the group's send rate, time-decayed (bit/s)
        Time advancedAt;                   ///< shared: time of earned and sendRate
        double qpRate = 0;                 ///< shared: a QP's rate in force since advancedAt
        Time lastRtt;                      ///< Scalable: the latest RTT sample
        Time lastNackCut = Time(-1);       ///< shared: when a NACK last cut the claim
        Ptr<UniformRandomVariable> jitter; ///< draws the pacing jitter
    };

    /// The type of a data member, from its pointer's type (FieldType).
    template <class M>
    struct MemberType;

    template <class C, class T>
    struct MemberType<T C::*>
    {
        using Type = T;
    };

    /// The type of the parameter \p Field (a pointer to a member of Params).
    template <auto Field>
    using FieldType = typename MemberType<decltype(Field)>::Type;

    /// Attribute setter of the parameter \p Field: an equal value keeps the block shared,
    /// another one goes into this object's own block (MutableParams).
    template <auto Field>
    void SetParam(FieldType<Field> value)
    {
        if (!(P().*Field == value))
        {
            MutableParams().*Field = value;
        }
    }

    /// Attribute getter of the parameter \p Field (after Init, the value in use).
    template <auto Field>
    FieldType<Field> GetParam() const
    {
        return P().*Field;
    }

    /// The parameters in use (shorthand of GetParams() for the rules).
    const Params& P() const
    {
        return *m_params;
    }

    /// Intern \p p: the block of equal parameters already in use, or a copy of \p p made one.
    static std::shared_ptr<Params> Intern(const Params& p);

    // The 8-byte members first, then the 4-byte and 1-byte ones together: no padding
    // between them; with the attributes in the shared block a controller is 304 bytes on
    // ns-3.37 (528 with them in each object; test/system/qp-memory-test.cc).

    /// The attributes. Until Init the shared default block, or this object's own once an
    /// attribute differs from it; from Init on the interned block that the QPs with the
    /// same values share (a QP then holds a pointer, not 244 bytes of parameters).
    std::shared_ptr<Params> m_params;

    // Resolved at Init
    Time m_targetRtt;
    Time m_probeInterval;
    double m_minRate; ///< bit/s

    // State
    Ptr<ClaimState> m_own;    ///< the QP's own claim (no shared claim), else null
    Ptr<ClaimState> m_group;  ///< the group's claim (shared claim), else null
    ClaimState* m_s;          ///< the claim in use: m_group or m_own
    double m_earnedMark;      ///< shared: the group's `earned` when this QP last sent
    Time m_lastSendAt;        ///< per QP: when its last packet left
    double m_usedRate;        ///< per QP: the rate its last backlogged gap was sent at (0: none)
    double m_lastPrice;       ///< per QP: its last packet's pacing price (wire bytes, jittered)
    Time m_drainedAt;         ///< per QP: when it last sent all it had
    Time m_startSlot;         ///< per QP: the start budget's departure reserved (or -1)
    Time m_lastProbe;         ///< when the last probe was asked for
    double m_probeRate;       ///< Scalable: the rate when the outstanding probe left
    uint64_t m_lateDecreases; ///< decreases already applied for the outstanding probe
    Time m_lastUpdate;        ///< time of the latest rate change from a sample
    Time m_lastSample;        ///< time of the latest RTT sample (ACK or probe)
    uint64_t m_inflight;      ///< Scalable: payload bytes sent and not acknowledged

    // State (4 bytes)
    uint32_t m_ackPsn;     ///< cumulative ACK PSN of the latest ACK/NACK
    uint32_t m_ackSndNxt;  ///< sender's next PSN at the latest ACK/NACK
    uint32_t m_recoverPsn; ///< the episode ends once every PSN below is acknowledged
    // State (1 byte)
    bool m_pacedOnce;        ///< shared: the first packet's phase has been drawn
    bool m_drained;          ///< per QP: sent all it had (OnDrained), nothing since
    bool m_sampled;          ///< an RTT sample has arrived
    bool m_probeOutstanding; ///< asked for a probe, no answer or timeout yet
    bool m_probedOnce;       ///< m_lastProbe is valid
    bool m_inLossEpisode;    ///< a NACK cut happened and its episode may go on
    bool m_nackPending;      ///< NackOnHighRtt mode: a NACK waits for a high-RTT sample
};

} // namespace ns3

#endif /* RDMA_RTT_PROBE_H */
