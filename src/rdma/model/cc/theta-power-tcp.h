/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_THETA_POWER_TCP_H
#define RDMA_THETA_POWER_TCP_H

#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/power-window.h"

namespace ns3
{

/**
 * \ingroup rdma
 * θ-PowerTCP sender (Addanki et al., NSDI 2022, Algorithm 2): PowerTCP's window law
 * (PowerWindow) driven by RTT samples alone, no INT and no switch support. With θ an
 * ACK's RTT sample and τ the path's base RTT, per ACK against the previous sample:
 *   Γ = max(dθ/dt + 1, MinCurrent) θ / (f τ)
 * (the RTT gradient plus one stands for the current, the RTT for the voltage: for one
 * bottleneck of rate B and queue q, θ = τ + q/B and dθ/dt = (dq/dt)/B, so Γ is PowerTCP's
 * power; f = TargetRttFactor, 1.05, and MinCurrent, 0.5, are ns3-datacenter's guards:
 * f = 1 and MinCurrent = 0 give the paper's law). Γ is smoothed over τ with the time
 * between the samples as weight, then W = γ (W_prev / Γs + β) + (1 - γ) W, W_prev the
 * window one τ ago; paced at W / τ.
 *
 * τ defaults to the QP's own path's base RTT (CcContext::baseRtt), not the fabric's
 * largest: Γ must be 1 when that path's queues are empty.
 */
class ThetaPowerTcp : public CongestionControl
{
  public:
    static TypeId GetTypeId();
    ThetaPowerTcp();

    /// Window W in use (bytes).
    double GetCurrentWindow() const;
    /// W_prev, the window one τ ago (bytes).
    double GetPrevWindow() const;
    /// Smoothed normalised power Γs.
    double GetSmoothedPower() const;
    /// β in bytes for this QP.
    double GetBeta() const;
    /// τ, the base RTT.
    Time GetTau() const;
    /// W_max (bytes).
    double GetMaxWindow() const;
    /// W_min = MinRate x τ (bytes).
    double GetMinWindow() const;

  private:
    // CongestionControl
    void DoInit(const CcContext& ctx) override;
    void DoOnAck(const CcAck& ack) override;
    uint64_t DoGetRate() override;
    uint64_t DoGetWindow() const override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: OnAck, GetWindow
    uint16_t DoImplementedHooks() const override;

    /// Set the rate that follows from the law's W.
    void Publish();

    // Attributes
    double m_gamma;
    uint64_t m_betaBytes;
    Time m_baseRtt;
    DataRate m_minRate;
    uint64_t m_maxWindow;
    double m_minCurrent;
    double m_rttFactor;

    // State
    PowerWindow m_law;
    bool m_started;    ///< a previous RTT sample is stored
    Time m_prevRtt;    ///< the previous sample
    Time m_prevSample; ///< when it arrived
};

} // namespace ns3

#endif /* RDMA_THETA_POWER_TCP_H */
