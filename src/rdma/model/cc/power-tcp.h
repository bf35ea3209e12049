/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_POWER_TCP_H
#define RDMA_POWER_TCP_H

#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/int-path-history.h"
#include "ns3/power-window.h"

namespace ns3
{

/**
 * \ingroup rdma
 * PowerTCP sender (Addanki et al., "PowerTCP: Pushing the Performance Limits of
 * Datacenter Networks", NSDI 2022, Algorithm 1), window based, paced at W / τ.
 *
 * Switches push one IntHop record per egress on every data packet (HOOK_INT), the
 * receiver echoes them. Per ACK, for each forward hop i against the previous ACK's
 * record of that hop (dt = the stamps' difference, B_i its rate in bytes/s):
 *   current  λ_i = dq_i/dt + txRate_i      (queue gradient + transmit rate, bytes/s)
 *   voltage  v_i = q_i + B_i τ             (queue + bandwidth-delay product, bytes)
 *   Γ_i = λ_i v_i / (B_i^2 τ)              (normalised power; 1 at full rate, no queue)
 * Γ = max_i Γ_i, Δt = that hop's dt; the window law (PowerWindow) smooths Γ over τ and
 * updates W = γ (W_prev / Γs + β) + (1 - γ) W, W_prev the window one τ ago. τ is the base
 * RTT (default the fabric's largest, as HPCC's T); W starts at line rate x τ. The current
 * is floored at MinCurrent x B_i (ns3-datacenter's guard; 0 for the paper's law
 * unguarded), which bounds the growth while a queue drains.
 *
 * Where the paper is silent, as HPCC here (hpcc.h): the first ACK with INT only stores
 * the records; a change of the number of records, or records older than a quarter of a
 * counter's wrap period, re-store them; a record whose stamp did not advance is skipped;
 * only the forward path's (hops - 1) records count (IntPathHistory).
 */
class PowerTcp : public CongestionControl
{
  public:
    static TypeId GetTypeId();
    PowerTcp();

    /// Window W in use (bytes).
    double GetCurrentWindow() const;
    /// W_prev, the window one τ ago (bytes).
    double GetPrevWindow() const;
    /// Smoothed normalised power Γs.
    double GetSmoothedPower() const;
    /// β in bytes for this QP.
    double GetBeta() const;
    /// τ, the base RTT the power and the rate are normalised to.
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
    /// \return the optional hooks it implements: OnAck, GetWindow, and it reads INT
    uint16_t DoImplementedHooks() const override;

    /// The largest Γ_i over \p n hops (\p power, its \p dt), newer records kept; false:
    /// no hop brought news.
    bool MaxPower(const CcAck& ack, uint32_t n, double& power, double& dt);
    /// Set the rate that follows from the law's W.
    void Publish();

    // Attributes
    double m_gamma;
    uint64_t m_betaBytes;
    Time m_baseRtt;
    DataRate m_minRate;
    uint64_t m_maxWindow;
    double m_minCurrent;

    // State
    PowerWindow m_law;
    IntPathHistory m_int;
};

} // namespace ns3

#endif /* RDMA_POWER_TCP_H */
