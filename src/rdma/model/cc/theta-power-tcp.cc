/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/theta-power-tcp.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ThetaPowerTcp");
NS_OBJECT_ENSURE_REGISTERED(ThetaPowerTcp);

namespace
{

/// β's default, as PowerTcp's (power-tcp.cc): 150 Mb/s x τ at 100 Gb/s, scaled with the
/// line rate (ns3-datacenter's PowerTCP, both modes).
constexpr double kBetaRate = 150e6;
constexpr double kBetaReferenceRate = 100e9;

} // namespace

TypeId
ThetaPowerTcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ThetaPowerTcp")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<ThetaPowerTcp>()
            .AddAttribute("Gamma",
                          "gamma, the EWMA gain of the window update "
                          "W = gamma (W_prev / power + beta) + (1 - gamma) W "
                          "(dimensionless, in (0, 1]). Default 0.9 (PowerTCP paper, NSDI "
                          "2022; ns3-datacenter's RTT mode uses 0.7).",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&ThetaPowerTcp::m_gamma),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("Beta",
                          "beta, the additive increase of the window update (bytes). At "
                          "equilibrium N flows keep a queue of N x beta. Default 0 = derived: "
                          "150 Mb/s x tau scaled by line rate / 100 Gb/s, i.e. BDP / 667 "
                          "(ns3-datacenter's PowerTCP adds 150 Mb/s per update at 100 Gb/s; "
                          "the paper sets beta from the BDP and the expected number of flows).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ThetaPowerTcp::m_betaBytes),
                          MakeUintegerChecker<uint64_t>(0, 1ULL << 32))
            .AddAttribute("BaseRtt",
                          "tau, the base RTT the RTT samples are normalised to and that sets "
                          "the rate W / tau (time). Default 0 = the QP's own path's base RTT "
                          "(NIC context baseRtt): the power must be 1 when its queues are "
                          "empty.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&ThetaPowerTcp::m_baseRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinRate",
                          "Lowest rate; the window never goes below MinRate x tau bytes. "
                          "Default 100 Mb/s (ns3-datacenter's RdmaHw MinRate).",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&ThetaPowerTcp::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("MaxWindow",
                          "Largest window W_max (bytes). Default 0 = line rate x tau (the "
                          "first window too), as ns3-datacenter caps the rate at the line "
                          "rate.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ThetaPowerTcp::m_maxWindow),
                          MakeUintegerChecker<uint64_t>(0, 1ULL << 40))
            .AddAttribute("MinCurrent",
                          "Floor of the current term dRTT/dt + 1 (dimensionless, 0 to 1): "
                          "RTT samples of a draining queue are sparse and their gradients "
                          "steep, and power-based growth W_prev / power is at most "
                          "1 / MinCurrent per RTT. Default 0.5 (ns3-datacenter's PowerTCP "
                          "in RTT mode); 0 is the paper's law unguarded.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&ThetaPowerTcp::m_minCurrent),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("TargetRttFactor",
                          "f: the power is normalised by f x tau, so it is 1 at an RTT of "
                          "f x tau (dimensionless, 1 to 10). RTT samples never fall below "
                          "tau and jitter upwards (two packets meeting at a port), so with "
                          "f = 1 the power reads above 1 on an idle path and two flows "
                          "fill 70% of the link. Default 1.05 (ns3-datacenter's PowerTCP "
                          "in RTT mode divides by 1.05 x base RTT).",
                          DoubleValue(1.05),
                          MakeDoubleAccessor(&ThetaPowerTcp::m_rttFactor),
                          MakeDoubleChecker<double>(1.0, 10.0));
    return tid;
}

ThetaPowerTcp::ThetaPowerTcp()
    : m_gamma(0.9),
      m_betaBytes(0),
      m_maxWindow(0),
      m_minCurrent(0.5),
      m_rttFactor(1.05),
      m_started(false)
{
}

