/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DCQCN_H
#define RDMA_DCQCN_H

#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015), the sender side; the switch marks
 * ECN (SwitchMmu) and the receiver NIC sends CNPs (RdmaNic::CnpInterval).
 *
 * On a CNP: R_T = R_C, R_C *= 1 - alpha/2, alpha = (1-g) alpha + g, and the increase
 * timer, byte counter and stage counters restart. Without CNP, alpha decays every
 * AlphaInterval, and the timer (every RateIncreaseInterval) and the byte counter (every
 * ByteCounter bytes sent) raise the rate: fast recovery (R_C = (R_T+R_C)/2) while both
 * stage counters are below F, additive increase (R_T += R_AI) once one reaches F, hyper
 * increase (R_T += i R_HAI) once both have. With RateDecreaseInterval > 0 (NIC
 * behaviour) at most one cut happens per interval; a CNP inside it is applied at its end.
 * With ClampTargetRate false (NIC behaviour, NVIDIA clamp_tgt_rate=0 with
 * clamp_tgt_rate_after_time_inc=1) a cut sets R_T = R_C only if the increase timer has
 * fired since the previous cut, so back-to-back cuts keep the rate to recover to.
 *
 * All timers are lazy (see CongestionControl): state advances when the NIC asks for the
 * rate or reports an event, giving the same result as per-period events.
 */
class Dcqcn : public CongestionControl
{
  public:
    /// Parameter set of a named preset, for a given line rate.
    struct Preset
    {
        double g;
        Time alphaInterval;
        Time rateIncreaseInterval;
        uint64_t byteCounter;
        uint32_t fastRecoverySteps;
        uint64_t rateAi;
        uint64_t rateHai;
        uint64_t minRate;
        Time rateDecreaseInterval;
        bool clampTargetRate;
        Time cnpInterval; ///< receiver NIC CNP spacing that goes with the preset
    };

    /// "paper" (SIGCOMM 2015, 40G values) or "nic" (NVIDIA defaults, scaled by rate).
    /// Returns false if the name is unknown.
    static bool GetPreset(const std::string& name, uint64_t lineRate, Preset& out);
    /// The preset as attribute name -> value strings (for ObjectFactory::Set).
    static std::map<std::string, std::string> PresetAttributes(const Preset& p);

    static TypeId GetTypeId();
    Dcqcn();

    void Init(const CcContext& ctx) override;
    void OnCnp() override;
    void OnSend(uint32_t payloadBytes) override;
    uint64_t GetRate() override;
    std::string GetName() const override;

    /// Alpha and target rate as of the last event or GetRate() (timers are lazy).
    double GetAlpha() const;
    uint64_t GetTargetRate() const;

  private:
    /// Apply every timer period that ended up to \p now.
    void CatchUp(Time now);
    void AdvanceTimersTo(Time t);
    void Decrease(Time at);
    void Increase();

    // Attributes
    double m_g;
    Time m_alphaInterval;
    Time m_rateIncreaseInterval;
    uint64_t m_byteCounter;
    uint32_t m_fastRecoverySteps;
    DataRate m_rateAi;
    DataRate m_rateHai;
    DataRate m_minRate;
    Time m_rateDecreaseInterval;
    bool m_clampTargetRate;

    // State
    double m_rc; ///< current rate (bit/s)
    double m_rt; ///< target rate (bit/s)
    double m_alpha;
    Time m_alphaStart;      ///< start of the running alpha period
    Time m_timerStart;      ///< start of the running increase-timer period
    uint32_t m_timerCount;  ///< T_cnt: timer events since the last cut
    uint32_t m_byteCount;   ///< BC: byte-counter events since the last cut
    uint64_t m_bytesSinceEvent;
    Time m_lastDecrease;
    bool m_cutPending;
    bool m_everCut;
};

} // namespace ns3

#endif /* RDMA_DCQCN_H */
