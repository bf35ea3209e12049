/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/swift.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-wire.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Swift");
NS_OBJECT_ENSURE_REGISTERED(Swift);

TypeId
Swift::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Swift")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<Swift>()
            .AddAttribute("Ai",
                          "Additive increment ai below target, packets per window of "
                          "ACKed packets, i.e. about ai packets per RTT (default 1, paper).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&Swift::m_ai),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("Beta",
                          "Multiplicative decrease constant beta, no unit: a cut is "
                          "beta x (delay - target) / delay (default 0.8, paper).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&Swift::m_beta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MaxMdf",
                          "Largest multiplicative decrease of one cut, fraction (default "
                          "0.5, paper); also the cut on a timeout or a NACK.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&Swift::m_maxMdf),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("BaseTarget",
                          "Absolute base target delay of the fabric window (time); 0 "
                          "(default) derives it as the path's base RTT + BaseTargetExtra. "
                          "Open implementations use 20-25 us, sized for host delays this "
                          "simulator does not model.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&Swift::m_baseTarget),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("BaseTargetExtra",
                          "With BaseTarget 0: base target = path base RTT + this (time, "
                          "default 5 us, simulator choice: the paper's base target covers "
                          "the unloaded RTT plus a few us of allowance; at 100G, 5 us is "
                          "62.5 KB of queue).",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&Swift::m_baseTargetExtra),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PerHopTarget",
                          "Target added per link of the path, one way, h (time, default "
                          "1 us, paper).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&Swift::m_perHop),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FlowScaling",
                          "Add the flow-scaling term to the fabric target (bool, default "
                          "true, paper). Its 100 us range is large next to the few-us "
                          "RTTs of small fabrics: false gives tighter queues.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&Swift::m_flowScaling),
                          MakeBooleanChecker())
            .AddAttribute("FsRange",
                          "Flow-scaling range fs_range: the term at FsMinCwnd (time, "
                          "default 100 us, paper).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&Swift::m_fsRange),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsMinCwnd",
                          "Fabric window (packets) at and below which the flow-scaling "
                          "term is FsRange (default 0.1, paper).",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&Swift::m_fsMinCwnd),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("FsMaxCwnd",
                          "Fabric window (packets) at and above which the flow-scaling "
                          "term is 0 (default 100, paper).",
                          DoubleValue(100.0),
                          MakeDoubleAccessor(&Swift::m_fsMaxCwnd),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("EndpointTarget",
                          "Target of the endpoint window for the endpoint delay "
                          "(CcAck remoteDelay: the receiving host's hold time, echoed in "
                          "the ACK when the responder has a HostRxModel, nic.host_rx; "
                          "without one it is 0 and this window never limits) (time, "
                          "default 10 us, simulator choice).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&Swift::m_endpointTarget),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinCwnd",
                          "Smallest window, packets (default 0.001, paper); below 1 the "
                          "QP is paced at one packet per rtt / cwnd.",
                          DoubleValue(0.001),
                          MakeDoubleAccessor(&Swift::m_minCwnd),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("MaxCwnd",
                          "Largest window, packets; 0 (default) derives line rate x "
                          "max(fabric base RTT, path base RTT) / MTU payload bits (simulator "
                          "choice: a lone flow then fills its link with no queue).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&Swift::m_maxCwndAttr),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("InitialCwnd",
                          "Initial window, packets; 0 (default) derives line rate x path "
                          "base RTT / MTU payload bits (simulator choice: start at the "
                          "path's BDP, like the other algorithms' line-rate start).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&Swift::m_initialCwndAttr),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("RetxResetThreshold",
                          "Consecutive retransmission timeouts that reset the windows to "
                          "MinCwnd (count, default 5, paper).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&Swift::m_retxResetThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MinRto",
                          "Floor of Swift's retransmission timeout srtt + 4 rttvar (paper: "
                          "100 us); the NIC uses this timeout for Swift's QPs.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&Swift::m_minRto),
                          MakeTimeChecker(Time(0)));
    return tid;
}

Swift::Swift()
    : m_ai(1.0),
      m_beta(0.8),
      m_maxMdf(0.5),
      m_flowScaling(true),
      m_fsMinCwnd(0.1),
      m_fsMaxCwnd(100.0),
      m_minCwnd(0.001),
      m_maxCwndAttr(0),
      m_initialCwndAttr(0),
      m_retxResetThreshold(5),
      m_baseTargetS(0),
      m_fsAlpha(0),
      m_fsBeta(0),
      m_maxCwnd(1),
      m_wireBits(0),
      m_retxCount(0)
{
}

void
Swift::DoInit(const CcContext& ctx)
{
    NS_ABORT_MSG_IF(m_flowScaling && m_fsMinCwnd >= m_fsMaxCwnd,
                    "Swift: FsMinCwnd must be below FsMaxCwnd");
    NS_ABORT_MSG_IF(ctx.mtu == 0, "Swift: MTU of 0");
    m_baseTargetS = GetBaseTarget().GetSeconds() + double(ctx.hops) * m_perHop.GetSeconds();
    // The term is alpha/sqrt(w) + beta_fs: fs_range at fs_min_cwnd, 0 at fs_max_cwnd, and
    // decreasing in between. (beta_fs = +alpha/sqrt(fs_max_cwnd), a sign error seen in
    // public code, leaves 2 alpha/sqrt(fs_max_cwnd) at fs_max_cwnd: large windows never
    // lose the term, so the queue grows with no benefit.)
    m_fsAlpha = m_fsRange.GetSeconds() / (1 / std::sqrt(m_fsMinCwnd) - 1 / std::sqrt(m_fsMaxCwnd));
    m_fsBeta = -m_fsAlpha / std::sqrt(m_fsMaxCwnd);
    m_wireBits = 8.0 * rdmawire::WireBytes(RdmaPacketType::DATA, ctx.mtu);

    // A window of line rate x RTT / payload bits is at least the wire BDP (wire bytes >
    // payload bytes), so a lone flow at that window keeps its link busy.
    const double mtuBits = 8.0 * ctx.mtu;
    const double capRtt = std::max(ctx.fabricBaseRtt, ctx.baseRtt).GetSeconds();
    // Without any RTT in the context there is no BDP to derive a cap from: no cap.
    m_maxCwnd = m_maxCwndAttr > 0 ? m_maxCwndAttr
                : capRtt > 0      ? double(ctx.lineRate) * capRtt / mtuBits
                                  : std::numeric_limits<double>::max();
    m_maxCwnd = std::max(m_maxCwnd, m_minCwnd);
    const double init = m_initialCwndAttr > 0
                            ? m_initialCwndAttr
                            : double(ctx.lineRate) * ctx.baseRtt.GetSeconds() / mtuBits;
    m_fabric = Window();
    m_endpoint = Window();
    m_fabric.cwnd = m_endpoint.cwnd = Clamp(init > 0 ? init : 1.0);
    m_retxCount = 0;
    m_lastRtt = ctx.baseRtt;
    UpdateRate();
    NS_LOG_FUNCTION(this << m_fabric.cwnd << m_maxCwnd << m_baseTargetS);
}

std::string
Swift::DoGetName() const
{
    return "swift";
}

uint16_t
Swift::DoImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW | HOOK_RTO;
}

