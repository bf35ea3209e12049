/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Dcqcn");
NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

bool
Dcqcn::GetPreset(const std::string& name, uint64_t lineRate, Preset& out)
{
    if (name == "paper")
    {
        // Zhu et al. 2015, Table 1 (40G); R_HAI is not given there: 10 x R_AI.
        out = Preset{1.0 / 256,
                     MicroSeconds(55),
                     MicroSeconds(55),
                     10 * 1000 * 1000,
                     5,
                     40000000ULL,
                     400000000ULL,
                     100000000ULL,
                     Time(0),
                     true,
                     MicroSeconds(50)};
        return true;
    }
    if (name == "nic")
    {
        // NVIDIA ConnectX defaults as used by the HPCC simulator; steps scale with rate/25G.
        const double scale = double(lineRate) / 25e9;
        out = Preset{1.0 / 256,
                     MicroSeconds(1),
                     MicroSeconds(300),
                     0,
                     1,
                     static_cast<uint64_t>(5e6 * scale),
                     static_cast<uint64_t>(50e6 * scale),
                     1000000000ULL,
                     MicroSeconds(4),
                     false,
                     MicroSeconds(4)};
        return true;
    }
    return false;
}

std::map<std::string, std::string>
Dcqcn::PresetAttributes(const Preset& p)
{
    auto us = [](Time t) {
        std::ostringstream os;
        os << t.GetNanoSeconds() / 1000.0 << "us";
        return os.str();
    };
    auto bps = [](uint64_t r) { return std::to_string(r) + "bps"; };
    std::ostringstream g;
    g << std::setprecision(17) << p.g;
    return {{"G", g.str()},
            {"AlphaInterval", us(p.alphaInterval)},
            {"RateIncreaseInterval", us(p.rateIncreaseInterval)},
            {"ByteCounter", std::to_string(p.byteCounter)},
            {"FastRecoverySteps", std::to_string(p.fastRecoverySteps)},
            {"RateAi", bps(p.rateAi)},
            {"RateHai", bps(p.rateHai)},
            {"MinRate", bps(p.minRate)},
            {"RateDecreaseInterval", us(p.rateDecreaseInterval)},
            {"ClampTargetRate", p.clampTargetRate ? "true" : "false"}};
}

