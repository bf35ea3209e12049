/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RTT_PROBE_NVIDIA_H
#define RDMA_RTT_PROBE_NVIDIA_H

#include "ns3/congestion-control.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * NVIDIA's public RTT sample algorithm (DOCA PCC "rtt_template"), the reference
 * parameterisation of the RTT-probe no-PFC controller (docs/design.md, "RTT-probe"),
 * kept so that the published reference can be run (cc.algorithm rtt-probe-nvidia). End
 * to end and rate based: it needs no switch feature (no ECN, no PFC, no INT).
 *
 * Contract:
 *  - probes: it asks for an RTT probe at most once per ProbeInterval (sent to sent;
 *    default the target RTT), with at most one outstanding; it asks again after the
 *    answer or after the NIC's probe timeout. Data ACK RTTs feed the rule only with
 *    UseAckRtt, at most once per max(ProbeInterval, that RTT) after the last update;
 *  - start: at the line rate;
 *  - per sample (the reference rule): rtt >= HighRtt: x HighRttMdFactor (x NackFactor
 *    instead if a NACK is pending, NackMode OnHighRtt); rtt > target: x MdFactor; else
 *    + AiStep x line rate;
 *  - NACK: NackMode Immediate (default) multiplies by NackFactor at once, once per loss
 *    episode with NackOncePerEpisode (an episode lasts until every PSN sent up to the
 *    cutting NACK is acknowledged); NackMode OnHighRtt (NVIDIA) waits for a sample at or
 *    above HighRtt;
 *  - LateProbeDecrease (default on, a module extension): a probe still unanswered after k
 *    target RTTs stands for k samples above the target, each applied as soon as it is
 *    known (at GetRate(), at the answer, at the probe timeout), up to the first k with
 *    k x target >= HighRtt (the high-RTT decrease), which is the last;
 *  - target: TargetRtt (TargetMode Absolute) or the path's base RTT + TargetMargin
 *    (BasePlusMargin); the rate stays in [MinRateFraction x line, line].
 * No timers: every change happens in an event handler or lazily at GetRate(), so idle
 * QPs cost nothing and every rule is testable with a fake clock. It uses the ACK (NACK
 * episodes, UseAckRtt) and probe hooks only: no window, no pacing of its own, no peer
 * rates.
 */
class RttProbeNvidia : public CongestionControl, public CcSendTiming
{
  public:
    /// Where the target RTT comes from.
    enum TargetMode
    {
        TARGET_ABSOLUTE,  ///< TargetRtt as given (NVIDIA sample: 13 us)
        TARGET_BASE_PLUS, ///< the path's base RTT + TargetMargin
    };

    /// How a NACK acts on the rate.
    enum NackMode
    {
        NACK_IMMEDIATE,   ///< x NackFactor at once (CTCC design)
        NACK_ON_HIGH_RTT, ///< x NackFactor at the next sample with rtt >= HighRtt (NVIDIA)
    };

    static TypeId GetTypeId();
    RttProbeNvidia();

    // CcSendTiming
    bool WantsProbe() override;
    void OnProbeResponse(Time rtt) override;
    void OnProbeTimeout() override;

    /// The target RTT (resolved at Init).
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
    /// GetRate() without applying the late decreases it would apply (no state changes).
    uint64_t DoPeekRate() const override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: OnAck and WantsProbe
    uint16_t DoImplementedHooks() const override;

    CcSendTiming* DoGetExtension() override
    {
        return this;
    }

    /// The reference rule for one sample (probe answer, or data ACK with UseAckRtt).
    void Sample(Time rtt);

    /// What ApplyLateDecreases(\p elapsed) would leave: the rate before clamping, the
    /// decreases then applied for the outstanding probe and whether a NACK is pending.
    struct LateDecrease
    {
        double rate;
        uint64_t count;
        bool nackPending;
    };

    /// That, changing nothing.
    LateDecrease PendingLateDecreases(Time elapsed) const;
    /// The outstanding probe has been out for \p elapsed: apply the decreases due (one per
    /// whole target RTT, the last at HighRtt).
    void ApplyLateDecreases(Time elapsed);
    /// Set the rate, clamped to [MinRateFraction x line, line].
    void SetRate(double rate);

    // Attributes (8-byte members first, then 4 and 1 byte: no padding between them)
    Time m_targetRttAttr;     ///< TargetRtt
    Time m_targetMargin;      ///< TargetMargin
    Time m_probeIntervalAttr; ///< ProbeInterval (0: the target RTT)
    Time m_highRtt;           ///< HighRtt
    double m_mdFactor;        ///< MdFactor
    double m_highRttMdFactor; ///< HighRttMdFactor
    double m_aiStep;          ///< AiStep (fraction of the line rate)
    double m_nackFactor;      ///< NackFactor
    double m_minRateFraction; ///< MinRateFraction

    // Resolved at Init
    Time m_targetRtt;
    Time m_probeInterval;
    double m_minRate; ///< bit/s

    // State
    double m_rc;              ///< current rate (bit/s)
    Time m_lastProbe;         ///< when the last probe was asked for
    Time m_lastUpdate;        ///< time of the latest rate change from a sample
    uint64_t m_lateDecreases; ///< decreases already applied for the outstanding probe

    TargetMode m_targetMode; ///< TargetMode
    NackMode m_nackMode;     ///< NackMode
    uint32_t m_ackPsn;       ///< cumulative ACK PSN of the latest ACK/NACK
    uint32_t m_ackSndNxt;    ///< sender's next PSN at the latest ACK/NACK
    uint32_t m_recoverPsn;   ///< the episode ends once every PSN below is acknowledged

    bool m_nackOncePerEpisode; ///< NackOncePerEpisode
    bool m_lateProbeDecrease;  ///< LateProbeDecrease
    bool m_useAckRtt;          ///< UseAckRtt
    bool m_probeOutstanding;   ///< asked for a probe, no answer or timeout yet
    bool m_probedOnce;         ///< m_lastProbe is valid
    bool m_inLossEpisode;      ///< a NACK cut happened and its episode may go on
    bool m_nackPending;        ///< NackMode OnHighRtt: a NACK waits for a high-RTT sample
};

} // namespace ns3

#endif /* RDMA_RTT_PROBE_NVIDIA_H */