Time
Swift::GetBaseTarget() const
{
    return m_baseTarget.IsStrictlyPositive() ? m_baseTarget : m_ctx.baseRtt + m_baseTargetExtra;
}

double
Swift::FlowScalingSeconds(double fcwnd) const
{
    if (!m_flowScaling)
    {
        return 0;
    }
    const double v = m_fsAlpha / std::sqrt(std::max(fcwnd, 1e-12)) + m_fsBeta;
    return std::max(0.0, std::min(v, m_fsRange.GetSeconds()));
}

Time
Swift::GetFabricTargetFor(double fcwnd) const
{
    return Seconds(m_baseTargetS + FlowScalingSeconds(fcwnd));
}

Time
Swift::GetFabricTarget() const
{
    return GetFabricTargetFor(m_fabric.cwnd);
}

double
Swift::GetCwnd() const
{
    return std::min(m_fabric.cwnd, m_endpoint.cwnd);
}

double
Swift::GetFabricCwnd() const
{
    return m_fabric.cwnd;
}

double
Swift::GetEndpointCwnd() const
{
    return m_endpoint.cwnd;
}

double
Swift::GetMaxCwnd() const
{
    return m_maxCwnd;
}

uint32_t
Swift::GetRetxCount() const
{
    return m_retxCount;
}

double
Swift::Clamp(double cwnd) const
{
    return std::clamp(cwnd, m_minCwnd, m_maxCwnd);
}

bool
Swift::CanDecrease(const Window& w, Time now) const
{
    return !w.everDecreased || now - w.lastDecrease >= m_lastRtt;
}

void
Swift::Cut(Window& w, double factor, Time now)
{
    w.cwnd = Clamp(w.cwnd * factor);
    w.lastDecrease = now;
    w.everDecreased = true;
}

void
Swift::CutOncePerRtt(Window& w, Time now)
{
    if (CanDecrease(w, now))
    {
        Cut(w, 1 - m_maxMdf, now);
    }
}

