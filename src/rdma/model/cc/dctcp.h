/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DCTCP_H
#define RDMA_DCTCP_H

#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * DCTCP for RoCE QPs (Alizadeh et al., "Data Center TCP", SIGCOMM 2010; RFC 8257): a
 * window in payload bytes, driven by the fraction of ECN-marked data, and pacing at the
 * rate that sends that window in one base RTT.
 *
 * Per window of data (it ends with the first ACK whose cumulative PSN passes the sndNxt
 * recorded when it began, RFC 8257's WindowEnd): F = acknowledged bytes whose ACK carried
 * ECN echo (CcAck::ecnEcho) / acknowledged bytes, and alpha = (1 - g) alpha + g F.
 *
 * Window W (payload bytes):
 *  - an ACK with ECN echo cuts W = W (1 - alpha / 2), with the alpha of this ACK (updated
 *    first if the ACK ends a window), at most once per window of data: the cut starts a
 *    reduction episode that lasts until the data sent after it is acknowledged;
 *  - an ACK without echo, outside a reduction episode, counts its bytes toward +Ai MTU:
 *    each time W bytes have been acknowledged that way, W += Ai x MTU (congestion
 *    avoidance, one MTU per round trip at Ai = 1);
 *  - a loss (a NACK, or the retransmission timer) multiplies W by LossFactor (1/2) once
 *    per loss episode: the episode lasts until the data that was sent when it began (the
 *    largest sndNxt any ACK reported) is acknowledged; it is also a reduction episode, so
 *    an echo in the same window does not cut again;
 *  - W stays within [1 MTU, MaxWindow] (MaxWindow 0: no cap).
 * W starts at InitialWindow, by default one BDP: line rate x path base RTT (CcContext).
 *
 * Rate: W sent in one base RTT, counted in wire bytes (the NIC paces wire bytes): W x
 * (wire bytes / payload bytes of an MTU packet) x 8 / base RTT, clamped to [MinRate, line
 * rate]. A queue then limits the QP through its window (the ACK clock), not its pacing.
 *
 * The echo must be per packet. The responding NIC sets an ACK's echo from the one data
 * packet it answers; with AckInterval 1 (the default) every data packet is answered on
 * its own, so the echo is exact. With a larger AckInterval an ACK covering several packets
 * carries the mark of its last one only (the scenario checks refuse `dctcp` then). CNPs,
 * which the NIC also sends for marked packets, are ignored.
 *
 * The window-of-data rule reads PSNs, so it assumes one QP per controller (per-QP rate
 * limiting, the default).
 */
class Dctcp : public CongestionControl
{
  public:
    static TypeId GetTypeId();
    Dctcp();

    /// alpha, the running estimate of the marked fraction, in [0, 1].
    double GetAlpha() const;
    /// The window W, payload bytes (before rounding).
    double GetCwnd() const;
    /// Whether a reduction episode (an echo cut or a loss) is under way.
    bool InReduction() const;

  private:
    // CongestionControl
    void DoInit(const CcContext& ctx) override;
    void DoOnAck(const CcAck& ack) override;
    void DoOnNack() override;
    void DoOnTimeout() override;
    uint64_t DoGetRate() override;
    uint64_t DoGetWindow() const override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements, OnAck and GetWindow, and its need of one
    ///         ACK per packet (HOOK_ECN_PER_PACKET)
    uint16_t DoImplementedHooks() const override;

    /// Close the window of data that \p ack ends: fold its marked fraction into alpha.
    void EndObservationWindow(const CcAck& ack);
    /// Cut W by 1 - alpha / 2 (an echo) or by LossFactor (a loss) and start an episode.
    void Reduce(double factor);
    /// A loss (NACK or timeout): reduce once per loss episode.
    void OnLoss();
    /// Set W within [1 MTU, max], and the rate that goes with it.
    void SetWindow(double w);

    // Attributes
    double m_g;
    double m_initialAlpha;
    uint64_t m_initialWindowAttr;
    uint64_t m_maxWindowAttr;
    double m_ai;
    double m_lossFactor;
    DataRate m_minRate;

    // Derived at Init
    double m_minWindow;  ///< bytes: one MTU
    double m_maxWindow;  ///< bytes (a huge value for no cap)
    double m_wireRatio;  ///< wire bytes / payload bytes of an MTU data packet
    double m_baseRttSec; ///< the base RTT that the pacing rate spreads W over

    // State
    TracedValue<double> m_alpha; ///< DCTCP's alpha
    TracedValue<double> m_cwnd;  ///< W, payload bytes
    bool m_started;              ///< an ACK has started the first window of data
    uint32_t m_windowEnd;        ///< sndNxt when the current window of data began
    uint64_t m_windowAcked;      ///< bytes acknowledged in the current window
    uint64_t m_windowMarked;     ///< of those, the bytes whose ACK carried an echo
    uint64_t m_aiAcked;          ///< bytes acknowledged toward the next additive step
    bool m_reducing;             ///< a reduction episode is under way
    uint32_t m_reduceEnd;        ///< it ends when an ACK's cumulative PSN passes this
    bool m_inLoss;               ///< a loss episode is under way
    uint32_t m_lossEnd;          ///< it ends when an ACK's cumulative PSN passes this
    uint32_t m_highSndNxt;       ///< the largest sndNxt an ACK has reported
};

} // namespace ns3

#endif /* RDMA_DCTCP_H */
