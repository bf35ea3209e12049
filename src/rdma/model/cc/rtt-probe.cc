/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rtt-probe.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-wire.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbe");
NS_OBJECT_ENSURE_REGISTERED(RttProbe);

namespace
{
/// A QP that sent less than this fraction of its rate since its last update was held
/// back, by its NIC's other QPs or by its application (RFC 7661's test of a TCP window
/// that is not used).
constexpr double kHeldBack = 0.5;
/// The shortest span of send time a trend is taken over, in target RTTs: shorter spans
/// measure single packets' serialization and the queue's noise, not its trend.
constexpr double kTrendSpan = 0.5;
/// The overload a trend may report is unbounded; the underload at most this (a queue
/// drains at most at the line rate, and a sample that says more is noise).
constexpr double kMinTrend = -0.5;
} // namespace

TypeId
RttProbe::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RttProbe")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<RttProbe>()
            .AddAttribute("TargetQueueDelay",
                          "q0: the queueing delay a QP at line rate aims at, above its path's "
                          "base RTT (time, default 2 us: with DelayPerHalving, the queue at "
                          "the floor rate, 2^14 QPs per port, is 16 us, within the 20 us "
                          "latency of 1 KB messages the CTCC field test reports).",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&RttProbe::m_q0),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DelayPerHalving",
                          "s: the target's extra queueing delay per halving of the QP's rate "
                          "below the line, T(r) = B + q0 + s log2(C / r) (time, default 1 us: "
                          "N equal QPs hold q0 + s log2 N, 14.8 us at 7,000; Swift's "
                          "flow-based target scaling, in a form that does not saturate).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&RttProbe::m_perHalving),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Gain",
                          "The share of the correction one update applies: of the trend's "
                          "overload, of the headroom below the target, and (as an exponent) "
                          "of the ratio target / RTT above it (no unit, default 0.5: the "
                          "feedback is one RTT old when it acts, and half of the one-step "
                          "correction is the largest gain that does not overshoot with that "
                          "delay).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RttProbe::m_gain),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("SparseUpdates",
                          "Above the target, a QP whose updates are more than this many "
                          "target RTTs apart (one packet every few hundred microseconds at "
                          "a fair share of thousands of QPs) applies Gain x this x T / dt: "
                          "all such QPs act on the same queue in turn, each at its own packet "
                          "(no unit, default 12: measured, docs/design.md, \"RTT-probe: the "
                          "law\").",
                          DoubleValue(12.0),
                          MakeDoubleAccessor(&RttProbe::m_sparseUpdates),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("AdditiveIncrease",
                          "The increase of one update at or below the target, besides the "
                          "headroom's, as a fraction of the rate: what lets QPs at their "
                          "target probe for more (no unit, default 0.02: measured, the "
                          "largest that keeps 8 long flows and 7,000 QPs fair (Jain >= 0.9); "
                          "docs/design-notes.md, \"The per-QP law\").",
                          DoubleValue(0.02),
                          MakeDoubleAccessor(&RttProbe::m_additive),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MaxIncrease",
                          "Largest rate factor of one update (no unit, default 2: doubling "
                          "per RTT, TCP slow start's growth).",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&RttProbe::m_maxIncrease),
                          MakeDoubleChecker<double>(1))
            .AddAttribute("PacingJitter",
                          "Each gap between two packets is drawn uniformly within +- this "
                          "fraction of its mean, and of the headroom below the line rate, so "
                          "that the mean rate is exact while QPs that were cut together "
                          "drift apart instead of coming due together (no unit, default 0.5: "
                          "Floyd and Jacobson's randomised timers against the "
                          "synchronisation of periodic messages; 0 = none).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RttProbe::m_jitter),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MinRateFraction",
                          "Lowest rate as a fraction of the line rate (no unit, default "
                          "1/16384 = line / 2^14: NVIDIA's RTT sample MIN_RATE).",
                          DoubleValue(1.0 / 16384),
                          MakeDoubleAccessor(&RttProbe::m_minFraction),
                          MakeDoubleChecker<double>(1e-9, 1))
            .AddAttribute("NackFactor",
                          "Rate factor on a NACK or a retransmission timeout, once per loss "
                          "episode (no unit, default 0.5: the CTCC design halves the rate "
                          "on a loss).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RttProbe::m_nackFactor),
                          MakeDoubleChecker<double>(0, 1))
            // The rule sets this class once held, now classes of their own.
            .AddAttribute("ShareWithPeers",
                          "Obsolete: the per-destination claim is its own algorithm.",
                          EmptyAttributeValue(),
                          MakeEmptyAttributeAccessor(),
                          MakeEmptyAttributeChecker(),
                          TypeId::OBSOLETE,
                          "the per-destination claim is the algorithm rtt-probe-shared "
                          "(cc.algorithm: rtt-probe-shared)")
            .AddAttribute("Preset",
                          "Obsolete: NVIDIA's RTT sample algorithm is its own algorithm.",
                          EmptyAttributeValue(),
                          MakeEmptyAttributeAccessor(),
                          MakeEmptyAttributeChecker(),
                          TypeId::OBSOLETE,
                          "NVIDIA's RTT sample algorithm (Preset NvidiaSample) is the "
                          "algorithm rtt-probe-nvidia (cc.algorithm: rtt-probe-nvidia)");
    return tid;
}

