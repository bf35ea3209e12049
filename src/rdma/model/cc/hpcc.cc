/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/hpcc.h"

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

NS_LOG_COMPONENT_DEFINE("Hpcc");
NS_OBJECT_ENSURE_REGISTERED(Hpcc);

namespace
{

/// Line rate at which RateAi is given; W_AI scales with line rate / this.
constexpr double kAiReferenceRate = 100e9;

} // namespace

TypeId
Hpcc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Hpcc")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<Hpcc>()
            .AddAttribute("Eta",
                          "Target utilisation eta (fraction of the link rate, dimensionless). "
                          "Default 0.95 (paper); the authors now recommend 0.99, which keeps "
                          "less headroom: set 0.99 for that variant. INT counts frame bytes "
                          "without preamble and inter-frame gap, so at U = eta the wire is "
                          "busy eta x (frame + 20 B)/frame: 0.967 at 0.95 with 1 KB payloads; "
                          "0.99 gives 1.008, a small standing queue.",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&Hpcc::m_eta),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("MaxStage",
                          "maxStage: additive steps (one per RTT) allowed while U < eta "
                          "before a multiplicative step (count). Default 0 = every "
                          "once-per-RTT update is multiplicative, what the paper's "
                          "simulations used (HPCC simulator MI_THRESH 0); the paper text "
                          "says 5.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Hpcc::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "Additive increase W_AI, as a rate at a 100 Gb/s line rate: "
                          "W_AI = RateAi x (line rate / 100 Gb/s) x T bytes, so the step "
                          "stays the same fraction of the BDP at every line rate. Default "
                          "50 Mb/s (the module's specification, docs/design.md; the HPCC "
                          "simulator's run.py uses 10 Mb/s x rate/25G = 40 Mb/s at 100G).",
                          DataRateValue(DataRate("50Mb/s")),
                          MakeDataRateAccessor(&Hpcc::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Lowest rate; the window never goes below MinRate x T bytes. "
                          "Default 1 Gb/s (HPCC simulator MIN_RATE; the paper gives none).",
                          DataRateValue(DataRate("1Gb/s")),
                          MakeDataRateAccessor(&Hpcc::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("BaseRtt",
                          "T, the RTT the utilisation, the window and the rate are "
                          "normalised to (time). Default 0 = the largest base RTT of the "
                          "fabric, as the paper sets it (NIC context fabricBaseRtt).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&Hpcc::m_baseRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RttBoundary",
                          "When an RTT has passed since the last reference-window update: "
                          "Psn (default; paper and HPCC simulator: the ACK's cumulative PSN "
                          "passes the sndNxt recorded at that update) or SendTime (the "
                          "acknowledged packet was sent after that update). The same for "
                          "one QP with in-order delivery; use SendTime with the NIC's "
                          "per-destination rate limiting, where QPs with unrelated PSNs "
                          "share one controller.",
                          EnumValue(Hpcc::PSN),
                          compat::MakeEnumAccessor(&Hpcc::m_rttBoundary),
                          MakeEnumChecker(Hpcc::PSN, "Psn", Hpcc::SEND_TIME, "SendTime"));
    return tid;
}

Hpcc::Hpcc()
    : m_eta(0.95),
      m_maxStage(0),
      m_rttBoundary(PSN),
      m_tNs(0),
      m_wInit(0),
      m_wMin(0),
      m_wAi(0),
      m_u(1.0),
      m_w(0),
      m_wc(0),
      m_incStage(0),
      m_lastUpdateSeq(0)
{
}

void
Hpcc::DoInit(const CcContext& ctx)
{
    Time t = m_baseRtt;
    if (!t.IsStrictlyPositive())
    {
        t = ctx.fabricBaseRtt.IsStrictlyPositive() ? ctx.fabricBaseRtt : ctx.baseRtt;
    }
    NS_ABORT_MSG_IF(!t.IsStrictlyPositive(), "Hpcc: no base RTT (T) in the context");
    m_tNs = double(t.GetNanoSeconds());
    const double line = double(ctx.lineRate);
    m_wInit = line / 8 * m_tNs * 1e-9;
    m_wMin = std::min(double(m_minRate.GetBitRate()), line) / 8 * m_tNs * 1e-9;
    m_wAi = double(m_rateAi.GetBitRate()) * (line / kAiReferenceRate) / 8 * m_tNs * 1e-9;
    // U starts at 1 as in the HPCC simulator: the first samples pull it to the truth at
    // their weight tau/T, so one early sample cannot swing the window.
    m_u = 1.0;
    m_wc = m_wInit;
    m_incStage = 0;
    m_lastUpdateSeq = 0;
    m_lastUpdateTime = Time(0);
    m_int.Reset();
    SetWindow(m_wInit);
}

std::string
Hpcc::DoGetName() const
{
    return "hpcc";
}

uint16_t
Hpcc::DoImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW | HOOK_INT;
}

void
Hpcc::SetWindow(double w)
{
    m_w = std::clamp(w, m_wMin, m_wInit);
    const uint64_t r = ClampRate(std::round(m_w * 8 * 1e9 / m_tNs), m_minRate.GetBitRate());
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

// OnAck's piece, inline in it (its only caller): it runs once per ACK.
inline bool
Hpcc::MostLoadedHop(const CcAck& ack, uint32_t n, double& uMax, double& tau)
{
    bool updated = false;
    for (uint32_t i = 0; i < n; ++i)
    {
        const IntHop cur(ack.intStack[i]);
        IntHop& prev = m_int.Hop(i);
        const uint64_t dts = cur.TimeDelta(prev);
        if (!IntPathHistory::IsNewer(dts))
        {
            // Same stamp (no new information) or an older record than the stored one.
            continue;
        }
        // u = (rate that drains the queue in T + tx rate) / link rate, all in bit/s.
        // min(): a queue counts only if both records saw it, so a burst caught by one
        // record alone does not cut the window.
        const double qlen = double(std::min(cur.qlen, prev.qlen));
        const double txRate = double(cur.TxDelta(prev)) * 8e9 / double(dts);
        const double u = (qlen * 8e9 / m_tNs + txRate) / double(cur.bitRate);
        if (!updated || u > uMax)
        {
            uMax = u;
            tau = double(dts);
        }
        updated = true;
        prev = cur;
    }
    return updated;
}

// Also HpccPint's (not inline: it is called from there too).
void
Hpcc::ApplyWindowRule(const CcAck& ack)
{
    // Every ACK recomputes W from the reference window; only the first ACK of data sent
    // after the last reference update (one RTT later) makes W the new reference, so the
    // reaction to one RTT of feedback is not compounded ACK after ACK.
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
    if (EndsRtt(ack))
    {
        m_wc = m_w;
        m_incStage = stage;
        m_lastUpdateSeq = std::max(m_lastUpdateSeq, ack.sndNxt);
        m_lastUpdateTime = Now();
    }
}

inline void
Hpcc::UpdateWindow(const CcAck& ack, double uMax, double tau)
{
    // EWMA over the time the sample covers: a sample spanning a whole T replaces U.
    const double w = std::min(tau, m_tNs) / m_tNs;
    m_u = (1 - w) * m_u + w * uMax;
    ApplyWindowRule(ack);
}

void
Hpcc::DoOnAck(const CcAck& ack)
{
    const uint32_t n = IntPathHistory::ForwardHops(ack, m_ctx.hops);
    if (n == 0)
    {
        return;
    }
    if (!m_int.IsStarted())
    {
        // Nothing to take a difference with yet: store the records; the first RTT ends
        // when the data sent after this ACK is acknowledged.
        m_int.Store(ack, n, Now());
        m_lastUpdateSeq = ack.sndNxt;
        m_lastUpdateTime = Now();
        return;
    }
    if (n != m_int.GetCount())
    {
        // A different path: its hops are not the stored ones. Start the deltas afresh.
        NS_LOG_LOGIC("hop count " << m_int.GetCount() << " -> " << n << ": records re-stored");
        m_int.Store(ack, n, Now());
        return;
    }
    if (m_int.IsTooOld(Now()))
    {
        m_int.Store(ack, n, Now());
        return;
    }
    double uMax = 0;
    double tau = 0;
    if (!MostLoadedHop(ack, n, uMax, tau))
    {
        return;
    }
    m_int.Touch(Now());
    UpdateWindow(ack, uMax, tau);
    NS_LOG_LOGIC("U " << m_u << " W " << m_w << " Wc " << m_wc << " stage " << m_incStage);
}

bool
Hpcc::EndsRtt(const CcAck& ack) const
{
    // An ACK without a send timestamp (rtt 0) can only be placed by its PSN.
    if (m_rttBoundary == SEND_TIME && ack.rtt.IsStrictlyPositive())
    {
        // >=: the NIC sends right after handling an ACK, in the same nanosecond; that
        // packet carries the sndNxt the PSN rule records, so it counts as sent after.
        return Now() - ack.rtt >= m_lastUpdateTime;
    }
    return ack.ackPsn > m_lastUpdateSeq;
}

uint64_t
Hpcc::DoGetRate()
{
    return m_rate.Get();
}

uint64_t
Hpcc::DoGetWindow() const
{
    return static_cast<uint64_t>(std::llround(m_w));
}

double
Hpcc::GetUtilization() const
{
    return m_u;
}

double
Hpcc::GetCurrentWindow() const
{
    return m_w;
}

double
Hpcc::GetReferenceWindow() const
{
    return m_wc;
}

uint32_t
Hpcc::GetIncStage() const
{
    return m_incStage;
}

double
Hpcc::GetWindowAi() const
{
    return m_wAi;
}

double
Hpcc::GetInitialWindow() const
{
    return m_wInit;
}

Time
Hpcc::GetT() const
{
    return NanoSeconds(static_cast<int64_t>(m_tNs));
}

} // namespace ns3
