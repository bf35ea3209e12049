/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_POWER_WINDOW_H
#define RDMA_POWER_WINDOW_H

#include <array>
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
 * on every ACK, where W_prev is the window one RTT (τ) ago: the law keeps a snapshot of W
 * every τ/4 (at the first ACK after each quarter) and W_prev is the newest snapshot at
 * least τ old. Γ = 1 is the equilibrium at full utilisation with no queue; at
 * equilibrium every flow's β adds to the queue, N flows hold N β.
 *
 * Plain state with no clock: the controllers give it their samples and times.
 */
class PowerWindow
{
  public:
    /// Snapshots kept: a quarter of τ apart, the fifth is one τ ago.
    static constexpr uint32_t kSnapshots = 5;

    /**
     * Start: W = W_prev = \p wInit (one snapshot of it at \p nowNs), Γs = 1 (no power
     * seen yet counts as equilibrium).
     * \param tauNs τ (ns)
     * \param gamma γ in (0, 1]
     * \param beta β (bytes)
     * \param wMin W_min (bytes)
     * \param wMax W_max (bytes; W_min is lowered to it if above)
     * \param wInit the first window (bytes)
     * \param nowNs the time (ns)
     */
    void Init(double tauNs,
              double gamma,
              double beta,
              double wMin,
              double wMax,
              double wInit,
              double nowNs);

    /// Fold a power sample \p power covering \p dtNs ns (capped at τ) into Γs.
    void AddPower(double power, double dtNs);

    /**
     * The per-ACK update of W from W_prev and Γs at \p nowNs; then the snapshot of W if a
     * quarter of τ passed since the last one, and W_prev = the newest snapshot at least τ
     * old (unchanged while there is none).
     */
    void Update(double nowNs);

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

    double GetTauNs() const
    {
        return m_tauNs;
    }

    double GetBeta() const
    {
        return m_beta;
    }

    double GetMinWindow() const
    {
        return m_wMin;
    }

    double GetMaxWindow() const
    {
        return m_wMax;
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
    // Snapshots in 40 bytes (the event core loads a controller of up to
    // FabricLayout::kCcStateBytes ahead whole): W to 1e-7, times as ns modulo 2^32 (ages
    // of a few τ are exact).
    std::array<float, kSnapshots> m_snapW{};    ///< W at the snapshots (a ring)
    std::array<uint32_t, kSnapshots> m_snapT{}; ///< their times (ns, modulo 2^32)
    uint32_t m_head = 0;                        ///< the newest snapshot
    uint32_t m_count = 0;                       ///< snapshots held
};

} // namespace ns3

#endif /* RDMA_POWER_WINDOW_H */
