/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DCQCN_H
#define RDMA_DCQCN_H

#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"

#include <memory>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015), the sender side; the switch marks
 * ECN (SwitchMmu) and the receiver NIC sends CNPs (RdmaNic::CnpInterval).
 *
 * On a CNP: R_T = R_C, R_C *= 1 - alpha/2, and the increase timer, byte counter and
 * stage counters restart. Alpha follows one of two rules (AlphaPerPeriod):
 * - per period (NVIDIA's documented rule, presets Nic and HpccSim): alpha is set to
 *   InitialAlpha at the QP's first CNP; from then on, at the end of every AlphaInterval,
 *   alpha = (1-g) alpha + g if a CNP arrived during the period, else (1-g) alpha;
 * - per cut (the SIGCOMM 2015 text, preset Paper): alpha starts at InitialAlpha when the
 *   QP starts, each cut adds alpha = (1-g) alpha + g, and it decays by (1-g) every
 *   AlphaInterval without a cut.
 *
 * Without CNP, the timer (every RateIncreaseInterval) and the byte counter (every
 * ByteCounter bytes sent) raise the rate: fast recovery (R_C = (R_T+R_C)/2) while both
 * stage counters are below F, additive increase (R_T += R_AI) once one reaches F, hyper
 * increase (R_T += i R_HAI) once both have. With RateDecreaseInterval > 0 (NIC
 * behaviour) at most one cut happens per interval; a CNP inside it is applied at its end.
 * With ClampTargetRate false (NIC behaviour, NVIDIA clamp_tgt_rate=0 with
 * clamp_tgt_rate_after_time_inc=1) a cut sets R_T = R_C only if the increase timer has
 * fired since the previous cut, so back-to-back cuts keep the rate to recover to.
 *
 * Parameters default to `preset` (PresetOr): Init gives each the value of the Preset
 * attribute's parameter set for the line rate (Nic: NVIDIA ConnectX documented defaults,
 * steps scaled by rate/25G; HpccSim: the HPCC simulator's DCQCN as its fat-tree configs
 * run it; Paper: SIGCOMM 2015); a value set explicitly is kept. The preset table in dcqcn.cc is the
 * only place these defaults are written. After Init, GetAttribute reads the values in use.
 *
 * All timers are lazy (see CongestionControl): state advances when the NIC asks for the
 * rate or reports an event, giving the same result as per-period events.
 */
class Dcqcn : public CongestionControl
{
  public:
    /// Where the parameters left at `preset` take their values (Preset attribute).
    enum Preset
    {
        PRESET_NIC,      ///< NVIDIA ConnectX documented defaults, steps scaled by rate/25G
        PRESET_PAPER,    ///< Zhu et al., SIGCOMM 2015, Table 1 (40G values)
        PRESET_HPCC_SIM, ///< the HPCC simulator's DCQCN loop (its fat-tree configs)
    };

    static TypeId GetTypeId();
    Dcqcn();

    /// Alpha and target rate as of the last event or GetRate() (timers are lazy).
    double GetAlpha() const;
    uint64_t GetTargetRate() const;

    /**
     * The parameters other than Preset: each the user's value, or std::nullopt for the
     * preset's until Init resolves it; from Init on every one has a value.
     */
    struct Params
    {
        using Owner = Dcqcn; ///< the class whose attributes they are (PresetOrAccessor)

        std::optional<double> g;
        std::optional<bool> alphaPerPeriod;
        std::optional<double> initialAlpha;
        std::optional<Time> alphaInterval;
        std::optional<Time> rateIncreaseInterval;
        std::optional<uint64_t> byteCounter;
        std::optional<uint32_t> fastRecoverySteps;
        std::optional<DataRate> rateAi;
        std::optional<DataRate> rateHai;
        std::optional<DataRate> minRate;
        std::optional<Time> rateDecreaseInterval;
        std::optional<bool> clampTargetRate;

        bool operator==(const Params& o) const;
    };

    /// \return the parameters (read by the attribute accessors, PresetOrAccessor)
    const Params& GetParams() const
    {
        return *m_params;
    }

    /**
     * The parameters to change: the block is copied first unless this object alone
     * holds it (so that an attribute set after Init changes this QP's controller only).
     * \return this object's own block
     */
    Params& MutableParams();

  private:
    // CongestionControl
    /**
     * Resolves the parameters left at `preset` (for \p ctx.lineRate) and starts the
     * flow at line rate with alpha = 1.
     * \param ctx the QP's context
     */
    void DoInit(const CcContext& ctx) override;
    void DoOnCnp() override;
    uint64_t DoGetRate() override;
    /// The rate after the timer periods that ended, computed on a copy of the state.
    uint64_t DoPeekRate() const override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: none: DCQCN reacts to CNPs and paces by rate only
    uint16_t DoImplementedHooks() const override;
    /**
     * The CNP spacing at the receiving NIC that goes with the preset (Nic 4 us, Paper
     * 50 us, HpccSim 0: every marked packet, as that simulator marks every ACK of one).
     * \return the preset's minimum time between two CNPs for one QP (the read-only
     *         attribute CnpInterval, CongestionControl::GetCnpInterval)
     */
    Time GetPresetCnpInterval() const;
    void DoOnSendEvent(CcSendEvent event, uint32_t payloadBytes) override;

    // The send events (DoOnSendEvent)
    void HandleSend(uint32_t payloadBytes);

    /// The reaction point's state: everything the rules change (wide fields first: 72
    /// bytes with no padding but the last four).
    struct State
    {
        double rc = 0;                ///< current rate (bit/s)
        double rt = 0;                ///< target rate (bit/s)
        double alpha = 1;             ///< the congestion estimate
        Time alphaStart;              ///< start of the running alpha period
        Time timerStart;              ///< start of the running increase-timer period
        Time lastDecrease;            ///< when the last cut applied
        uint64_t bytesSinceEvent = 0; ///< bytes sent since the last byte-counter event
        uint32_t timerCount = 0;      ///< T_cnt: timer events since the last cut
        uint32_t byteCount = 0;       ///< BC: byte-counter events since the last cut
        bool alphaSet = false;        ///< per-period rule: the first CNP has set alpha
        bool cnpInPeriod = false;     ///< per-period rule: a CNP arrived in the running period
        bool cutPending = false;      ///< a CNP within RateDecreaseInterval of the last cut
        bool everCut = false;         ///< whether any cut has applied
    };

    /// Apply to \p s every timer period that ended up to \p now (and a pending cut).
    void CatchUp(State& s, Time now) const;
    void AdvanceTimersTo(State& s, Time t) const;
    void Decrease(State& s, Time at) const;
    void Increase(State& s) const;
    /// The traced Rate follows m_st.rc.
    void NoteRate();

    /// Intern \p p: the block of equal parameters already in use, or a copy of \p p made one.
    static std::shared_ptr<Params> Intern(const Params& p);

    Preset m_preset; ///< attribute Preset
    /// The other attributes. Until Init a block of this object's own (or the shared
    /// all-`preset` one, before any is set); from Init on the interned resolved block
    /// that the QPs with the same values share (a QP's controller then holds 8 words of
    /// parameters less: at a thousand GPUs, a quarter of a million controllers).
    std::shared_ptr<Params> m_params;

    State m_st;
};

} // namespace ns3

#endif /* RDMA_DCQCN_H */
