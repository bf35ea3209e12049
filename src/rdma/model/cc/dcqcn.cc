/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/params-block.h"
#include "ns3/preset-or.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Dcqcn");
NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

namespace
{
/// The parameters of a preset at one line rate.
struct PresetParameters
{
    double g;
    bool alphaPerPeriod;
    double initialAlpha;
    Time alphaInterval;
    Time rateIncreaseInterval;
    uint64_t byteCounter;
    uint32_t fastRecoverySteps;
    DataRate rateAi;
    DataRate rateHai;
    DataRate minRate;
    Time rateDecreaseInterval;
    bool clampTargetRate;
    Time cnpInterval; ///< receiver NIC CNP spacing that goes with the preset
};

/// Call \p f(field of Dcqcn::Params, field of PresetParameters) for each of the twelve
/// parameters: the one list that Params' comparison and Init's resolution share.
template <class F>
void
ForEachParameter(F&& f)
{
    using P = Dcqcn::Params;
    using D = PresetParameters;
    f(&P::g, &D::g);
    f(&P::alphaPerPeriod, &D::alphaPerPeriod);
    f(&P::initialAlpha, &D::initialAlpha);
    f(&P::alphaInterval, &D::alphaInterval);
    f(&P::rateIncreaseInterval, &D::rateIncreaseInterval);
    f(&P::byteCounter, &D::byteCounter);
    f(&P::fastRecoverySteps, &D::fastRecoverySteps);
    f(&P::rateAi, &D::rateAi);
    f(&P::rateHai, &D::rateHai);
    f(&P::minRate, &D::minRate);
    f(&P::rateDecreaseInterval, &D::rateDecreaseInterval);
    f(&P::clampTargetRate, &D::clampTargetRate);
}

/// The presets: the one place where DCQCN's default parameters are written.
PresetParameters
GetPresetParameters(Dcqcn::Preset preset, uint64_t lineRate)
{
    if (preset == Dcqcn::PRESET_PAPER)
    {
        // Zhu et al. 2015, Table 1 (40G); R_HAI is not given there: 10 x R_AI.
        return PresetParameters{1.0 / 256,
                                false,
                                1.0,
                                MicroSeconds(55),
                                MicroSeconds(55),
                                10 * 1000 * 1000,
                                5,
                                DataRate(40000000ULL),
                                DataRate(400000000ULL),
                                DataRate(100000000ULL),
                                Time(0),
                                true,
                                MicroSeconds(50)};
    }
    // NVIDIA ConnectX documented defaults (DCQCN parameters of ConnectX-4 and later:
    // dce_tcp_g 1019 -> g = 5/1024, dce_tcp_rtt 1 us, initial_alpha_value 1023 -> 1023/1024,
    // rpg_time_reset 300 us, rpg_ai_rate 5 Mb/s and rpg_hai_rate 50 Mb/s at 25G,
    // rate_reduce_monitor_period 4 us, clamp_tgt_rate 0); steps scale with rate/25G.
    // The HPCC simulator's DCQCN (its fat-tree config: EWMA_GAIN 1/256, alpha set to 1 at
    // the first CNP, a CNP for every marked packet, R_AI 20 and R_HAI 200 Mb/s at 100G)
    // differs in g, the initial alpha and the CNP spacing.
    const double scale = double(lineRate) / 25e9;
    const bool hpccSim = preset == Dcqcn::PRESET_HPCC_SIM;
    return PresetParameters{hpccSim ? 1.0 / 256 : 5.0 / 1024,
                            true,
                            hpccSim ? 1.0 : 1023.0 / 1024,
                            MicroSeconds(1),
                            MicroSeconds(300),
                            0,
                            1,
                            DataRate(static_cast<uint64_t>(5e6 * scale)),
                            DataRate(static_cast<uint64_t>(50e6 * scale)),
                            DataRate(1000000000ULL),
                            MicroSeconds(4),
                            false,
                            hpccSim ? Time(0) : MicroSeconds(4)};
}
} // namespace

