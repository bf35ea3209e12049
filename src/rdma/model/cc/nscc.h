/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NSCC_H
#define RDMA_NSCC_H

#include "ns3/congestion-control.h"
#include "ns3/nstime.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * NSCC, the sender-side Network Signal-based Congestion Control of the Ultra Ethernet
 * transport (UEC specification 1.0), as the UEC reference simulator htsim implements it
 * (ultraethernet/uet-htsim, htsim/sim/uec.cpp, UecSrc::updateCwndOnAck_NSCC and the
 * functions it calls). A window W in payload bytes, within [1 MTU, MaxWindow x BDP].
 *
 * Per ACK, with delay = RTT sample - base RTT (the smallest RTT seen, starting at the
 * path's), the ECN echo and the delay against the target delay choose one of four
 * responses (GetLastResponse()):
 *  - no echo, delay >= target: FAIR_INCREASE, fi x acked bytes into the pending increase;
 *  - no echo, delay <  target: PROPORTIONAL_INCREASE, alpha x (target - delay) x acked
 *    bytes into the pending increase; or FAST_INCREASE once the delay has stayed below
 *    FastIncreaseDelay for more than a window of acknowledged bytes: W += acked x
 *    fi_scale at once, on every ACK until the delay rises above FastIncreaseDelay;
 *  - echo, delay >= target: MULTIPLICATIVE_DECREASE, at most once per base RTT and only
 *    if the averaged delay D exceeds the target: W *= max(1 - gamma (D - target) / D,
 *    1 - MaxDecrease);
 *  - echo, delay <  target: NO_CHANGE (the mark is another path's; htsim switches path).
 * The pending increase is applied ("fulfilled") when more than AdjustBytes x MTU bytes
 * have been acknowledged since the last fulfilment, or AdjustPeriod has passed since the
 * last eta step: W += pending / W (so fi is about fi bytes per window of ACKs), and, if
 * AdjustPeriod has passed, W += eta.
 *
 * The averaged delay D (an EWMA of weight DelayWeight per RTT sample, starting at 0): a
 * sample without echo and above target counts as base RTT / 4 (the queue is not on this
 * path), any other sample as itself. A NACK counts as a sample of the network RTT with
 * echo.
 *
 * QuickAdapt, checked first on every ACK: the QP counts the bytes acknowledged in
 * intervals of base RTT + target delay. When an interval has ended and a loss (a NACK
 * since the last QuickAdapt) or a delay above QaThreshold x target was seen, and fewer
 * than MaxWindow x BDP >> QaGate bytes were acknowledged in it, W drops to those bytes
 * (at least 1 MTU) and the ACKs with echo for the bytes then in flight are ignored. A NACK
 * that does not trigger QuickAdapt takes one MTU off W; a retransmission timeout takes
 * one MTU off W.
 *
 * Derived from the line rate, the network's base RTT (CcContext::fabricBaseRtt, htsim's
 * network_max_unloaded_rtt) and the MTU, as htsim's UecSrc::initNsccParams: with the
 * reference BDP ReferenceBdp (100 Gb/s x 12 us, 150 KB), scaling factor
 * a = network BDP / reference BDP and b = target / ReferenceRtt; fi = FairIncrease x MTU
 * x a, eta = Eta x MTU x a, alpha = ProportionalIncrease x MTU x a x b / target, fi_scale
 * = FastIncreaseScale x a; target = the network RTT. BDP = line rate x base RTT; W starts
 * at MaxWindow x BDP.
 *
 * Pacing, as the module's other window controllers: W sent in one base RTT, counted in
 * wire bytes, clamped to [1 bit/s, line rate].
 */
class Nscc : public CongestionControl
{
  public:
    /// What the last ACK did to the window (the quadrant of htsim's table, or more).
    enum Response : uint8_t
    {
        NONE,                    ///< no ACK yet
        FAIR_INCREASE,           ///< no echo, delay >= target
        PROPORTIONAL_INCREASE,   ///< no echo, delay < target
        FAST_INCREASE,           ///< no echo, delay < FastIncreaseDelay for a window
        MULTIPLICATIVE_DECREASE, ///< echo, delay >= target (cut only if allowed)
        NO_CHANGE,               ///< echo, delay < target
        QUICK_ADAPT,             ///< QuickAdapt set W to the bytes acknowledged
        IGNORED,                 ///< an echo for bytes in flight at the last QuickAdapt
    };

    static TypeId GetTypeId();
    Nscc();

    /// The window W, payload bytes.
    double GetCwnd() const;
    /// The largest window, MaxWindow x BDP (bytes).
    double GetMaxCwnd() const;
    /// The base RTT in use (the path's, or the smallest sample since).
    Time GetBaseRtt() const;
    /// The target delay in use.
    Time GetTargetDelay() const;
    /// The averaged delay D, seconds (kept as a double: at the simulator's nanosecond
    /// resolution a 1.25% step of a Time would stall within 40 ns of the samples).
    double GetAvgDelay() const;
    /// Scaling factor a: network BDP / reference BDP.
    double GetScalingA() const;
    /// Scaling factor b: target delay / ReferenceRtt.
    double GetScalingB() const;
    /// fi, bytes.
    double GetFi() const;
    /// eta, bytes.
    double GetEta() const;
    /// alpha, bytes per second of delay below target.
    double GetAlpha() const;
    /// fi_scale, dimensionless.
    double GetFastIncreaseScale() const;
    /// The increase waiting to be fulfilled, bytes^2 (it adds pending / W).
    double GetPendingIncrease() const;
    /// What the last ACK did.
    Response GetLastResponse() const;

  private:
    // CongestionControl
    void DoInit(const CcContext& ctx) override;
    void DoOnAck(const CcAck& ack) override;
    void DoOnNack() override;
    void DoOnTimeout() override;
    uint64_t DoGetRate() override;
    uint64_t DoGetWindow() const override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements, OnAck and GetWindow
    uint16_t DoImplementedHooks() const override;

    /// Fold one delay sample into D (\p ecn: the sample's echo).
    void UpdateAvgDelay(Time delay, bool ecn);
    /// A smaller RTT sample lowers the base RTT, the BDP and the largest window.
    void UpdateBaseRtt(Time rtt);
    /**
     * QuickAdapt's check (htsim's quick_adapt).
     * \return true if the ACK is consumed: QuickAdapt ran, or an echo is ignored
     */
    bool QuickAdapt(bool loss, bool ecn, Time delay);
    void ProportionalIncrease(uint64_t acked, Time delay);
    /// \return whether the fast increase applied (then the proportional one does not)
    bool FastIncrease(uint64_t acked, Time delay);
    void MultiplicativeDecrease();
    /// Apply the pending increase, and eta once per AdjustPeriod.
    void Fulfill();
    /// Set W within [1 MTU, largest window], and the pacing rate that goes with it.
    void SetWindow(double w);

    // Attributes
    Time m_targetDelayAttr;
    Time m_networkRttAttr;
    uint64_t m_referenceBdp;
    Time m_referenceRtt;
    double m_fiMtus;
    double m_etaMtus;
    double m_alphaMtus;
    double m_fastScale;
    Time m_fastDelay;
    double m_gamma;
    double m_maxDecrease;
    double m_delayWeight;
    double m_qaThreshold;
    uint32_t m_qaGate;
    bool m_quickAdapt;
    double m_maxWindowBdp;
    uint64_t m_initialWindowAttr;
    double m_adjustMtus;
    Time m_adjustPeriodAttr;

    // Derived at Init
    Time m_target;
    Time m_networkRtt;
    Time m_adjustPeriod;
    double m_a;
    double m_b;
    double m_fi;
    double m_eta;
    double m_alpha;
    double m_fiScale;
    double m_minWindow;
    double m_wireRatio; ///< wire bytes / payload bytes of an MTU data packet

    // State
    Time m_baseRtt;
    double m_maxWindow;
    TracedValue<double> m_cwnd; ///< W, payload bytes
    double m_avgDelay;          ///< D, seconds
    double m_pending;           ///< increase awaiting fulfilment (bytes^2)
    uint64_t m_receivedBytes;   ///< acknowledged since the last fulfilment
    Time m_lastAdjust;          ///< last eta step
    Time m_lastDecrease;
    uint64_t m_fastCount; ///< bytes acknowledged with delay < FastIncreaseDelay
    bool m_fastIncreasing;
    uint64_t m_achievedBytes; ///< acknowledged in the current QuickAdapt interval
    Time m_qaEnd;             ///< end of the current interval (0: none started)
    bool m_qaTrigger;         ///< a NACK since the last QuickAdapt
    uint64_t m_bytesToIgnore; ///< in flight at the last QuickAdapt
    uint64_t m_bytesIgnored;  ///< acknowledged or NACKed since
    uint64_t m_inflight;      ///< in flight after the last ACK
    Response m_last;
};

} // namespace ns3

#endif /* RDMA_NSCC_H */
