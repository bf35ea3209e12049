/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RTT_PROBE_H
#define RDMA_RTT_PROBE_H

#include "ns3/congestion-control.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rtt-probe-path-trend.h"
#include "ns3/rtt-probe-start-window.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * RTT-probe, the no-PFC controller of the China Telecom CTCC design: end to end and rate
 * based, one rate per QP, driven by the QP's own RTT samples. It needs no switch feature
 * (no ECN, no PFC, no INT): every data packet is a probe, its ACK echoing its send time
 * as RoCE NICs timestamp in hardware. docs/design.md ("RTT-probe: the law") derives it;
 * in short, with C the line rate, B the path's base RTT and r the QP's rate:
 *
 *  - target: T(r) = B + q0 + s log2(C / r) (q0 TargetQueueDelay, s DelayPerHalving): a
 *    QP with a smaller share aims at a longer queue, so QPs sharing a queue converge to
 *    equal rates (Swift's flow-scaled target, in a form that does not saturate), and N
 *    equal QPs hold a queue of q0 + s log2 N;
 *  - one update per RTT: a sample counts only if its packet left after the last update
 *    (Swift's rule);
 *  - trend: g, the queueing delay's growth per second of sending, between the sample and
 *    the NIC's newest sample to the same destination at least T(r) / 2 older
 *    (RttProbePathTrend); the QPs together are then cut by the overload factor, at Gain;
 *  - above the target: r <- r (T / rtt)^k D(g), k = Gain min(1, SparseUpdates T / dt),
 *    dt the time since the last update: a QP that samples once per packet, far less often
 *    than once per RTT, takes a smaller share of the correction each time, as all such
 *    QPs act on the same queue in turn;
 *  - at or below it: r <- r (1 + AdditiveIncrease + Gain h min(1, T / dt)) D(g),
 *    h = (T - rtt) / T, the headroom: fast when the path is empty, gentle at the target;
 *  - D(g) = max(1 - Gain g, 1 / (1 + Gain g)^2); one update at most MaxIncrease x;
 *  - a QP that sent less than half its rate since the last update (its NIC or its
 *    application held it back) is cut from what it sent and does not grow (RFC 7661);
 *  - start: a new or idle QP sends at once, unpaced, until its first sample, within its
 *    NIC's start window (RttProbeStartWindow, at most W0 = C T(C) in flight); the first
 *    update applies the rules above to the rate its start achieved;
 *  - pacing: one packet per wire size / r, each gap drawn within +-PacingJitter of its
 *    mean (never shorter than the line's), so QPs that were cut together drift apart;
 *  - a NACK or a retransmission timeout multiplies r by NackFactor, once per episode.
 *
 * r stays in [MinRateFraction x C, C]. No timers: every change happens in an event
 * handler, so idle QPs cost nothing and every rule is testable on a fake clock. The
 * per-destination claim and NVIDIA's reference are classes of their own
 * (RttProbeShared, RttProbeNvidia).
 */
class RttProbe : public CongestionControl, public CcSendTiming
{
  public:
    static TypeId GetTypeId();
    RttProbe();

    // CcSendTiming
    Time PacingDelay(uint32_t lastWireBytes) override;
    /// True: every gap is the QP's own (a cut at an ACK lengthens the gap being waited).
    bool PacesByCredit() const override;

    /// \return the target RTT T(r) at the QP's current rate
    Time GetTargetRtt() const;
    /// \return T(\p rate) (\p rate in bit/s, clamped to [floor, line])
    Time TargetFor(double rate) const;
    /// \return W0 = C x T(C), the payload bytes a starting QP may have in flight
    uint64_t GetInitialWindow() const;
    /// \return whether the QP is in its start (no sample since it started or restarted)
    bool IsStarting() const;

  private:
    // CongestionControl
    void DoInit(const CcContext& ctx) override;
    void DoOnAck(const CcAck& ack) override;
    void DoOnNack() override;
    void DoOnTimeout() override;
    uint64_t DoGetRate() override;
    uint64_t DoPeekRate() const override;
    /// While it starts, W0; then no window (rate only).
    uint64_t DoGetWindow() const override;
    std::string DoGetName() const override;
    uint16_t DoImplementedHooks() const override;
    void DoOnSendEvent(CcSendEvent event, uint32_t payloadBytes) override;

    CcSendTiming* DoGetExtension() override
    {
        return this;
    }

    // The send events (DoOnSendEvent)
    void HandleSend(uint32_t payloadBytes);

    /// One RTT sample of a packet that left at \p sent; \p startAcked of the bytes it
    /// acknowledges were sent in the QP's start.
    void Sample(Time sent, Time rtt, uint64_t startAcked);
    /// The rule for an update at \p rtt with trend \p g, from the rate \p base, for a QP
    /// whose target is \p target (seconds, T of its rate).
    double Update(double target, Time rtt, double g, double base, bool heldBack) const;
    /// The trend g of a sample, over at least \p span of send time (0 if unknown).
    double Trend(Time sent, Time rtt, Time span) const;
    void SetRate(double rate);
    /// Start (or restart after idle): unpaced until the first sample.
    void Start();
    /// A QP that sent all it had, all acknowledged, starts again at its next packet.
    void RestartIfIdle();
    RttProbeStartWindow& Window();
    /// A start window of W0 (the NIC's, or outside a NIC the QP's own).
    Ptr<RttProbeStartWindow> NewWindow() const;

    // Attributes
    Time m_q0;              ///< TargetQueueDelay
    Time m_perHalving;      ///< DelayPerHalving
    double m_minFraction;   ///< MinRateFraction
    double m_nackFactor;    ///< NackFactor
    double m_maxIncrease;   ///< MaxIncrease
    double m_additive;      ///< AdditiveIncrease
    double m_gain;          ///< Gain
    double m_sparseUpdates; ///< SparseUpdates
    double m_jitter;        ///< PacingJitter

    // Resolved at Init
    double m_line;     ///< C (bit/s)
    double m_minRate;  ///< the floor (bit/s)
    Time m_baseTarget; ///< B + q0, the target at line rate

    // State
    double m_r;                          ///< the rate (bit/s)
    double m_price;                      ///< the last packet's gap, in mean gaps
    Time m_lastUpdate;                   ///< the last update (or the start's first packet)
    Time m_lastSend;                     ///< when the QP's last packet left (-1: none)
    uint64_t m_sentSinceUpdate;          ///< wire bytes sent since the last update
    uint64_t m_inflight;                 ///< payload bytes sent and not acknowledged
    uint64_t m_startInflight;            ///< of those, bytes sent while starting
    Ptr<RttProbeStartWindow> m_start;    ///< the NIC's start window (or the QP's own)
    Ptr<RttProbePathTrend> m_trend;      ///< the NIC's samples to the destination (or own)
    Ptr<UniformRandomVariable> m_random; ///< the pacing jitter's draws
    uint32_t m_recoverPsn;               ///< the loss episode ends once all below is acked
    uint32_t m_ackPsn;                   ///< cumulative ACK PSN of the latest ACK
    uint32_t m_ackSndNxt;                ///< the QP's next PSN at the latest ACK
    bool m_starting;                     ///< no sample since its (re)start
    bool m_queuedFirst;                  ///< its first start packet waits for the window
    bool m_startAsked;                   ///< the start's clock runs (it has had work)
    bool m_drained;                      ///< sent all it had (OnDrained), nothing since
    bool m_inLossEpisode;                ///< a NACK cut happened and its episode may go on
};

} // namespace ns3

#endif /* RDMA_RTT_PROBE_H */
