/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RTT_PROBE_H
#define RDMA_RTT_PROBE_H

#include "ns3/congestion-control.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * RTT-probe no-PFC controller (the China Telecom CTCC design, ALGORITHMS.md), with the
 * reference parameterisation of NVIDIA's public RTT sample algorithm (DOCA PCC
 * "rtt_template"). End to end and rate based: it needs no switch feature (no ECN, no
 * PFC, no INT) and is meant to run with PFC off.
 *
 * Signal: the NIC sends an RTT probe when WantsProbe() says so (at most one
 * outstanding, at least ProbeInterval apart, so about one per RTT); the probe travels
 * in the QP's data class, hence waits in the same queues as the data, and the receiver
 * answers it in the strict class. Each answer is one sample (OnProbeResponse):
 *  - rtt >= HighRtt:       rate *= HighRttMdFactor (x0.8), or NackFactor (x0.5) if a
 *                          NACK is pending (NackMode OnHighRtt);
 *  - target < rtt:         rate *= MdFactor (x0.9);
 *  - rtt <= target:        rate += AiStep x line rate (+5%);
 *  - rate kept in [MinRateFraction x line, line]; flows start at line rate.
 * A NACK (a loss seen by the receiver) halves the rate at once (Immediate mode, the
 * CTCC design), once per loss episode: NACKs that arrive before everything sent up to
 * the cutting NACK is acknowledged belong to the same episode (with selective repeat the
 * receiver NACKs every packet that arrives behind a hole, and one loss must not count
 * as dozens).
 *
 * Late probes (LateProbeDecrease): the probe waits in the queue it measures, so the
 * feedback slows down as the queue grows; at 100G an 8:1 incast starting at line rate
 * builds megabytes before the second answer comes back. A probe still outstanding after
 * k target RTTs is known to have an RTT above the target: the controller applies the
 * k-th decrease (x0.9) as soon as it knows, lazily at the NIC's next GetRate(), and the
 * answer only adds what is still due. The first k with k x target >= HighRtt gives the
 * reference's high-RTT decrease (x0.8) and is the last: one probe stands for at most
 * that many samples (12 at the defaults), which limits the undershoot while a large
 * queue drains (every probe then waits behind it). A probe answered within twice the
 * target counts exactly as in the reference rule. A probe timeout (the NIC's
 * ProbeTimeout, 300 us doubling on each miss) applies the decreases due and re-asks.
 *
 * Data ACK RTTs (CcAck::rtt) are ignored by default, as the design measures with
 * probes; UseAckRtt feeds them through the same rule, at most one update per RTT.
 *
 * No timers at all: every state change happens in an event handler, so idle QPs cost
 * nothing and every rule is testable with a fake clock.
 */
class RttProbe : public CongestionControl
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
    RttProbe();

    void Init(const CcContext& ctx) override;
    void OnAck(const CcAck& ack) override;
    void OnNack() override;
    bool WantsProbe() override;
    void OnProbeResponse(Time rtt) override;
    void OnProbeTimeout() override;
    uint64_t GetRate() override;
    std::string GetName() const override;

    /// The target RTT in use (resolved from TargetMode at Init).
    Time GetTargetRtt() const;
    /// The shortest spacing of two probes in use (resolved at Init).
    Time GetProbeInterval() const;
    /// Whether the controller is waiting for the answer to a probe it asked for.
    bool IsProbeOutstanding() const;

  private:
    /// Apply one RTT sample (probe answer, or data ACK with UseAckRtt).
    void Sample(Time rtt);
    /// LateProbeDecrease: apply the decreases due for the outstanding probe, which has
    /// been out for \p elapsed (one per whole target RTT strictly below it).
    void ApplyLateDecreases(Time elapsed);
    void SetRate(double rate);

    // Attributes
    TargetMode m_targetMode;
    Time m_targetRttAttr;
    Time m_targetMargin;
    Time m_probeIntervalAttr;
    double m_mdFactor;
    Time m_highRtt;
    double m_highRttMdFactor;
    double m_aiStep;
    double m_nackFactor;
    NackMode m_nackMode;
    bool m_nackOncePerEpisode;
    bool m_lateProbeDecrease;
    double m_minRateFraction;
    bool m_useAckRtt;

    // Resolved at Init
    Time m_targetRtt;
    Time m_probeInterval;
    double m_minRate; ///< bit/s

    // State
    double m_rc;              ///< current rate (bit/s)
    bool m_probeOutstanding;  ///< asked for a probe, no answer or timeout yet
    bool m_probedOnce;        ///< m_lastProbe is valid
    Time m_lastProbe;         ///< when the last probe was asked for
    uint64_t m_lateDecreases; ///< decreases already applied for the outstanding probe
    Time m_lastUpdate;        ///< time of the latest sample applied
    uint32_t m_ackPsn;        ///< cumulative ACK PSN of the latest ACK/NACK
    uint32_t m_ackSndNxt;     ///< sender's next PSN at the latest ACK/NACK
    bool m_inLossEpisode;     ///< a NACK cut happened and its episode may go on
    uint32_t m_recoverPsn;    ///< the episode ends once every PSN below is acknowledged
    bool m_nackPending;       ///< NackOnHighRtt mode: a NACK waits for a high-RTT sample
};

} // namespace ns3

#endif /* RDMA_RTT_PROBE_H */