RttProbe::RttProbe()
    : m_q0(MicroSeconds(2)),
      m_perHalving(MicroSeconds(1)),
      m_minFraction(1.0 / 16384),
      m_nackFactor(0.5),
      m_maxIncrease(2.0),
      m_additive(0.02),
      m_gain(0.5),
      m_sparseUpdates(12.0),
      m_jitter(0.5),
      m_line(0),
      m_minRate(0),
      m_r(0),
      m_price(1),
      m_lastSend(Time(-1)),
      m_sentSinceUpdate(0),
      m_inflight(0),
      m_startInflight(0),
      m_recoverPsn(0),
      m_ackPsn(0),
      m_ackSndNxt(0),
      m_starting(false),
      m_queuedFirst(false),
      m_startAsked(false),
      m_drained(false),
      m_inLossEpisode(false)
{
}

void
RttProbe::DoInit(const CcContext& ctx)
{
    m_line = double(ctx.lineRate);
    m_minRate = std::min(m_line, m_line * m_minFraction);
    m_baseTarget = ctx.baseRtt + m_q0;
    m_r = m_line;
    m_lastSend = Time(-1);
    m_inflight = 0;
    m_startInflight = 0;
    m_drained = false;
    m_inLossEpisode = false;
    m_start = nullptr;
    m_trend = nullptr;
    m_random = ctx.rng ? Ptr<UniformRandomVariable>(ctx.rng) : nullptr;
    if (ctx.peers)
    {
        // The NIC's samples to this destination: the first QP to it creates them.
        m_trend = DynamicCast<RttProbePathTrend>(ctx.peers->shared);
        if (!m_trend)
        {
            m_trend = Create<RttProbePathTrend>();
            ctx.peers->shared = m_trend;
        }
        if (ctx.peers->nic)
        {
            // The NIC's start window: its first QP creates it.
            CcNicGroup& nic = *ctx.peers->nic;
            m_start = DynamicCast<RttProbeStartWindow>(nic.shared);
            if (!m_start)
            {
                m_start = NewWindow();
                nic.shared = m_start;
            }
        }
    }
    if (!m_trend)
    {
        m_trend = Create<RttProbePathTrend>(); // outside a NIC: the QP's own samples
    }
    m_starting = false;
    Start();
    m_rate = ctx.lineRate;
}

std::string
RttProbe::DoGetName() const
{
    return "rtt-probe";
}

uint16_t
RttProbe::DoImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW | HOOK_PACING;
}

RttProbeStartWindow&
RttProbe::Window()
{
    if (!m_start)
    {
        // Outside a NIC (unit tests): a window of the QP's own.
        m_start = NewWindow();
    }
    return *m_start;
}

Ptr<RttProbeStartWindow>
RttProbe::NewWindow() const
{
    return Create<RttProbeStartWindow>(GetInitialWindow(), m_baseTarget, m_ctx.mtu);
}