void
Swift::React(Window& w, double delay, double target, double ackedPackets, Time now)
{
    if (delay < target)
    {
        // Below one packet the window grows by ai per ACKed packet: growing by ai/cwnd
        // would multiply a tiny window by orders of magnitude on one ACK.
        w.cwnd += w.cwnd >= 1 ? m_ai * ackedPackets / w.cwnd : m_ai * ackedPackets;
        w.cwnd = Clamp(w.cwnd);
    }
    else if (CanDecrease(w, now))
    {
        // delay >= target > 0 here unless target is 0; a zero delay on a zero target is
        // no excess delay: no cut, but the decision still counts as this RTT's decrease.
        const double excess = delay > 0 ? (delay - target) / delay : 0;
        Cut(w, std::max(1 - m_beta * excess, 1 - m_maxMdf), now);
    }
}

void
Swift::DoOnAck(const CcAck& ack)
{
    const Time now = Now();
    if (ack.ackedBytes > 0)
    {
        m_retxCount = 0; // progress: the timeouts were not consecutive
    }
    if (!ack.rtt.IsStrictlyPositive())
    {
        return; // no delay sample (the acknowledged packet carried no timestamp)
    }
    m_lastRtt = ack.rtt;
    // RFC 6298 estimators (gains 1/8, 1/4) for the retransmission timeout.
    if (!m_srtt.IsStrictlyPositive())
    {
        m_srtt = ack.rtt;
        m_rttvar = ack.rtt / 2;
    }
    else
    {
        const Time err = ack.rtt > m_srtt ? ack.rtt - m_srtt : m_srtt - ack.rtt;
        m_rttvar = (m_rttvar * 3 + err) / 4;
        m_srtt = (m_srtt * 7 + ack.rtt) / 8;
    }
    const double acked = double(ack.ackedBytes) / m_ctx.mtu;
    const double endpoint = std::max(ack.remoteDelay, Time(0)).GetSeconds();
    const double fabric = std::max(ack.rtt.GetSeconds() - endpoint, 0.0);
    // The target follows the fabric window before this ACK's update.
    React(m_fabric, fabric, m_baseTargetS + FlowScalingSeconds(m_fabric.cwnd), acked, now);
    React(m_endpoint, endpoint, m_endpointTarget.GetSeconds(), acked, now);
    UpdateRate();
}

void
Swift::DoOnNack()
{
    // Fast recovery: a loss the receiver reported, which says nothing about which window
    // is at fault, so both are cut (the effective window halves either way).
    const Time now = Now();
    m_retxCount = 0;
    CutOncePerRtt(m_fabric, now);
    CutOncePerRtt(m_endpoint, now);
    UpdateRate();
}

void
Swift::DoOnTimeout()
{
    const Time now = Now();
    ++m_retxCount;
    if (m_retxCount >= m_retxResetThreshold)
    {
        // Repeated timeouts: something is badly wrong (e.g. a massive incast); restart
        // from the smallest window regardless of the once-per-RTT rule.
        m_fabric.cwnd = m_endpoint.cwnd = m_minCwnd;
        m_fabric.lastDecrease = m_endpoint.lastDecrease = now;
        m_fabric.everDecreased = m_endpoint.everDecreased = true;
    }
    else
    {
        CutOncePerRtt(m_fabric, now);
        CutOncePerRtt(m_endpoint, now);
    }
    UpdateRate();
}

CcSendTiming*
Swift::DoGetExtension()
{
    return this;
}

Time
Swift::RetransmissionTimeout() const
{
    if (!m_srtt.IsStrictlyPositive())
    {
        return Time(0); // no sample yet: the NIC's own timeout
    }
    return std::max(m_minRto, m_srtt + m_rttvar * 4);
}

uint64_t
Swift::DoGetWindow() const
{
    // The NIC blocks when inflight * mtu >= window: rounding up lets it send while
    // inflight < cwnd, and a window below one packet still lets one packet out (its
    // spacing then comes from GetRate()).
    return static_cast<uint64_t>(std::ceil(std::max(GetCwnd(), 1.0) * m_ctx.mtu));
}

uint64_t
Swift::DoGetRate()
{
    UpdateRate();
    return m_rate.Get();
}

void
Swift::UpdateRate()
{
    const double cwnd = GetCwnd();
    uint64_t rate = m_ctx.lineRate;
    if (cwnd < 1 && m_lastRtt.IsStrictlyPositive())
    {
        // One MTU packet every rtt / cwnd: the NIC spaces packets by wire bytes / rate,
        // so the rate counts the packet's wire bits.
        rate = ClampRate(cwnd * m_wireBits / m_lastRtt.GetSeconds(), 1);
    }
    if (rate != m_rate.Get())
    {
        m_rate = rate;
    }
}

} // namespace ns3