void
ThetaPowerTcp::DoInit(const CcContext& ctx)
{
    Time t = m_baseRtt;
    if (!t.IsStrictlyPositive())
    {
        t = ctx.baseRtt.IsStrictlyPositive() ? ctx.baseRtt : ctx.fabricBaseRtt;
    }
    NS_ABORT_MSG_IF(!t.IsStrictlyPositive(), "ThetaPowerTcp: no base RTT (tau) in the context");
    const double tauNs = double(t.GetNanoSeconds());
    const double line = double(ctx.lineRate);
    const double bdp = line / 8 * tauNs * 1e-9;
    const double beta = m_betaBytes > 0
                            ? double(m_betaBytes)
                            : kBetaRate * (line / kBetaReferenceRate) / 8 * tauNs * 1e-9;
    const double wMax = m_maxWindow > 0 ? double(m_maxWindow) : bdp;
    const double wMin = std::min(double(m_minRate.GetBitRate()), line) / 8 * tauNs * 1e-9;
    m_law.Init(tauNs, m_gamma, beta, wMin, wMax, bdp, double(Now().GetNanoSeconds()));
    m_started = false;
    Publish();
}

std::string
ThetaPowerTcp::DoGetName() const
{
    return "theta-powertcp";
}

uint16_t
ThetaPowerTcp::DoImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW;
}

void
ThetaPowerTcp::Publish()
{
    const uint64_t r = ClampRate(std::round(m_law.GetWindow() * 8 * 1e9 / m_law.GetTauNs()),
                                 m_minRate.GetBitRate());
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

void
ThetaPowerTcp::DoOnAck(const CcAck& ack)
{
    if (!ack.rtt.IsStrictlyPositive())
    {
        return; // no sample (an ACK without a send timestamp)
    }
    const Time now = Now();
    if (!m_started)
    {
        // The first sample has no gradient: keep it.
        m_prevRtt = ack.rtt;
        m_prevSample = now;
        m_started = true;
        return;
    }
    const double dt = double((now - m_prevSample).GetNanoSeconds());
    if (dt <= 0)
    {
        return; // two samples at once: no gradient between them
    }
    const double theta = double(ack.rtt.GetNanoSeconds());
    const double gradient = (theta - double(m_prevRtt.GetNanoSeconds())) / dt;
    const double power =
        std::max(gradient + 1, m_minCurrent) * theta / (m_rttFactor * m_law.GetTauNs());
    m_prevRtt = ack.rtt;
    m_prevSample = now;
    m_law.AddPower(power, dt);
    m_law.Update(double(now.GetNanoSeconds()));
    Publish();
    NS_LOG_LOGIC("rtt " << theta << " gradient " << gradient << " power " << power << " smoothed "
                        << m_law.GetSmoothedPower() << " W " << m_law.GetWindow());
}

uint64_t
ThetaPowerTcp::DoGetRate()
{
    return m_rate.Get();
}

uint64_t
ThetaPowerTcp::DoGetWindow() const
{
    return static_cast<uint64_t>(std::llround(m_law.GetWindow()));
}

double
ThetaPowerTcp::GetCurrentWindow() const
{
    return m_law.GetWindow();
}

double
ThetaPowerTcp::GetPrevWindow() const
{
    return m_law.GetPrevWindow();
}

double
ThetaPowerTcp::GetSmoothedPower() const
{
    return m_law.GetSmoothedPower();
}

double
ThetaPowerTcp::GetBeta() const
{
    return m_law.GetBeta();
}

Time
ThetaPowerTcp::GetTau() const
{
    return NanoSeconds(static_cast<int64_t>(m_law.GetTauNs()));
}

double
ThetaPowerTcp::GetMaxWindow() const
{
    return m_law.GetMaxWindow();
}

double
ThetaPowerTcp::GetMinWindow() const
{
    return m_law.GetMinWindow();
}

} // namespace ns3
