/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Nscc's attributes (each default with its source), Init (the derivations of htsim's
 * initNsccParams and initNscc), the window's pacing and the accessors. The per-ACK,
 * NACK and timeout rules are in nscc-rules.cc.
 */
#include "ns3/nscc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-wire.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Nscc");
NS_OBJECT_ENSURE_REGISTERED(Nscc);

TypeId
Nscc::GetTypeId()
{
    // Sources: htsim = ultraethernet/uet-htsim, htsim/sim/uec.cpp (UecSrc::initNsccParams,
    // initNscc, and the rules) and htsim/sim/datacenter/main_uec.cpp (its command line).
    static TypeId tid =
        TypeId("ns3::Nscc")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<Nscc>()
            .AddAttribute("TargetDelay",
                          "Target queuing delay (time); 0 (default) derives the network RTT "
                          "(NetworkRtt), as htsim's initNsccParams does without packet "
                          "trimming. With switch.trim.enabled htsim takes 0.75 x NetworkRtt, "
                          "so that the target sits below the queue that trims: set it so "
                          "(scenarios/uec-incast-16.json). htsim's -target_q_delay sets it.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&Nscc::m_targetDelayAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("NetworkRtt",
                          "The network's base RTT that the constants scale with (time); 0 "
                          "(default) takes the largest base RTT between two hosts "
                          "(htsim: network_max_unloaded_rtt, main_uec.cpp calculate_rtt).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&Nscc::m_networkRttAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ReferenceBdp",
                          "BDP of the reference network, whose scaling factor a = network "
                          "BDP / this is 1 (bytes, default 150000 = 100 Gb/s x 12 us: htsim "
                          "initNsccParams; UEC spec 1.0, a = BDP / (100 Gb/s x 12 us), as "
                          "htsim's comment quotes it).",
                          UintegerValue(150000),
                          MakeUintegerAccessor(&Nscc::m_referenceBdp),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ReferenceRtt",
                          "RTT of the reference network, the divisor of scaling factor b = "
                          "target / this (time, default 12 us: htsim initNsccParams; UEC "
                          "spec 1.0 per htsim's comment).",
                          TimeValue(MicroSeconds(12)),
                          MakeTimeAccessor(&Nscc::m_referenceRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FairIncrease",
                          "Fair increase fi, MTUs per window of ACKs at scaling factor a = "
                          "1: fi = this x MTU x a (default 5: htsim initNsccParams).",
                          DoubleValue(5.0),
                          MakeDoubleAccessor(&Nscc::m_fiMtus),
                          MakeDoubleChecker<double>(0, 1e6))
            .AddAttribute("Eta",
                          "Increase eta added once per AdjustPeriod, MTUs at a = 1: eta = "
                          "this x MTU x a (default 0.15: htsim initNsccParams).",
                          DoubleValue(0.15),
                          MakeDoubleAccessor(&Nscc::m_etaMtus),
                          MakeDoubleChecker<double>(0, 1e6))
            .AddAttribute("ProportionalIncrease",
                          "Proportional increase, MTUs per window of ACKs at zero delay and "
                          "a = 1: alpha = this x MTU x a x b / target, bytes per second of "
                          "delay below target (default 4: htsim initNsccParams).",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&Nscc::m_alphaMtus),
                          MakeDoubleChecker<double>(0, 1e6))
            .AddAttribute("FastIncreaseScale",
                          "Fast increase: W grows by acked bytes x this x a per ACK "
                          "(dimensionless, default 0.25: htsim _fi_scale).",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&Nscc::m_fastScale),
                          MakeDoubleChecker<double>(0, 1e3))
            .AddAttribute("FastIncreaseDelay",
                          "Delay below which acknowledged bytes count toward the fast "
                          "increase, which starts after a window of them (time, default "
                          "1 us: htsim fast_increase).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&Nscc::m_fastDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Gamma",
                          "Multiplicative decrease: W *= 1 - gamma (D - target) / D, D the "
                          "averaged delay (dimensionless, default 0.8: htsim _gamma).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&Nscc::m_gamma),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MaxDecrease",
                          "Largest fraction one multiplicative decrease takes off W "
                          "(dimensionless, default 0.5: htsim multiplicative_decrease's "
                          "floor factor 0.5).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&Nscc::m_maxDecrease),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("DelayWeight",
                          "Weight of a new sample in the averaged delay D (dimensionless, "
                          "default 0.0125: htsim _delay_alpha).",
                          DoubleValue(0.0125),
                          MakeDoubleAccessor(&Nscc::m_delayWeight),
                          MakeDoubleChecker<double>(1e-9, 1))
            .AddAttribute("QaThreshold",
                          "QuickAdapt considers a delay above this x target delay "
                          "(dimensionless, default 4: htsim _qa_threshold).",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&Nscc::m_qaThreshold),
                          MakeDoubleChecker<double>(0, 1e6))
            .AddAttribute("QaGate",
                          "QuickAdapt runs only if fewer than (largest window >> QaGate) "
                          "bytes were acknowledged in the interval (count, default 3: "
                          "htsim initNsccParams with main_uec.cpp's -qa_gate unset).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&Nscc::m_qaGate),
                          MakeUintegerChecker<uint32_t>(0, 31))
            .AddAttribute("QuickAdapt",
                          "Enable QuickAdapt (bool, default true: htsim "
                          "_disable_quick_adapt false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&Nscc::m_quickAdapt),
                          MakeBooleanChecker())
            .AddAttribute("MaxWindow",
                          "Largest window, in BDPs of the QP's base RTT at the line rate "
                          "(dimensionless, default 1.5: htsim initNscc, maxwnd = 1.5 BDP).",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&Nscc::m_maxWindowBdp),
                          MakeDoubleChecker<double>(1e-3, 1e3))
            .AddAttribute("InitialWindow",
                          "First window W, payload bytes; 0 (default) starts at the largest "
                          "window (htsim initNscc with cwnd 0).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Nscc::m_initialWindowAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("AdjustBytes",
                          "The pending increase is applied once more than this x MTU bytes "
                          "are acknowledged (MTUs, default 8: htsim "
                          "_adjust_bytes_threshold).",
                          DoubleValue(8.0),
                          MakeDoubleAccessor(&Nscc::m_adjustMtus),
                          MakeDoubleChecker<double>(0, 1e6))
            .AddAttribute("AdjustPeriod",
                          "Period of the eta increase, and the longest wait of a pending "
                          "increase (time); 0 (default) takes the network RTT (htsim "
                          "_adjust_period_threshold).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&Nscc::m_adjustPeriodAttr),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Cwnd",
                            "The window W (payload bytes).",
                            MakeTraceSourceAccessor(&Nscc::m_cwnd),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

Nscc::Nscc()
    : m_referenceBdp(150000),
      m_fiMtus(5.0),
      m_etaMtus(0.15),
      m_alphaMtus(4.0),
      m_fastScale(0.25),
      m_gamma(0.8),
      m_maxDecrease(0.5),
      m_delayWeight(0.0125),
      m_qaThreshold(4.0),
      m_qaGate(3),
      m_quickAdapt(true),
      m_maxWindowBdp(1.5),
      m_initialWindowAttr(0),
      m_adjustMtus(8.0),
      m_a(1),
      m_b(1),
      m_fi(0),
      m_eta(0),
      m_alpha(0),
      m_fiScale(0),
      m_minWindow(0),
      m_wireRatio(1),
      m_maxWindow(0),
      m_cwnd(0),
      m_avgDelay(0),
      m_pending(0),
      m_receivedBytes(0),
      m_fastCount(0),
      m_fastIncreasing(false),
      m_achievedBytes(0),
      m_qaTrigger(false),
      m_bytesToIgnore(0),
      m_bytesIgnored(0),
      m_inflight(0),
      m_last(NONE)
{
}

void
Nscc::DoInit(const CcContext& ctx)
{
    NS_ABORT_MSG_IF(ctx.mtu == 0, "Nscc: MTU of 0");
    NS_ABORT_MSG_IF(!ctx.baseRtt.IsStrictlyPositive(), "Nscc: no base RTT in the context");
    m_networkRtt = m_networkRttAttr.IsStrictlyPositive()    ? m_networkRttAttr
                   : ctx.fabricBaseRtt.IsStrictlyPositive() ? ctx.fabricBaseRtt
                                                            : ctx.baseRtt;
    m_target = m_targetDelayAttr.IsStrictlyPositive() ? m_targetDelayAttr : m_networkRtt;
    m_adjustPeriod = m_adjustPeriodAttr.IsStrictlyPositive() ? m_adjustPeriodAttr : m_networkRtt;
    // htsim initNsccParams: a = network BDP / reference BDP, b = target / reference RTT.
    const double networkBdp = double(ctx.lineRate) / 8 * m_networkRtt.GetSeconds();
    m_a = networkBdp / double(m_referenceBdp);
    m_b = m_target.GetSeconds() / m_referenceRtt.GetSeconds();
    const double mtu = ctx.mtu;
    m_fi = m_fiMtus * mtu * m_a;
    m_eta = m_etaMtus * mtu * m_a;
    m_alpha = m_alphaMtus * mtu * m_a * m_b / m_target.GetSeconds();
    m_fiScale = m_fastScale * m_a;
    m_wireRatio = double(rdmawire::WireBytes(RdmaPacketType::DATA, ctx.mtu)) / ctx.mtu;
    m_minWindow = mtu;

    m_baseRtt = ctx.baseRtt;
    m_maxWindow =
        std::max(m_maxWindowBdp * double(ctx.lineRate) / 8 * m_baseRtt.GetSeconds(), m_minWindow);
    m_avgDelay = 0;
    m_pending = 0;
    m_receivedBytes = 0;
    m_lastAdjust = m_lastDecrease = Time(0);
    m_fastCount = 0;
    m_fastIncreasing = false;
    m_achievedBytes = 0;
    m_qaEnd = Time(0);
    m_qaTrigger = false;
    m_bytesToIgnore = m_bytesIgnored = m_inflight = 0;
    m_last = NONE;
    SetWindow(m_initialWindowAttr > 0 ? double(m_initialWindowAttr) : m_maxWindow);
    NS_LOG_FUNCTION(this << m_cwnd.Get() << m_maxWindow << m_target << m_a << m_b);
}

std::string
Nscc::DoGetName() const
{
    return "nscc";
}

uint16_t
Nscc::DoImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW;
}