uint64_t
RttProbe::GetInitialWindow() const
{
    // W0 = C x T(C): the payload a QP alone at line rate keeps in flight at its target.
    return static_cast<uint64_t>(std::llround(m_line / 8 * m_baseTarget.GetSeconds()));
}

bool
RttProbe::IsStarting() const
{
    return m_starting;
}

Time
RttProbe::TargetFor(double rate) const
{
    const double r = std::clamp(rate, m_minRate, m_line);
    return m_baseTarget + Seconds(m_perHalving.GetSeconds() * std::log2(m_line / r));
}

Time
RttProbe::GetTargetRtt() const
{
    return TargetFor(m_r);
}

void
RttProbe::Start()
{
    m_starting = true;
    m_startAsked = false;
    m_queuedFirst = false;
    m_lastUpdate = Now();
    m_sentSinceUpdate = 0;
}

void
RttProbe::RestartIfIdle()
{
    if (m_drained && m_inflight == 0 && !m_starting)
    {
        // Idle: all it sent is acknowledged and it had nothing more to send. Its rate is
        // that of a path it has not measured since: it starts again.
        Start();
    }
}

void
RttProbe::SetRate(double rate)
{
    m_r = std::clamp(rate, m_minRate, m_line);
    const uint64_t r = static_cast<uint64_t>(m_r);
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

uint64_t
RttProbe::DoGetRate()
{
    return PeekRate();
}

uint64_t
RttProbe::DoPeekRate() const
{
    return m_starting ? m_ctx.lineRate : m_rate.Get();
}

uint64_t
RttProbe::DoGetWindow() const
{
    return m_starting ? GetInitialWindow() : 0;
}

bool
RttProbe::PacesByCredit() const
{
    return true;
}

Time
RttProbe::PacingDelay(uint32_t lastWireBytes)
{
    RestartIfIdle();
    if (m_starting)
    {
        if (!m_startAsked)
        {
            // The start's clock runs from when the QP first has work, so that the wait
            // for its NIC's start window counts in the rate its start achieves.
            m_lastUpdate = Now();
            m_startAsked = true;
        }
        const bool first = m_startInflight == 0 && m_sentSinceUpdate == 0;
        const Time wait = Window().Wait(m_ctx.mtu, first);
        if (wait.IsStrictlyPositive() && first && !m_queuedFirst)
        {
            m_queuedFirst = true; // QPs that have sent nothing yet go first
            Window().Queued();
        }
        return wait;
    }
    if (m_lastSend.IsNegative())
    {
        return Time(0);
    }
    // One packet per its wire size at the rate now in force since the last left: a cut
    // at an ACK lengthens the gap being waited, a rise (RdmaNic::Repace) shortens it.
    const Time due = m_lastSend + Seconds(8.0 * lastWireBytes * m_price / m_r);
    return std::max(Time(0), due - Now());
}

void
RttProbe::HandleSend(uint32_t payloadBytes)
{
    RestartIfIdle();
    m_drained = false;
    m_lastSend = Now();
    if (m_jitter > 0)
    {
        if (!m_random)
        {
            m_random = CreateObject<UniformRandomVariable>();
        }
        // Within the headroom below the line only: a gap shorter than the line's own
        // would be lost, and the mean rate with it.
        const double j = std::min(m_jitter, std::max(0.0, 1 - m_r / m_line));
        m_price = 1 + j * (2 * m_random->GetValue() - 1);
    }
    m_inflight += payloadBytes;
    if (m_starting)
    {
        if (!m_startAsked)
        {
            m_lastUpdate = Now(); // the start's clock runs from when it had work
            m_startAsked = true;
        }
        m_startInflight += payloadBytes;
        Window().Sent(payloadBytes, m_queuedFirst);
        m_queuedFirst = false;
    }
    m_sentSinceUpdate += rdmawire::WireBytes(RdmaPacketType::DATA, payloadBytes);
}

void
RttProbe::DoOnAck(const CcAck& ack)
{
    m_ackPsn = ack.ackPsn;
    m_ackSndNxt = ack.sndNxt;
    m_inflight = ack.inflightBytes;
    // The start's bytes were the QP's first: a cumulative ACK covers them first.
    const uint64_t startAcked = std::min(m_startInflight, ack.ackedBytes);
    m_startInflight -= startAcked;
    if (ack.rtt.IsStrictlyPositive())
    {
        Sample(Now() - ack.rtt, ack.rtt, startAcked);
    }
    else if (startAcked > 0)
    {
        Window().Acked(startAcked, 0);
    }
}

double
RttProbe::Trend(Time sent, Time rtt, Time span) const
{
    RttProbePathTrend::Point ref;
    if (!m_trend->Reference({sent, rtt}, span, ref))
    {
        return 0;
    }
    const double g = (rtt - ref.rtt).GetSeconds() / (sent - ref.sent).GetSeconds();
    return std::max(g, kMinTrend);
}

double
RttProbe::Update(double target, Time rtt, double g, double base, bool heldBack) const
{
    const double x = rtt.GetSeconds();
    const double dt = std::max((Now() - m_lastUpdate).GetSeconds(), x);
    // The trend: the QPs together remove Gain of the overload (or underload) it shows.
    // Linear below the line (an unbiased answer to a noisy trend), and never less than
    // the exact answer 1 / (1 + g) squared for a large overload.
    const double gg = m_gain * g;
    const double trend = std::max(1 - gg, 1 / ((1 + gg) * (1 + gg)));
    double next;
    if (x <= target)
    {
        if (heldBack)
        {
            return m_r; // no growth it cannot use (RFC 7661), and no cut either
        }
        const double headroom = (target - x) / target * std::min(1.0, target / dt);
        next = base * (1 + m_additive + m_gain * headroom) * trend;
    }
    else
    {
        const double k = m_gain * std::min(1.0, m_sparseUpdates * target / dt);
        next = base * std::pow(target / x, k) * trend;
    }
    return std::min(next, m_maxIncrease * base);
}

void
RttProbe::Sample(Time sent, Time rtt, uint64_t startAcked)
{
    const Time targetNow = TargetFor(m_r);
    const Time span = Seconds(kTrendSpan * targetNow.GetSeconds());
    const double g = Trend(sent, rtt, span);
    Window().NoteRtt(Now(), rtt);
    if (startAcked > 0)
    {
        Window().Acked(startAcked, g);
    }
    if (sent < m_lastUpdate)
    {
        return; // it left before the last update: it cannot show that update's effect
    }
    const double since = (Now() - m_lastUpdate).GetSeconds();
    const double sentRate = since > 0 ? 8.0 * m_sentSinceUpdate / since : m_r;
    Time target = targetNow;
    if (m_starting)
    {
        // The first sample: the rules act on the rate the start achieved.
        m_starting = false;
        m_r = std::clamp(sentRate, m_minRate, m_line);
        target = TargetFor(m_r);
    }
    const bool heldBack = sentRate < kHeldBack * m_r;
    const double base = heldBack ? std::max(sentRate, m_minRate) : m_r;
    SetRate(Update(target.GetSeconds(), rtt, g, base, heldBack));
    NS_LOG_LOGIC("rtt " << rtt.As(Time::US) << " target " << TargetFor(m_r).As(Time::US) << " g "
                        << g << ": rate " << m_r);
    m_trend->Note({sent, rtt}, span);
    m_lastUpdate = Now();
    m_sentSinceUpdate = 0;
}

void
RttProbe::DoOnNack()
{
    if (m_inLossEpisode && m_ackPsn < m_recoverPsn)
    {
        return; // the same loss episode as the last cut
    }
    // A new episode: it lasts until everything sent so far is acknowledged.
    m_inLossEpisode = true;
    m_recoverPsn = m_ackSndNxt;
    m_starting = false;
    SetRate(m_r * m_nackFactor);
    m_lastUpdate = Now(); // the packets in flight left before the cut
    m_sentSinceUpdate = 0;
}

void
RttProbe::DoOnTimeout()
{
    OnNack();
}

void
RttProbe::DoOnSendEvent(CcSendEvent event, uint32_t payloadBytes)
{
    switch (event)
    {
    case CcSendEvent::SEND:
        HandleSend(payloadBytes);
        break;
    case CcSendEvent::DRAINED:
        m_drained = true; // the next packet waits for the application
        break;
    default:
        break;
    }
}

} // namespace ns3
