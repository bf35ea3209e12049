/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/dctcp.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-wire.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Dctcp");
NS_OBJECT_ENSURE_REGISTERED(Dctcp);

TypeId
Dctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Dctcp")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<Dctcp>()
            .AddAttribute("G",
                          "Weight g of the newest window's marked fraction in alpha: alpha = "
                          "(1 - g) alpha + g F, once per window of data (dimensionless, in "
                          "[0, 1]). Default 1/16 (DCTCP paper, SIGCOMM 2010; RFC 8257).",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&Dctcp::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("InitialAlpha",
                          "alpha before the first window of data ends (dimensionless, in "
                          "[0, 1]): the first echo cuts W by InitialAlpha / 2. Default 1 "
                          "(RFC 8257; Linux's dctcp_alpha_on_init): conservative, a first "
                          "mark halves the window as TCP would.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&Dctcp::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("InitialWindow",
                          "First window W, payload bytes; 0 (default) derives one BDP, line "
                          "rate x the path's base RTT (simulator choice: RoCE QPs start at "
                          "line rate, as in the HPCC simulator and ns3-datacenter, rather "
                          "than with TCP's slow start).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Dctcp::m_initialWindowAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MaxWindow",
                          "Largest window, payload bytes; 0 (default) means no cap "
                          "(simulator choice: TCP's DCTCP has none but the receive window).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Dctcp::m_maxWindowAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Ai",
                          "Additive increase without marks, MTUs per window of acknowledged "
                          "data, i.e. per round trip (default 1: TCP's congestion avoidance, "
                          "RFC 5681, which RFC 8257 keeps).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&Dctcp::m_ai),
                          MakeDoubleChecker<double>(0, 1e6))
            .AddAttribute("LossFactor",
                          "A loss (NACK or retransmission timeout) multiplies W by this, once "
                          "per loss episode (dimensionless, in (0, 1]; default 0.5: RFC 8257 "
                          "sec. 3.5 responds to loss as TCP does, RFC 5681 halves).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&Dctcp::m_lossFactor),
                          MakeDoubleChecker<double>(1e-6, 1))
            .AddAttribute("MinRate",
                          "Lowest pacing rate (default 100 Mb/s, simulator choice, the DCQCN "
                          "paper's minimum; a 1-MTU window is usually the tighter floor).",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&Dctcp::m_minRate),
                          MakeDataRateChecker())
            .AddTraceSource("Alpha",
                            "DCTCP's alpha, the estimated fraction of marked data (in [0, 1]), "
                            "updated once per window of data.",
                            MakeTraceSourceAccessor(&Dctcp::m_alpha),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("Cwnd",
                            "The window W (payload bytes).",
                            MakeTraceSourceAccessor(&Dctcp::m_cwnd),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

Dctcp::Dctcp()
    : m_g(1.0 / 16),
      m_initialAlpha(1.0),
      m_initialWindowAttr(0),
      m_maxWindowAttr(0),
      m_ai(1.0),
      m_lossFactor(0.5),
      m_minWindow(0),
      m_maxWindow(0),
      m_wireRatio(1),
      m_baseRttSec(0),
      m_alpha(1.0),
      m_cwnd(0),
      m_started(false),
      m_windowEnd(0),
      m_windowAcked(0),
      m_windowMarked(0),
      m_aiAcked(0),
      m_reducing(false),
      m_reduceEnd(0),
      m_inLoss(false),
      m_lossEnd(0),
      m_highSndNxt(0)
{
}

void
Dctcp::DoInit(const CcContext& ctx)
{
    NS_ABORT_MSG_IF(ctx.mtu == 0, "Dctcp: MTU of 0");
    NS_ABORT_MSG_IF(!ctx.baseRtt.IsStrictlyPositive(), "Dctcp: no base RTT in the context");
    m_baseRttSec = ctx.baseRtt.GetSeconds();
    m_wireRatio = double(rdmawire::WireBytes(RdmaPacketType::DATA, ctx.mtu)) / ctx.mtu;
    m_minWindow = ctx.mtu;
    m_maxWindow = m_maxWindowAttr > 0 ? std::max(double(m_maxWindowAttr), m_minWindow)
                                      : std::numeric_limits<double>::max();
    const double bdp = double(ctx.lineRate) / 8 * m_baseRttSec;
    m_alpha = m_initialAlpha;
    m_started = false;
    m_windowAcked = m_windowMarked = m_aiAcked = 0;
    m_reducing = m_inLoss = false;
    m_windowEnd = m_reduceEnd = m_lossEnd = m_highSndNxt = 0;
    SetWindow(m_initialWindowAttr > 0 ? double(m_initialWindowAttr) : bdp);
    NS_LOG_FUNCTION(this << m_cwnd.Get() << m_alpha.Get());
}

std::string
Dctcp::DoGetName() const
{
    return "dctcp";
}

uint16_t
Dctcp::DoImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW | HOOK_ECN_PER_PACKET;
}

double
Dctcp::GetAlpha() const
{
    return m_alpha.Get();
}

double
Dctcp::GetCwnd() const
{
    return m_cwnd.Get();
}

bool
Dctcp::InReduction() const
{
    return m_reducing;
}

void
Dctcp::SetWindow(double w)
{
    m_cwnd = std::clamp(w, m_minWindow, m_maxWindow);
    SetRateOfWindow(m_cwnd.Get(), m_wireRatio, m_baseRttSec, m_minRate.GetBitRate());
}

void
Dctcp::EndObservationWindow(const CcAck& ack)
{
    if (m_windowAcked > 0)
    {
        const double f = double(m_windowMarked) / double(m_windowAcked);
        m_alpha = (1 - m_g) * m_alpha.Get() + m_g * f;
        NS_LOG_LOGIC("window of " << m_windowAcked << " B, F " << f << " alpha " << m_alpha.Get());
    }
    m_windowAcked = m_windowMarked = 0;
    m_windowEnd = ack.sndNxt;
}

void
Dctcp::Reduce(double factor)
{
    SetWindow(m_cwnd.Get() * factor);
    m_reducing = true;
    m_reduceEnd = m_highSndNxt;
    m_aiAcked = 0;
}

void
Dctcp::DoOnAck(const CcAck& ack)
{
    m_highSndNxt = std::max(m_highSndNxt, ack.sndNxt);
    if (!m_started)
    {
        // The first window of data is what was sent before the first ACK came back.
        m_started = true;
        m_windowEnd = ack.sndNxt;
    }
    // Episodes end once data sent after they began is acknowledged.
    if (m_reducing && ack.ackPsn > m_reduceEnd)
    {
        m_reducing = false;
    }
    if (m_inLoss && ack.ackPsn > m_lossEnd)
    {
        m_inLoss = false;
    }
    m_windowAcked += ack.ackedBytes;
    if (ack.ecnEcho)
    {
        m_windowMarked += ack.ackedBytes;
    }
    if (ack.ackPsn > m_windowEnd)
    {
        EndObservationWindow(ack);
    }
    if (ack.ecnEcho)
    {
        if (!m_reducing)
        {
            Reduce(1 - m_alpha.Get() / 2);
        }
    }
    else if (!m_reducing && ack.ackedBytes > 0)
    {
        // One step per window's worth of acknowledged bytes: Ai MTU per round trip.
        m_aiAcked += ack.ackedBytes;
        if (double(m_aiAcked) >= m_cwnd.Get())
        {
            m_aiAcked -= std::min<uint64_t>(m_aiAcked, std::llround(m_cwnd.Get()));
            SetWindow(m_cwnd.Get() + m_ai * m_ctx.mtu);
        }
    }
    NS_LOG_LOGIC("ack " << ack.ackPsn << " ece " << ack.ecnEcho << " W " << m_cwnd.Get()
                        << " alpha " << m_alpha.Get());
}

void
Dctcp::OnLoss()
{
    if (m_inLoss)
    {
        return; // the same loss episode: reduced once already
    }
    m_inLoss = true;
    m_lossEnd = m_highSndNxt;
    Reduce(m_lossFactor);
}

void
Dctcp::DoOnNack()
{
    OnLoss();
}

void
Dctcp::DoOnTimeout()
{
    OnLoss();
}

uint64_t
Dctcp::DoGetRate()
{
    return m_rate.Get();
}

uint64_t
Dctcp::DoGetWindow() const
{
    return static_cast<uint64_t>(std::llround(m_cwnd.Get()));
}

} // namespace ns3
