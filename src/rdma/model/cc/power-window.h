/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_POWER_WINDOW_H
#define RDMA_POWER_WINDOW_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The window law PowerTCP and θ-PowerTCP share (Addanki et al., "PowerTCP: Pushing the
 * Performance Limits of Datacenter Networks", NSDI 2022, Algorithms 1 and 2): a
 * normalised power Γ per ACK, smoothed over the base RTT τ, drives
 *
 *   Γs = (Γs (τ - Δt) + Γ Δt) / τ                    (Δt: the time Γ covers, <= τ)
 *   W  = γ (W_prev / Γs + β) + (1 - γ) W,   within [W_min, W_max]
 *
 * on every ACK, where W_prev is the window one RTT ago: it takes W once per RTT, when an
 * ACK acknowledges data sent after the previous update (its cumulative PSN passes the
 * sndNxt recorded then). Γ = 1 is the equilibrium at full utilisation with no queue; at
 * equilibrium every flow's β adds to the queue, N flows hold N β.
 *
 * Plain state with no clock: the controllers give it their samples and times.
 */
class PowerWindow
{
  public:
    /**
     * Start: W = W_prev = \p wInit, Γs = 1 (no power seen yet counts as equilibrium), no
     * RTT started.
     * \param tauNs τ (ns)
     * \param gamma γ in (0, 1]
     * \param beta β (bytes)
     * \param wMin W_min (bytes)
     * \param wMax W_max (bytes, >= wMin)
     * \param wInit the first window (bytes)
     */
    void Init(double tauNs, double gamma, double beta, double wMin, double wMax, double wInit);

    /// Fold a power sample \p power covering \p dtNs ns (capped at τ) into Γs.
    void AddPower(double power, double dtNs);

    /**
     * The per-ACK update of W from W_prev and Γs; then, if \p ackPsn passes the sndNxt
     * recorded at the last W_prev update, W_prev = W and \p sndNxt is recorded.
     * \return whether W_prev was updated (an RTT ended)
     */
    bool Update(uint32_t ackPsn, uint32_t sndNxt);

    /// The first RTT starts: record \p sndNxt (its end is an ACK passing it).
    void StartRtt(uint32_t sndNxt);

    double GetWindow() const
    {
        return m_w;
    }

    double GetPrevWindow() const
    {
        return m_wPrev;
    }

    double GetSmoothedPower() const
    {
        return m_power;
    }

  private:
    double m_tauNs = 1;
    double m_gamma = 0.9;
    double m_beta = 0;
    double m_wMin = 0;
    double m_wMax = 0;
    double m_w = 0;
    double m_wPrev = 0;
    double m_power = 1;
    uint32_t m_lastUpdateSeq = 0; ///< sndNxt at the last W_prev update
};

} // namespace ns3

#endif /* RDMA_POWER_WINDOW_H */
