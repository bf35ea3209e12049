/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SWIFT_H
#define RDMA_SWIFT_H

#include "ns3/congestion-control.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * Swift (Kumar et al., SIGCOMM 2020): delay-based, window-based congestion control.
 *
 * Two congestion windows in packets, both allowed below one packet:
 *  - the fabric window fcwnd reacts to the fabric delay (RTT minus the endpoint delay)
 *    against a target that grows with the path's hop count and (flow scaling) shrinks as
 *    fcwnd grows: base_target + hops * h + max(0, min(alpha/sqrt(fcwnd) + beta_fs,
 *    fs_range)) with alpha = fs_range / (1/sqrt(fs_min_cwnd) - 1/sqrt(fs_max_cwnd)) and
 *    beta_fs = -alpha / sqrt(fs_max_cwnd), so the term is fs_range at fs_min_cwnd and 0 at
 *    fs_max_cwnd;
 *  - the endpoint window ecwnd reacts to the endpoint delay (CcAck::remoteDelay, the time
 *    the responder held the packet) against EndpointTarget.
 * The effective window is cwnd = min(fcwnd, ecwnd). Each window, per ACK: below target,
 * additive increase (ai * acked / cwnd if cwnd >= 1, ai * acked if cwnd < 1, acked in
 * packets); at or above target, at most once per RTT, cwnd *= max(1 - beta (delay -
 * target) / delay, 1 - max_mdf). A retransmission timeout increments retx_cnt: at
 * RetxResetThreshold both windows drop to MinCwnd, below it they are cut by 1 - max_mdf
 * (at most once per RTT); an ACK that acknowledges new data resets retx_cnt. Fast
 * recovery (a NACK) cuts by 1 - max_mdf (at most once per RTT) and resets retx_cnt.
 *
 * What the NIC sees: GetWindow() = max(cwnd, 1) * mtu bytes rounded up, so the NIC (which
 * blocks when inflight * mtu >= window) sends while inflight < cwnd; GetRate() is the line
 * rate (unpaced, ACK-clocked) when cwnd >= 1 and, when cwnd < 1, the rate that sends one
 * MTU-sized packet (its wire bytes) every rtt / cwnd, rtt being the last RTT sample.
 *
 * No timers: every rule is driven by an event (ACK, NACK, timeout).
 */
class Swift : public CongestionControl, public CcSendTiming
{
  public:
    static TypeId GetTypeId();
    Swift();

    /// Effective window min(fcwnd, ecwnd), packets.
    double GetCwnd() const;
    /// Fabric window, packets.
    double GetFabricCwnd() const;
    /// Endpoint window, packets.
    double GetEndpointCwnd() const;
    /// Fabric target delay for the current fabric window.
    Time GetFabricTarget() const;
    /// Fabric target delay for a fabric window of \p fcwnd packets.
    Time GetFabricTargetFor(double fcwnd) const;
    /// Flow-scaling term (seconds) for a fabric window of \p fcwnd packets (0 if off).
    double FlowScalingSeconds(double fcwnd) const;
    /// Base target delay in use (BaseTarget, or the path's base RTT + BaseTargetExtra).
    Time GetBaseTarget() const;
    /// Largest window in use, packets.
    double GetMaxCwnd() const;
    /// Consecutive retransmission timeouts without ACK progress.
    uint32_t GetRetxCount() const;

  private:
    // CongestionControl
    void DoInit(const CcContext& ctx) override;
    void DoOnAck(const CcAck& ack) override;
    void DoOnNack() override;
    void DoOnTimeout() override;
    uint64_t DoGetRate() override;
    uint64_t DoGetWindow() const override;
    CcSendTiming* DoGetExtension() override;
    // CcSendTiming: its own retransmission timeout, srtt + 4 rttvar (HOOK_RTO)
    Time RetransmissionTimeout() const override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: OnAck, GetWindow and its own timeout
    uint16_t DoImplementedHooks() const override;

    /// One of the two AIMD windows.
    struct Window
    {
        double cwnd = 1;
        Time lastDecrease;
        bool everDecreased = false;
    };

    /// Whether \p w may be cut now: at least one RTT (the last sample) since its last cut.
    bool CanDecrease(const Window& w, Time now) const;
    /// Additive increase or delay-proportional decrease of \p w for one ACK.
    void React(Window& w, double delay, double target, double ackedPackets, Time now);
    /// Cut \p w by 1 - max_mdf if it may be cut now.
    void CutOncePerRtt(Window& w, Time now);
    void Cut(Window& w, double factor, Time now);
    double Clamp(double cwnd) const;
    void UpdateRate();

    // Attributes
    double m_ai;
    double m_beta;
    double m_maxMdf;
    Time m_baseTarget;
    Time m_baseTargetExtra;
    Time m_perHop;
    bool m_flowScaling;
    Time m_fsRange;
    double m_fsMinCwnd;
    double m_fsMaxCwnd;
    Time m_endpointTarget;
    double m_minCwnd;
    double m_maxCwndAttr;
    double m_initialCwndAttr;
    uint32_t m_retxResetThreshold;

    // Derived at Init
    double m_baseTargetS; ///< base target + hops * h, seconds
    double m_fsAlpha;     ///< flow-scaling alpha, seconds * sqrt(packets)
    double m_fsBeta;      ///< flow-scaling beta, seconds
    double m_maxCwnd;
    double m_wireBits; ///< wire bits of an MTU-sized data packet

    // State
    Window m_fabric;
    Window m_endpoint;
    uint32_t m_retxCount;
    Time m_lastRtt; ///< latest RTT sample (the path's base RTT until the first ACK)
    Time m_minRto;
    Time m_srtt;   ///< smoothed RTT (zero until the first sample)
    Time m_rttvar; ///< RTT variation
};

} // namespace ns3

#endif /* RDMA_SWIFT_H */
