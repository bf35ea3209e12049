/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/hpcc-pint.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccPint");
NS_OBJECT_ENSURE_REGISTERED(HpccPint);

namespace
{

/// Line rate at which RateAi is given; W_AI scales with line rate / this (as Hpcc).
constexpr double kAiReferenceRate = 100e9;

} // namespace

TypeId
HpccPint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HpccPint")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<HpccPint>()
            .AddAttribute("Eta",
                          "Target utilisation eta (fraction of the link rate, dimensionless). "
                          "Default 0.95, Hpcc's (HPCC paper; PINT's HPCC evaluation keeps "
                          "HPCC's parameters).",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&HpccPint::m_eta),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("MaxStage",
                          "maxStage: additive steps (one per RTT) allowed while U < eta "
                          "before a multiplicative step (count). Default 0, Hpcc's (HPCC "
                          "simulator MI_THRESH 0).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HpccPint::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "Additive increase W_AI, as a rate at a 100 Gb/s line rate: "
                          "W_AI = RateAi x (line rate / 100 Gb/s) x T bytes. Default "
                          "50 Mb/s, Hpcc's.",
                          DataRateValue(DataRate("50Mb/s")),
                          MakeDataRateAccessor(&HpccPint::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Lowest rate; the window never goes below MinRate x T bytes. "
                          "Default 1 Gb/s, Hpcc's (HPCC simulator MIN_RATE).",
                          DataRateValue(DataRate("1Gb/s")),
                          MakeDataRateAccessor(&HpccPint::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("BaseRtt",
                          "T, the RTT the window and the rate are normalised to (time). "
                          "Default 0 = the largest base RTT of the fabric (NIC context "
                          "fabricBaseRtt), the T the switches' PINT estimate uses too.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&HpccPint::m_baseRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RttBoundary",
                          "When an RTT has passed since the last reference-window update: "
                          "Psn (default) or SendTime, as Hpcc's RttBoundary.",
                          EnumValue(HpccPint::PSN),
                          compat::MakeEnumAccessor(&HpccPint::m_rttBoundary),
                          MakeEnumChecker(HpccPint::PSN, "Psn", HpccPint::SEND_TIME, "SendTime"))
            .AddAttribute("SampleProbability",
                          "PINT's p: the probability that an ACK's value is used (the others "
                          "are ignored), so that only that fraction of ACKs needs a "
                          "computation (probability). Default 1: every ACK, no random draw.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HpccPint::m_sampleProbability),
                          MakeDoubleChecker<double>(1e-6, 1.0));
    return tid;
}

HpccPint::HpccPint()
    : m_eta(0.95),
      m_maxStage(0),
      m_rttBoundary(PSN),
      m_sampleProbability(1.0),
      m_tNs(0),
      m_wInit(0),
      m_wMin(0),
      m_wAi(0),
      m_rng(nullptr),
      m_u(1.0),
      m_w(0),
      m_wc(0),
      m_incStage(0),
      m_lastUpdateSeq(0)
{
}

void
HpccPint::DoInit(const CcContext& ctx)
{
    Time t = m_baseRtt;
    if (!t.IsStrictlyPositive())
    {
        t = ctx.fabricBaseRtt.IsStrictlyPositive() ? ctx.fabricBaseRtt : ctx.baseRtt;
    }
    NS_ABORT_MSG_IF(!t.IsStrictlyPositive(), "HpccPint: no base RTT (T) in the context");
    m_tNs = double(t.GetNanoSeconds());
    const double line = double(ctx.lineRate);
    m_wInit = line / 8 * m_tNs * 1e-9;
    m_wMin = std::min(double(m_minRate.GetBitRate()), line) / 8 * m_tNs * 1e-9;
    m_wAi = double(m_rateAi.GetBitRate()) * (line / kAiReferenceRate) / 8 * m_tNs * 1e-9;
    m_rng = ctx.rng;
    if (m_rng == nullptr && m_sampleProbability < 1.0)
    {
        m_ownRng = CreateObject<UniformRandomVariable>();
        m_rng = PeekPointer(m_ownRng);
    }
    m_u = 1.0;
    m_wc = m_wInit;
    m_incStage = 0;
    m_lastUpdateSeq = 0;
    m_lastUpdateTime = Time(0);
    SetWindow(m_wInit);
}

std::string
HpccPint::DoGetName() const
{
    return "hpcc-pint";
}

uint16_t
HpccPint::DoImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW | HOOK_PINT;
}

void
HpccPint::SetWindow(double w)
{
    m_w = std::clamp(w, m_wMin, m_wInit);
    const uint64_t r = ClampRate(std::round(m_w * 8 * 1e9 / m_tNs), m_minRate.GetBitRate());
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

void
HpccPint::DoOnAck(const CcAck& ack)
{
    if (!ack.hasPint)
    {
        return;
    }
    // PINT's p: only a fraction p of the ACKs is looked at (no draw at p = 1).
    if (m_sampleProbability < 1.0 && m_rng->GetValue() >= m_sampleProbability)
    {
        return;
    }
    // U is the value itself: the switches already averaged it over T (PintMeter).
    m_u = ack.pintU;
    double next;
    uint32_t stage;
    if (m_u >= m_eta || m_incStage >= m_maxStage)
    {
        next = m_u > 0 ? m_wc / (m_u / m_eta) + m_wAi : m_wInit;
        stage = 0;
    }
    else
    {
        next = m_wc + m_wAi;
        stage = m_incStage + 1;
    }
    SetWindow(next);
    // As Hpcc: every used ACK recomputes W from Wc; only one per RTT makes it the new Wc.
    if (EndsRtt(ack))
    {
        m_wc = m_w;
        m_incStage = stage;
        m_lastUpdateSeq = std::max(m_lastUpdateSeq, ack.sndNxt);
        m_lastUpdateTime = Now();
    }
    NS_LOG_LOGIC("U " << m_u << " W " << m_w << " Wc " << m_wc << " stage " << m_incStage);
}

bool
HpccPint::EndsRtt(const CcAck& ack) const
{
    if (m_rttBoundary == SEND_TIME && ack.rtt.IsStrictlyPositive())
    {
        return Now() - ack.rtt >= m_lastUpdateTime;
    }
    return ack.ackPsn > m_lastUpdateSeq;
}

uint64_t
HpccPint::DoGetRate()
{
    return m_rate.Get();
}

uint64_t
HpccPint::DoGetWindow() const
{
    return static_cast<uint64_t>(std::llround(m_w));
}

double
HpccPint::GetUtilization() const
{
    return m_u;
}

double
HpccPint::GetCurrentWindow() const
{
    return m_w;
}

double
HpccPint::GetReferenceWindow() const
{
    return m_wc;
}

uint32_t
HpccPint::GetIncStage() const
{
    return m_incStage;
}

double
HpccPint::GetWindowAi() const
{
    return m_wAi;
}

double
HpccPint::GetInitialWindow() const
{
    return m_wInit;
}

Time
HpccPint::GetT() const
{
    return NanoSeconds(static_cast<int64_t>(m_tNs));
}

} // namespace ns3