TypeId
Dcqcn::GetTypeId()
{
    // Defaults: the "nic" preset at 100 Gb/s.
    static TypeId tid =
        TypeId("ns3::Dcqcn")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<Dcqcn>()
            .AddAttribute("G",
                          "Alpha EWMA gain g (paper and NIC: 1/256).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&Dcqcn::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaInterval",
                          "Alpha decays every interval without CNP (paper 55 us, NIC 1 us).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&Dcqcn::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateIncreaseInterval",
                          "Increase timer T (paper 55 us, NIC 300 us).",
                          TimeValue(MicroSeconds(300)),
                          MakeTimeAccessor(&Dcqcn::m_rateIncreaseInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "Increase byte counter B in bytes, 0 = off (paper 10 MB, NIC off).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Dcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoverySteps",
                          "F: increase events of fast recovery (paper 5, NIC 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&Dcqcn::m_fastRecoverySteps),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "Additive increase step R_AI (paper 40 Mb/s; NIC 5 Mb/s x rate/25G).",
                          DataRateValue(DataRate("20Mb/s")),
                          MakeDataRateAccessor(&Dcqcn::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "Hyper increase step R_HAI (paper 10 x R_AI; NIC 50 Mb/s x rate/25G).",
                          DataRateValue(DataRate("200Mb/s")),
                          MakeDataRateAccessor(&Dcqcn::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Lowest rate (paper 100 Mb/s, NIC 1 Gb/s).",
                          DataRateValue(DataRate("1Gb/s")),
                          MakeDataRateAccessor(&Dcqcn::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("RateDecreaseInterval",
                          "At most one cut per interval, 0 = every CNP (paper 0, NIC 4 us).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&Dcqcn::m_rateDecreaseInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ClampTargetRate",
                          "Every cut sets R_T = R_C (paper); false: only if the increase "
                          "timer fired since the last cut (NIC default).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&Dcqcn::m_clampTargetRate),
                          MakeBooleanChecker());
    return tid;
}

Dcqcn::Dcqcn()
    : m_clampTargetRate(false),
      m_rc(0),
      m_rt(0),
      m_alpha(1.0),
      m_timerCount(0),
      m_byteCount(0),
      m_bytesSinceEvent(0),
      m_cutPending(false),
      m_everCut(false)
{
}

void
Dcqcn::Init(const CcContext& ctx)
{
    CongestionControl::Init(ctx);
    m_rc = m_rt = double(ctx.lineRate);
    m_alpha = 1.0;
    m_alphaStart = m_timerStart = Now();
    m_timerCount = m_byteCount = 0;
    m_bytesSinceEvent = 0;
    m_cutPending = false;
    m_everCut = false;
}

std::string
Dcqcn::GetName() const
{
    return "dcqcn";
}

double
Dcqcn::GetAlpha() const
{
    return m_alpha;
}

uint64_t
Dcqcn::GetTargetRate() const
{
    return static_cast<uint64_t>(m_rt);
}

void
Dcqcn::Increase()
{
    const uint32_t f = m_fastRecoverySteps;
    const uint32_t hi = std::max(m_timerCount, m_byteCount);
    const uint32_t lo = std::min(m_timerCount, m_byteCount);
    if (hi < f)
    {
        // fast recovery: R_T unchanged
    }
    else if (m_byteCounter > 0 && lo >= f)
    {
        m_rt += double(lo - f + 1) * double(m_rateHai.GetBitRate());
    }
    else
    {
        m_rt += double(m_rateAi.GetBitRate());
    }
    const double line = double(m_ctx.lineRate);
    m_rt = std::min(m_rt, line);
    m_rc = std::min((m_rt + m_rc) / 2, line);
}

void
Dcqcn::AdvanceTimersTo(Time t)
{
    // Alpha decay: (1-g)^n for the n whole periods that ended.
    if (t >= m_alphaStart + m_alphaInterval)
    {
        const int64_t n = (t - m_alphaStart).GetTimeStep() / m_alphaInterval.GetTimeStep();
        m_alpha *= std::pow(1 - m_g, double(n));
        m_alphaStart += m_alphaInterval * n;
    }
    // Increase timer: one Increase() per period that ended.
    const double line = double(m_ctx.lineRate);
    while (t >= m_timerStart + m_rateIncreaseInterval)
    {
        m_timerStart += m_rateIncreaseInterval;
        if (m_rc >= line && m_rt >= line)
        {
            // At line rate every further period is a no-op: skip them.
            const int64_t n =
                (t - m_timerStart).GetTimeStep() / m_rateIncreaseInterval.GetTimeStep();
            m_timerStart += m_rateIncreaseInterval * n;
            m_timerCount += n + 1;
            break;
        }
        // The stage is decided on the events before this one (F events of fast recovery).
        Increase();
        ++m_timerCount;
    }
}

void
Dcqcn::CatchUp(Time now)
{
    if (m_cutPending && now >= m_lastDecrease + m_rateDecreaseInterval)
    {
        const Time at = m_lastDecrease + m_rateDecreaseInterval;
        AdvanceTimersTo(at);
        Decrease(at);
        m_cutPending = false;
    }
    AdvanceTimersTo(now);
}

void
Dcqcn::Decrease(Time at)
{
    if (m_clampTargetRate || !m_everCut || m_timerCount > 0)
    {
        m_rt = m_rc;
    }
    m_rc = std::max(m_rc * (1 - m_alpha / 2), double(std::min(m_minRate.GetBitRate(), m_ctx.lineRate)));
    m_alpha = (1 - m_g) * m_alpha + m_g;
    m_alphaStart = at;
    m_timerStart = at;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytesSinceEvent = 0;
    m_lastDecrease = at;
    m_everCut = true;
    m_rate = static_cast<uint64_t>(m_rc);
}

void
Dcqcn::OnCnp()
{
    const Time now = Now();
    CatchUp(now);
    if (m_everCut && m_rateDecreaseInterval.IsStrictlyPositive() &&
        now < m_lastDecrease + m_rateDecreaseInterval)
    {
        m_cutPending = true; // applied when the interval ends
        return;
    }
    Decrease(now);
}

void
Dcqcn::OnSend(uint32_t payloadBytes)
{
    if (m_byteCounter == 0)
    {
        return;
    }
    CatchUp(Now());
    m_bytesSinceEvent += payloadBytes;
    while (m_bytesSinceEvent >= m_byteCounter)
    {
        m_bytesSinceEvent -= m_byteCounter;
        Increase();
        ++m_byteCount;
    }
}

uint64_t
Dcqcn::GetRate()
{
    CatchUp(Now());
    const uint64_t r = static_cast<uint64_t>(m_rc);
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
    return r;
}

} // namespace ns3