void
Nscc::SetWindow(double w)
{
    m_cwnd = std::clamp(w, m_minWindow, m_maxWindow);
    SetRateOfWindow(m_cwnd.Get(), m_wireRatio, m_baseRtt.GetSeconds(), 1);
}

uint64_t
Nscc::DoGetRate()
{
    return m_rate.Get();
}

uint64_t
Nscc::DoGetWindow() const
{
    return static_cast<uint64_t>(std::llround(m_cwnd.Get()));
}

double
Nscc::GetCwnd() const
{
    return m_cwnd.Get();
}

double
Nscc::GetMaxCwnd() const
{
    return m_maxWindow;
}

Time
Nscc::GetBaseRtt() const
{
    return m_baseRtt;
}

Time
Nscc::GetTargetDelay() const
{
    return m_target;
}

double
Nscc::GetAvgDelay() const
{
    return m_avgDelay;
}

double
Nscc::GetScalingA() const
{
    return m_a;
}

double
Nscc::GetScalingB() const
{
    return m_b;
}

double
Nscc::GetFi() const
{
    return m_fi;
}

double
Nscc::GetEta() const
{
    return m_eta;
}

double
Nscc::GetAlpha() const
{
    return m_alpha;
}

double
Nscc::GetFastIncreaseScale() const
{
    return m_fiScale;
}

double
Nscc::GetPendingIncrease() const
{
    return m_pending;
}

Nscc::Response
Nscc::GetLastResponse() const
{
    return m_last;
}

} // namespace ns3