TypeId
Dcqcn::GetTypeId()
{
    // Every parameter defaults to `preset`: its value comes from the Preset's table
    // (GetPresetParameters) at Init.
    static TypeId tid =
        TypeId("ns3::Dcqcn")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<Dcqcn>()
            .AddAttribute("Preset",
                          "Where the parameters left at preset (their default) take their "
                          "values, at Init, for the line rate; a parameter given a value "
                          "keeps it. Nic (default): NVIDIA ConnectX documented defaults, "
                          "steps scaled by rate/25G. HpccSim: the DCQCN of the HPCC "
                          "simulator (HPCC paper's curves). Paper: Zhu et al., SIGCOMM 2015 "
                          "(40G values). Each goes with a CNP spacing at the receiving NIC "
                          "(CnpInterval: Nic 4 us, HpccSim every marked packet, Paper 50 "
                          "us).",
                          EnumValue(Dcqcn::PRESET_NIC),
                          compat::MakeEnumAccessor(&Dcqcn::m_preset),
                          MakeEnumChecker(Dcqcn::PRESET_NIC,
                                          "Nic",
                                          Dcqcn::PRESET_PAPER,
                                          "Paper",
                                          Dcqcn::PRESET_HPCC_SIM,
                                          "HpccSim"))
            .AddAttribute("CnpInterval",
                          "Read only: the CNP spacing at the receiving NIC that goes with "
                          "the Preset, for the line rate after Init (time: Nic 4 us, Paper "
                          "50 us, HpccSim 0, a CNP for every marked packet). The scenario "
                          "runner uses it for nic.cnp_interval_us when that is not set.",
                          TypeId::ATTR_GET,
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&Dcqcn::GetPresetCnpInterval),
                          MakeTimeChecker())
            .AddAttribute("G",
                          "Alpha EWMA gain g. preset: Nic 5/1024 (dce_tcp_g 1019), HpccSim "
                          "and Paper 1/256.",
                          PresetOr<DoubleValue>(),
                          MakePresetOrAccessor<DoubleValue>(&Dcqcn::Params::g),
                          MakePresetOrChecker<DoubleValue>(MakeDoubleChecker<double>(0, 1)))
            .AddAttribute("AlphaPerPeriod",
                          "true: alpha is set to InitialAlpha at the first CNP, then updated "
                          "at the end of every AlphaInterval, up if a CNP arrived in it, "
                          "down otherwise (NVIDIA's rule); false: alpha starts at "
                          "InitialAlpha, rises at each cut and decays every AlphaInterval "
                          "without one (SIGCOMM 2015). preset: Nic and HpccSim true, Paper "
                          "false.",
                          PresetOr<BooleanValue>(),
                          MakePresetOrAccessor<BooleanValue>(&Dcqcn::Params::alphaPerPeriod),
                          MakePresetOrChecker<BooleanValue>(MakeBooleanChecker()))
            .AddAttribute("InitialAlpha",
                          "Alpha at the first CNP (per period) or at the start (per cut). "
                          "preset: Nic 1023/1024 (initial_alpha_value 1023), HpccSim and "
                          "Paper 1.",
                          PresetOr<DoubleValue>(),
                          MakePresetOrAccessor<DoubleValue>(&Dcqcn::Params::initialAlpha),
                          MakePresetOrChecker<DoubleValue>(MakeDoubleChecker<double>(0, 1)))
            .AddAttribute("AlphaInterval",
                          "Alpha's update period. preset: Nic and HpccSim 1 us, Paper 55 "
                          "us.",
                          PresetOr<TimeValue>(),
                          MakePresetOrAccessor<TimeValue>(&Dcqcn::Params::alphaInterval),
                          MakePresetOrChecker<TimeValue>(MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute("RateIncreaseInterval",
                          "Increase timer T. preset: Nic 300 us, Paper 55 us.",
                          PresetOr<TimeValue>(),
                          MakePresetOrAccessor<TimeValue>(&Dcqcn::Params::rateIncreaseInterval),
                          MakePresetOrChecker<TimeValue>(MakeTimeChecker(NanoSeconds(1))))
            .AddAttribute("ByteCounter",
                          "Increase byte counter B in bytes, 0 = off. preset: Nic off, Paper "
                          "10 MB.",
                          PresetOr<UintegerValue>(),
                          MakePresetOrAccessor<UintegerValue>(&Dcqcn::Params::byteCounter),
                          MakePresetOrChecker<UintegerValue>(MakeUintegerChecker<uint64_t>()))
            .AddAttribute("FastRecoverySteps",
                          "F: increase events of fast recovery. preset: Nic 1, Paper 5.",
                          PresetOr<UintegerValue>(),
                          MakePresetOrAccessor<UintegerValue>(&Dcqcn::Params::fastRecoverySteps),
                          MakePresetOrChecker<UintegerValue>(MakeUintegerChecker<uint32_t>()))
            .AddAttribute("RateAi",
                          "Additive increase step R_AI. preset: Nic and HpccSim 5 Mb/s x "
                          "rate/25G, Paper 40 Mb/s.",
                          PresetOr<DataRateValue>(),
                          MakePresetOrAccessor<DataRateValue>(&Dcqcn::Params::rateAi),
                          MakePresetOrChecker<DataRateValue>(MakeDataRateChecker()))
            .AddAttribute("RateHai",
                          "Hyper increase step R_HAI. preset: Nic 50 Mb/s x rate/25G, Paper "
                          "10 x R_AI = 400 Mb/s.",
                          PresetOr<DataRateValue>(),
                          MakePresetOrAccessor<DataRateValue>(&Dcqcn::Params::rateHai),
                          MakePresetOrChecker<DataRateValue>(MakeDataRateChecker()))
            .AddAttribute("MinRate",
                          "Lowest rate. preset: Nic 1 Gb/s, Paper 100 Mb/s.",
                          PresetOr<DataRateValue>(),
                          MakePresetOrAccessor<DataRateValue>(&Dcqcn::Params::minRate),
                          MakePresetOrChecker<DataRateValue>(MakeDataRateChecker()))
            .AddAttribute("RateDecreaseInterval",
                          "At most one cut per interval, 0 = every CNP. preset: Nic 4 us, "
                          "Paper 0.",
                          PresetOr<TimeValue>(),
                          MakePresetOrAccessor<TimeValue>(&Dcqcn::Params::rateDecreaseInterval),
                          MakePresetOrChecker<TimeValue>(MakeTimeChecker(Time(0))))
            .AddAttribute("ClampTargetRate",
                          "true: every cut sets R_T = R_C; false: only if the increase timer "
                          "fired since the last cut. preset: Nic false, Paper true.",
                          PresetOr<BooleanValue>(),
                          MakePresetOrAccessor<BooleanValue>(&Dcqcn::Params::clampTargetRate),
                          MakePresetOrChecker<BooleanValue>(MakeBooleanChecker()));
    return tid;
}

Dcqcn::Dcqcn()
    : m_preset(PRESET_NIC)
{
    // Every parameter at `preset`: one block for all until an attribute differs.
    static const std::shared_ptr<Params> allPreset = std::make_shared<Params>();
    m_params = allPreset;
}

bool
Dcqcn::Params::operator==(const Params& o) const
{
    bool same = true;
    ForEachParameter([&](auto field, auto) { same = same && this->*field == o.*field; });
    return same;
}

Dcqcn::Params&
Dcqcn::MutableParams()
{
    return CopyOnWrite(m_params);
}

std::shared_ptr<Dcqcn::Params>
Dcqcn::Intern(const Params& p)
{
    // (one block per preset, line rate and user values)
    return InternParams(p);
}

void
Dcqcn::DoInit(const CcContext& ctx)
{
    // A parameter still at `preset` takes the preset's value for this line rate.
    const PresetParameters p = GetPresetParameters(m_preset, ctx.lineRate);
    Params r = *m_params;
    ForEachParameter([&](auto field, auto preset) { r.*field = (r.*field).value_or(p.*preset); });
    m_params = Intern(r);

    m_st.rc = m_st.rt = double(ctx.lineRate);
    m_st.alpha = *GetParams().initialAlpha;
    m_st.alphaSet = false;
    m_st.cnpInPeriod = false;
    m_st.alphaStart = m_st.timerStart = Now();
    m_st.timerCount = m_st.byteCount = 0;
    m_st.bytesSinceEvent = 0;
    m_st.cutPending = false;
    m_st.everCut = false;
}

Time
Dcqcn::GetPresetCnpInterval() const
{
    return GetPresetParameters(m_preset, m_ctx.lineRate).cnpInterval;
}

std::string
Dcqcn::DoGetName() const
{
    return "dcqcn";
}

uint16_t
Dcqcn::DoImplementedHooks() const
{
    return 0;
}

double
Dcqcn::GetAlpha() const
{
    return m_st.alpha;
}

uint64_t
Dcqcn::GetTargetRate() const
{
    return static_cast<uint64_t>(m_st.rt);
}

void
Dcqcn::Increase(State& s) const
{
    const Params& par = GetParams();
    const uint32_t f = *par.fastRecoverySteps;
    const uint32_t hi = std::max(s.timerCount, s.byteCount);
    const uint32_t lo = std::min(s.timerCount, s.byteCount);
    if (hi < f)
    {
        // fast recovery: R_T unchanged
    }
    else if (*par.byteCounter > 0 && lo >= f)
    {
        s.rt += double(lo - f + 1) * double(par.rateHai->GetBitRate());
    }
    else
    {
        s.rt += double(par.rateAi->GetBitRate());
    }
    const double line = double(m_ctx.lineRate);
    s.rt = std::min(s.rt, line);
    s.rc = std::min((s.rt + s.rc) / 2, line);
}

void
Dcqcn::AdvanceTimersTo(State& s, Time t) const
{
    const Params& par = GetParams();
    // Alpha: the n whole periods that ended. Per cut: each decays it by (1-g). Per
    // period (from the first CNP on): the first rises if a CNP arrived in it, the others
    // had none and decay.
    const bool running = !*par.alphaPerPeriod || s.alphaSet;
    if (running && t >= s.alphaStart + *par.alphaInterval)
    {
        const int64_t n = (t - s.alphaStart).GetTimeStep() / par.alphaInterval->GetTimeStep();
        const double g = *par.g;
        int64_t decays = n;
        if (*par.alphaPerPeriod && s.cnpInPeriod)
        {
            s.alpha = (1 - g) * s.alpha + g;
            s.cnpInPeriod = false;
            --decays;
        }
        s.alpha *= std::pow(1 - g, double(decays));
        s.alphaStart += *par.alphaInterval * n;
    }
    // Increase timer: one Increase() per period that ended.
    const double line = double(m_ctx.lineRate);
    while (t >= s.timerStart + *par.rateIncreaseInterval)
    {
        s.timerStart += *par.rateIncreaseInterval;
        if (s.rc >= line && s.rt >= line)
        {
            // At line rate every further period is a no-op: skip them.
            const int64_t n =
                (t - s.timerStart).GetTimeStep() / par.rateIncreaseInterval->GetTimeStep();
            s.timerStart += *par.rateIncreaseInterval * n;
            s.timerCount += n + 1;
            break;
        }
        // The stage is decided on the events before this one (F events of fast recovery).
        Increase(s);
        ++s.timerCount;
    }
}

void
Dcqcn::CatchUp(State& s, Time now) const
{
    const Params& par = GetParams();
    if (s.cutPending && now >= s.lastDecrease + *par.rateDecreaseInterval)
    {
        const Time at = s.lastDecrease + *par.rateDecreaseInterval;
        AdvanceTimersTo(s, at);
        Decrease(s, at);
        s.cutPending = false;
    }
    AdvanceTimersTo(s, now);
}

void
Dcqcn::Decrease(State& s, Time at) const
{
    const Params& par = GetParams();
    if (*par.clampTargetRate || !s.everCut || s.timerCount > 0)
    {
        s.rt = s.rc;
    }
    s.rc = std::max(s.rc * (1 - s.alpha / 2),
                    double(std::min(par.minRate->GetBitRate(), m_ctx.lineRate)));
    if (!*par.alphaPerPeriod)
    {
        s.alpha = (1 - *par.g) * s.alpha + *par.g;
        s.alphaStart = at;
    }
    s.timerStart = at;
    s.timerCount = 0;
    s.byteCount = 0;
    s.bytesSinceEvent = 0;
    s.lastDecrease = at;
    s.everCut = true;
}

void
Dcqcn::DoOnCnp()
{
    const Params& par = GetParams();
    const Time now = Now();
    CatchUp(m_st, now);
    NoteRate();
    if (*par.alphaPerPeriod)
    {
        if (!m_st.alphaSet)
        {
            // The first CNP sets alpha and starts its periods.
            m_st.alphaSet = true;
            m_st.alpha = *par.initialAlpha;
            m_st.alphaStart = now;
        }
        else
        {
            m_st.cnpInPeriod = true;
        }
    }
    if (m_st.everCut && par.rateDecreaseInterval->IsStrictlyPositive() &&
        now < m_st.lastDecrease + *par.rateDecreaseInterval)
    {
        m_st.cutPending = true; // applied when the interval ends
        return;
    }
    Decrease(m_st, now);
    NoteRate();
}

void
Dcqcn::HandleSend(uint32_t payloadBytes)
{
    const Params& par = GetParams();
    if (*par.byteCounter == 0)
    {
        return;
    }
    CatchUp(m_st, Now()); // GetRate() just did, at the same time: the traced rate is current
    m_st.bytesSinceEvent += payloadBytes;
    while (m_st.bytesSinceEvent >= *par.byteCounter)
    {
        m_st.bytesSinceEvent -= *par.byteCounter;
        Increase(m_st);
        ++m_st.byteCount;
    }
}

uint64_t
Dcqcn::DoGetRate()
{
    CatchUp(m_st, Now());
    NoteRate();
    return static_cast<uint64_t>(m_st.rc);
}

uint64_t
Dcqcn::DoPeekRate() const
{
    State s = m_st; // the periods that ended, applied to a copy
    CatchUp(s, Now());
    return static_cast<uint64_t>(s.rc);
}

void
Dcqcn::NoteRate()
{
    const uint64_t r = static_cast<uint64_t>(m_st.rc);
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

void
Dcqcn::DoOnSendEvent(CcSendEvent event, uint32_t payloadBytes)
{
    switch (event)
    {
    case CcSendEvent::SEND:
        HandleSend(payloadBytes);
        break;
    default:
        break;
    }
}

} // namespace ns3
