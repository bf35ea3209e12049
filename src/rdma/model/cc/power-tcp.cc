/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/power-tcp.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PowerTcp");
NS_OBJECT_ENSURE_REGISTERED(PowerTcp);

namespace
{

/// β's default: the additive increase ns3-datacenter's PowerTCP adds to its rate per
/// update (150 Mb/s) at a 100 Gb/s line rate, as a window over τ, scaled with the line
/// rate so that it stays the same fraction of the BDP (1/667): BDP / N with N = 667.
constexpr double kBetaRate = 150e6;
constexpr double kBetaReferenceRate = 100e9;

} // namespace

TypeId
PowerTcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PowerTcp")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<PowerTcp>()
            .AddAttribute("Gamma",
                          "gamma, the EWMA gain of the window update "
                          "W = gamma (W_prev / power + beta) + (1 - gamma) W "
                          "(dimensionless, in (0, 1]). Default 0.9 (PowerTCP paper, NSDI "
                          "2022; ns3-datacenter's PowerTCP uses 0.9 too).",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&PowerTcp::m_gamma),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("Beta",
                          "beta, the additive increase of the window update (bytes). At "
                          "equilibrium N flows keep a queue of N x beta. Default 0 = derived: "
                          "150 Mb/s x tau scaled by line rate / 100 Gb/s, i.e. BDP / 667 "
                          "(ns3-datacenter's PowerTCP adds 150 Mb/s per update at 100 Gb/s; "
                          "the paper sets beta from the BDP and the expected number of flows).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PowerTcp::m_betaBytes),
                          MakeUintegerChecker<uint64_t>(0, 1ULL << 32))
            .AddAttribute("BaseRtt",
                          "tau, the base RTT that normalises the power (voltage q + B tau) and "
                          "sets the rate W / tau (time). Default 0 = the largest base RTT of "
                          "the fabric (NIC context fabricBaseRtt), as HPCC's T.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PowerTcp::m_baseRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinRate",
                          "Lowest rate; the window never goes below MinRate x tau bytes. "
                          "Default 100 Mb/s (ns3-datacenter's RdmaHw MinRate).",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&PowerTcp::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("MaxWindow",
                          "Largest window W_max (bytes). Default 0 = line rate x tau (the "
                          "first window too), as ns3-datacenter caps the rate at the line "
                          "rate.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PowerTcp::m_maxWindow),
                          MakeUintegerChecker<uint64_t>(0, 1ULL << 40))
            .AddAttribute("MinCurrent",
                          "Floor of a hop's current (dq/dt + txRate) as a fraction of its rate "
                          "(dimensionless, 0 to 1): while a queue drains fast the arrivals "
                          "are small and power-based growth W_prev / power is at most "
                          "1 / MinCurrent per RTT. Default 0.5, ns3-datacenter's floor of "
                          "the current in its PowerTCP (RTT mode; commented out in its INT "
                          "mode); 0 is the paper's law unguarded (a 10:1 burst then "
                          "stays above one BDP for 154 us instead of 44, docs/design.md).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&PowerTcp::m_minCurrent),
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

PowerTcp::PowerTcp()
    : m_gamma(0.9),
      m_betaBytes(0),
      m_maxWindow(0),
      m_minCurrent(0.5)
{
}

void
PowerTcp::DoInit(const CcContext& ctx)
{
    Time t = m_baseRtt;
    if (!t.IsStrictlyPositive())
    {
        t = ctx.fabricBaseRtt.IsStrictlyPositive() ? ctx.fabricBaseRtt : ctx.baseRtt;
    }
    NS_ABORT_MSG_IF(!t.IsStrictlyPositive(), "PowerTcp: no base RTT (tau) in the context");
    const double tauNs = double(t.GetNanoSeconds());
    const double line = double(ctx.lineRate);
    const double bdp = line / 8 * tauNs * 1e-9;
    const double beta = m_betaBytes > 0
                            ? double(m_betaBytes)
                            : kBetaRate * (line / kBetaReferenceRate) / 8 * tauNs * 1e-9;
    const double wMax = m_maxWindow > 0 ? double(m_maxWindow) : bdp;
    const double wMin = std::min(double(m_minRate.GetBitRate()), line) / 8 * tauNs * 1e-9;
    m_law.Init(tauNs, m_gamma, beta, wMin, wMax, bdp, double(Now().GetNanoSeconds()));
    m_int.Reset();
    Publish();
}

std::string
PowerTcp::DoGetName() const
{
    return "powertcp";
}

uint16_t
PowerTcp::DoImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW | HOOK_INT;
}

void
PowerTcp::Publish()
{
    const uint64_t r = ClampRate(std::round(m_law.GetWindow() * 8 * 1e9 / m_law.GetTauNs()),
                                 m_minRate.GetBitRate());
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

bool
PowerTcp::MaxPower(const CcAck& ack, uint32_t n, double& power, double& dt)
{
    bool updated = false;
    for (uint32_t i = 0; i < n; ++i)
    {
        const IntHop cur(ack.intStack[i]);
        IntHop& prev = m_int.Hop(i);
        const uint64_t dts = cur.TimeDelta(prev);
        if (!IntPathHistory::IsNewer(dts))
        {
            continue;
        }
        // All in bytes and seconds: B the hop's rate, current = dq/dt + txRate, voltage
        // = q + B tau, power normalised by the equilibrium's B x (B tau).
        const double seconds = double(dts) * 1e-9;
        const double b = double(cur.bitRate) / 8;
        const double bdp = b * m_law.GetTauNs() * 1e-9;
        const double txRate = double(cur.TxDelta(prev)) / seconds;
        const double dqdt = (double(cur.qlen) - double(prev.qlen)) / seconds;
        const double current = std::max(dqdt + txRate, m_minCurrent * b);
        const double voltage = double(cur.qlen) + bdp;
        const double g = current * voltage / (b * bdp);
        if (!updated || g > power)
        {
            power = g;
            dt = double(dts);
        }
        updated = true;
        prev = cur;
    }
    return updated;
}

void
PowerTcp::DoOnAck(const CcAck& ack)
{
    const uint32_t n = IntPathHistory::ForwardHops(ack, m_ctx.hops);
    if (n == 0)
    {
        return;
    }
    if (!m_int.IsStarted())
    {
        // Nothing to take a difference with yet: store the records.
        m_int.Store(ack, n, Now());
        return;
    }
    if (n != m_int.GetCount() || m_int.IsTooOld(Now()))
    {
        // Another path, or counters that may have wrapped: start the deltas afresh.
        m_int.Store(ack, n, Now());
        return;
    }
    double power = 0;
    double dt = 0;
    if (!MaxPower(ack, n, power, dt))
    {
        return;
    }
    m_int.Touch(Now());
    m_law.AddPower(power, dt);
    m_law.Update(double(Now().GetNanoSeconds()));
    Publish();
    NS_LOG_LOGIC("power " << power << " smoothed " << m_law.GetSmoothedPower() << " W "
                          << m_law.GetWindow() << " W_prev " << m_law.GetPrevWindow());
}

uint64_t
PowerTcp::DoGetRate()
{
    return m_rate.Get();
}

uint64_t
PowerTcp::DoGetWindow() const
{
    return static_cast<uint64_t>(std::llround(m_law.GetWindow()));
}

double
PowerTcp::GetCurrentWindow() const
{
    return m_law.GetWindow();
}

double
PowerTcp::GetPrevWindow() const
{
    return m_law.GetPrevWindow();
}

double
PowerTcp::GetSmoothedPower() const
{
    return m_law.GetSmoothedPower();
}

double
PowerTcp::GetBeta() const
{
    return m_law.GetBeta();
}

Time
PowerTcp::GetTau() const
{
    return NanoSeconds(static_cast<int64_t>(m_law.GetTauNs()));
}

double
PowerTcp::GetMaxWindow() const
{
    return m_law.GetMaxWindow();
}

double
PowerTcp::GetMinWindow() const
{
    return m_law.GetMinWindow();
}

} // namespace ns3
