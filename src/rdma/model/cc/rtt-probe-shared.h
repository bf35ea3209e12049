/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RTT_PROBE_SHARED_H
#define RDMA_RTT_PROBE_SHARED_H

#include "ns3/congestion-control.h"
#include "ns3/random-variable-stream.h"

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * The RTT-probe no-PFC controller with one claim per NIC and destination
 * (cc.algorithm rtt-probe-shared; docs/design.md, "RTT-probe", docs/design-notes.md):
 * end to end and rate based, no switch feature needed (no ECN, no PFC, no INT). The NIC
 * measures RTTs; the controller does AIMD against a target RTT on a claim that all the
 * NIC's QPs to one destination share. It assumes those QPs share their congestion,
 * which load balancing can make untrue.
 *
 * Contract:
 *  - claim: one per NIC peer group (CcPeerGroup::shared, created by the group's first
 *    controller at the line rate), on what the NIC may send to the destination, updated
 *    by the samples of all its QPs; each QP's rate is claim / the NIC's active QPs to
 *    the destination (at least MinRateFraction x line), so QPs joining or leaving change
 *    the split, not the total, and a newcomer starts at the claim its siblings learned;
 *  - samples: every data packet probes (its ACK echoes its send time); a probe packet
 *    leaves only when feedback is overdue (data in flight and no sample for
 *    ProbeInterval), one outstanding, and its age while it waits is a lower bound on
 *    the RTT: the decrease such a sample calls for, from the claim it left at, applies
 *    as soon as it is known (at GetRate(), an ACK, the answer, the probe timeout);
 *  - one update per RTT for the group (Swift's rule): a sample is a regular update only
 *    if its packet left after the last one; an older sample still bounds the claim its
 *    packet left at (the latest epochs are kept), never the claim now;
 *  - target: TargetRtt (or the base RTT + TargetMargin) plus FlowScaleStep per halving of
 *    the QP's rate below one MTU per target RTT, at most FlowScaleMax;
 *  - decrease above the target, from the claim the packet left at, by the larger of the
 *    level cut Beta (rtt - target) / rtt and the gradient cut 1 - 1 / (1 + g) (g: the
 *    queueing delay's growth per second of sending, over at least GradientSpan), at
 *    most MaxMd;
 *  - increase at or below it: claim += min(MiFactor x claim, AiPackets x MTU /
 *    TargetRtt), validated: at most (1 + MiFactor) x the group's send rate over the last
 *    PacingRecheck (RFC 7661), so the claim cannot run ahead of its own pacing;
 *  - pacing by credit: a QP earns credit at its share of the claim as it changes and
 *    sends once it has earned its last packet's price, its wire size x (1 + u), u
 *    uniform in +-PacingJitter (a bucket one packet deep); the NIC re-checks at least
 *    every PacingRecheck; a newcomer's first packet goes at a random point of its
 *    first gap;
 *  - a NACK multiplies the claim by NackFactor, once per loss episode of the QP
 *    (NackOncePerEpisode) and once per RTT across the group.
 *
 * Without a peer group (CcContext::peers null: RateLimitPerDestination, where one
 * controller paces all the QPs to a destination, or a unit test) the claim is the
 * controller's own: it starts at the line rate, sends one packet until its first
 * sample, which sets the rate to the lowest of the line and the rate whose flow-scaled
 * target that RTT is; it grows additively in time (AiPackets MTU per TargetRtt per
 * TargetRtt, over at most AiSpan), validated only if it sent below (1 - MiFactor) of its
 * rate; it paces by its own credit, and asks for no recheck.
 *
 * No timers: every change happens in an event handler or lazily at GetRate(), so idle
 * QPs cost nothing and every rule is testable with a fake clock.
 */
class RttProbeShared : public CongestionControl, public CcSendTiming
{
  public:
    /// Where the target RTT comes from.
    enum TargetMode
    {
        TARGET_ABSOLUTE,  ///< TargetRtt as given
        TARGET_BASE_PLUS, ///< the path's base RTT + TargetMargin
    };

    static TypeId GetTypeId();
    RttProbeShared();

    // CcSendTiming
    bool WantsProbe() override;
    void OnProbeResponse(Time rtt) override;
    void OnProbeTimeout() override;
    Time PacingDelay(uint32_t lastWireBytes) override;
    /// PacingRecheck with a peer group; Time::Max() without.
    Time PacingRecheck() const override;
    /// Without a peer group only: every gap is the controller's own credit.
    bool PacesByCredit() const override;

    /// The target RTT at the QP's current rate (with flow scaling).
    Time GetTargetRtt() const;
    /// The shortest spacing of two probes in use (resolved at Init).
    Time GetProbeInterval() const;
    /// Whether the controller is waiting for the answer to a probe it asked for.
    bool IsProbeOutstanding() const;

  private:
    // CongestionControl
    void DoInit(const CcContext& ctx) override;
    void DoOnAck(const CcAck& ack) override;
    void DoOnNack() override;
    uint64_t DoGetRate() override;
    /// GetRate() without applying the late decrease it would apply (no state changes).
    uint64_t DoPeekRate() const override;
    /// Without a peer group only: one packet in flight until the first RTT sample.
    uint64_t DoGetWindow() const override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: OnAck, GetWindow, the pacing hooks and
    ///         WantsProbe
    uint16_t DoImplementedHooks() const override;
    void DoOnSendEvent(CcSendEvent event, uint32_t payloadBytes) override;

    CcSendTiming* DoGetExtension() override
    {
        return this;
    }

    // The send events (DoOnSendEvent)
    void HandleFirstSend();
    void HandleSend(uint32_t payloadBytes);

    /// A regular update (at most one per RTT) and the claim it set.
    struct Epoch
    {
        Time start;
        double rate = 0;
    };

    /// The claim and what the rules keep about it: one per NIC peer group, held in
    /// CcPeerGroup::shared by all its controllers (or the controller's own without one).
    struct ClaimState : public CcSharedState
    {
        double rc = 0;                     ///< the claim (bit/s)
        std::array<Epoch, 4> epochs;       ///< the latest regular updates (a ring)
        uint8_t epochHead = 0;             ///< index of the newest epoch
        bool gradRefValid = false;         ///< the gradient's reference sample is set
        Time gradRefSent;                  ///< its send time
        Time gradRefRtt;                   ///< its RTT
        double lastGradient = 0;           ///< the latest gradient measured
        double earned = 0;                 ///< bytes one QP has earned so far
        double sendRate = 0;               ///< the group's send rate, time-decayed (bit/s)
        Time advancedAt;                   ///< time of earned and sendRate
        double qpRate = 0;                 ///< a QP's rate in force since advancedAt
        Time lastRtt;                      ///< the latest RTT sample
        Time lastNackCut = Time(-1);       ///< when a NACK last cut the claim
        Ptr<UniformRandomVariable> jitter; ///< draws the pacing jitter
    };

    /// Apply one RTT sample (probe answer, or data ACK).
    void Sample(Time rtt);
    /// Without a peer group: the first sample (ends the window of one packet).
    void FirstOwnSample(Time rtt);
    /// The increase for a sample at or below the target, from epoch \p last.
    void Increase(const Epoch& last);
    /// \p rate capped by what the group (or the controller) sends: no growth it cannot use.
    double UsableIncrease(double rate, double lastRate);
    /// The outstanding probe has been out for \p elapsed: apply the decrease this lower
    /// bound of the RTT implies, from the claim the probe left at.
    void ApplyLateDecrease(Time elapsed);
    /// The QP's rate: the claim shared by Sharers() QPs.
    double Effective() const;
    /// Bring the group's pacing credit and send-rate estimate up to now (at the rate in
    /// force until now), then note the rate in force from now.
    void Advance();
    /// With a peer group: the NIC's active QPs to the destination; else 1.
    uint32_t Sharers() const;
    /// A packet that left at claim \p sentClaim saw \p rtt: the claim becomes at most
    /// BoundFor(sentClaim, rtt, gradient). \return whether it cut
    bool Bound(double sentClaim, Time rtt, double gradient);
    /// sentClaim x (1 - min(max(Beta (rtt - target) / rtt, 1 - 1 / (1 + gradient)),
    /// MaxMd)); infinity at or below the target. Changes nothing.
    double BoundFor(double sentClaim, Time rtt, double gradient) const;
    /// The queueing delay's growth per second of send time, from this sample and a
    /// reference at least GradientSpan older (0 until known).
    double Gradient(Time sent, Time rtt);
    /// The claim in force when a packet left at \p t (its epoch's).
    double RateSentAt(Time t) const;
    /// A regular update happened now; packets sent from now on belong to it.
    void NewEpoch();
    /// Target RTT for a QP at \p rate (flow scaling).
    Time TargetFor(double rate) const;
    /// The rate whose target is \p rtt (TargetFor inverted; infinity at or below
    /// TargetRtt, where every rate from one MTU per target RTT up has it).
    double RateForTarget(Time rtt) const;
    /// The pacing jitter's draws: the group's, the NIC's, or the controller's own.
    UniformRandomVariable* Rng();
    /// Set the claim, clamped to [Sharers() x the per-QP floor, line].
    void SetRate(double rate);

    // Attributes
    Time m_targetRttAttr;     ///< TargetRtt
    Time m_targetMargin;      ///< TargetMargin
    Time m_probeIntervalAttr; ///< ProbeInterval (0: the target RTT)
    Time m_flowScaleStep;     ///< FlowScaleStep
    Time m_flowScaleMax;      ///< FlowScaleMax
    Time m_gradientSpan;      ///< GradientSpan
    Time m_aiSpan;            ///< AiSpan
    Time m_pacingRecheck;     ///< PacingRecheck
    double m_nackFactor;      ///< NackFactor
    double m_minRateFraction; ///< MinRateFraction
    double m_beta;            ///< Beta
    double m_maxMd;           ///< MaxMd
    double m_miFactor;        ///< MiFactor
    double m_aiPackets;       ///< AiPackets
    double m_pacingJitter;    ///< PacingJitter

    // Resolved at Init
    Time m_targetRtt;
    Time m_probeInterval;
    double m_minRate; ///< bit/s, per QP

    // State
    Ptr<ClaimState> m_group; ///< the group's claim (null without a peer group)
    Ptr<ClaimState> m_own;   ///< the controller's own claim (without a peer group)
    ClaimState* m_s;         ///< the claim in use: m_group or m_own
    double m_earnedMark;     ///< the claim's `earned` when this QP last sent
    Time m_lastSendAt;       ///< when its last packet left
    double m_usedRate;       ///< own claim: the rate its last backlogged gap was sent at
    double m_lastPrice;      ///< its last packet's pacing price (wire bytes, jittered)
    Time m_lastProbe;        ///< when the last probe was asked for
    double m_probeRate;      ///< the claim when the outstanding probe left
    Time m_lastSample;       ///< time of the latest RTT sample (ACK or probe)
    uint64_t m_inflight;     ///< payload bytes sent and not acknowledged

    TargetMode m_targetMode; ///< TargetMode
    uint32_t m_ackPsn;       ///< cumulative ACK PSN of the latest ACK/NACK
    uint32_t m_ackSndNxt;    ///< sender's next PSN at the latest ACK/NACK
    uint32_t m_recoverPsn;   ///< the episode ends once every PSN below is acknowledged

    bool m_nackOncePerEpisode; ///< NackOncePerEpisode
    bool m_pacedOnce;          ///< the first packet's phase has been drawn
    bool m_drained;            ///< sent all it had (OnDrained), nothing since
    bool m_sampled;            ///< an RTT sample has arrived
    bool m_probeOutstanding;   ///< asked for a probe, no answer or timeout yet
    bool m_probedOnce;         ///< m_lastProbe is valid
    bool m_inLossEpisode;      ///< a NACK cut happened and its episode may go on
};

} // namespace ns3

#endif /* RDMA_RTT_PROBE_SHARED_H */
