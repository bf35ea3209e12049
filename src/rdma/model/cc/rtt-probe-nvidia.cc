/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NVIDIA's RTT sample algorithm (RttProbeNvidia): its attributes, the reference rule per
 * sample, the late decreases of an unanswered probe and the NACK rules.
 */
#include "ns3/rtt-probe-nvidia.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbeNvidia");
NS_OBJECT_ENSURE_REGISTERED(RttProbeNvidia);

TypeId
RttProbeNvidia::GetTypeId()
{
    // The reference parameterisation (docs/design.md, "RTT-probe": NVIDIA's public RTT
    // sample algorithm, DOCA PCC rtt_template), rates relative to the line rate.
    static TypeId tid =
        TypeId("ns3::RttProbeNvidia")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<RttProbeNvidia>()
            .AddAttribute("TargetMode",
                          "Where the target RTT comes from. Absolute (default): TargetRtt as "
                          "given, as the NIC sample does (a real NIC does not know the path's "
                          "base RTT); it must exceed every path's base RTT, else the "
                          "controller only decreases (4.2 us on the 1 us star, ~8.4 us on the "
                          "1 us leaf-spine: 13 us fits both). BasePlusMargin (simulator "
                          "variant): the path's base RTT + TargetMargin, the same queueing "
                          "delay for every path length (no RTT unfairness between short and "
                          "long paths, no collapse on long paths).",
                          EnumValue(RttProbeNvidia::TARGET_ABSOLUTE),
                          compat::MakeEnumAccessor(&RttProbeNvidia::m_targetMode),
                          MakeEnumChecker(RttProbeNvidia::TARGET_ABSOLUTE,
                                          "Absolute",
                                          RttProbeNvidia::TARGET_BASE_PLUS,
                                          "BasePlusMargin"))
            .AddAttribute("TargetRtt",
                          "Target RTT in the Absolute mode: a sample above it decreases the "
                          "rate, at or below it increases it (time, default 13 us: NIC, "
                          "NVIDIA RTT sample BASE_RTT).",
                          TimeValue(MicroSeconds(13)),
                          MakeTimeAccessor(&RttProbeNvidia::m_targetRttAttr),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("TargetMargin",
                          "Target RTT minus the path's base RTT in the BasePlusMargin mode, "
                          "i.e. the queueing delay the controller aims at (time, default "
                          "9 us: simulator, the 13 us NIC target minus the 4.2 us base RTT of "
                          "the 1 us star, rounded, so both modes agree there).",
                          TimeValue(MicroSeconds(9)),
                          MakeTimeAccessor(&RttProbeNvidia::m_targetMargin),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ProbeInterval",
                          "Shortest time between two probes, sent to sent; one probe is "
                          "outstanding at most, so a probe leaves every max(ProbeInterval, "
                          "RTT) (time, default 0 = the target RTT: simulator; the controller "
                          "steers the RTT to the target, so this is one probe per RTT at the "
                          "operating point, as the NIC sample's re-ask on each answer; a "
                          "shorter interval only makes the additive increase (AiStep per "
                          "answer) faster while the queue is empty, hence a larger "
                          "overshoot: 8:1 incast at 100G with the base RTT, 4.2 us, peaks at "
                          "1.4 MB instead of 0.9 MB).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RttProbeNvidia::m_probeIntervalAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MdFactor",
                          "Rate factor for a sample above the target RTT (no unit, default "
                          "0.9: NIC, NVIDIA sample 1 - UPDATE_FACTOR 0.1).",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&RttProbeNvidia::m_mdFactor),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("HighRtt",
                          "Samples at or above this RTT decrease by HighRttMdFactor instead "
                          "(time, default 150 us: NIC, NVIDIA sample MAX_DELAY).",
                          TimeValue(MicroSeconds(150)),
                          MakeTimeAccessor(&RttProbeNvidia::m_highRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("HighRttMdFactor",
                          "Rate factor for a sample at or above HighRtt (no unit, default "
                          "0.8: NIC, NVIDIA sample 1 - 2 x UPDATE_FACTOR).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&RttProbeNvidia::m_highRttMdFactor),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AiStep",
                          "Additive increase per sample at or below the target, as a fraction "
                          "of the line rate (no unit, default 0.05 = +5% of line rate: NIC, "
                          "NVIDIA sample AI).",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&RttProbeNvidia::m_aiStep),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("NackFactor",
                          "Rate factor on a NACK (no unit, default 0.5: CTCC design 'halve', "
                          "NVIDIA sample 1 - 5 x UPDATE_FACTOR).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RttProbeNvidia::m_nackFactor),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("NackMode",
                          "When a NACK acts. Immediate (default, CTCC design: a loss halves "
                          "the rate at once). OnHighRtt (NVIDIA sample): the NACK is "
                          "remembered and the next sample at or above HighRtt applies "
                          "NackFactor instead of HighRttMdFactor; lower samples follow the "
                          "normal rules and leave it pending.",
                          EnumValue(RttProbeNvidia::NACK_IMMEDIATE),
                          compat::MakeEnumAccessor(&RttProbeNvidia::m_nackMode),
                          MakeEnumChecker(RttProbeNvidia::NACK_IMMEDIATE,
                                          "Immediate",
                                          RttProbeNvidia::NACK_ON_HIGH_RTT,
                                          "OnHighRtt"))
            .AddAttribute("NackOncePerEpisode",
                          "Immediate mode: one cut per loss episode; a NACK arriving before "
                          "every PSN sent up to the cutting NACK is acknowledged reports the "
                          "same episode (bool, default true: simulator, TCP NewReno's once per "
                          "window; with selective repeat the receiver NACKs every packet "
                          "behind a hole, and halving on each would drive the rate to the "
                          "floor). false: every NACK cuts. With RateLimitPerDestination the "
                          "PSNs of different QPs are compared, so episodes are approximate.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RttProbeNvidia::m_nackOncePerEpisode),
                          MakeBooleanChecker())
            .AddAttribute("LateProbeDecrease",
                          "A probe still unanswered after k target RTTs counts as k samples "
                          "above the target, each applied as soon as it is known (x "
                          "MdFactor; x HighRttMdFactor for the first k with k x target >= "
                          "HighRtt, which is the last: 12 at the defaults), and a probe "
                          "timeout applies those due (bool, default true: simulator; the "
                          "probe waits in the queue it measures, so without this the "
                          "feedback slows down as the queue grows: an 8:1 incast at 100G "
                          "starting at line rate then fills a 32 MB buffer). false: one "
                          "decision per answer, none on a timeout (NVIDIA sample). Both agree "
                          "on answers within twice the target.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RttProbeNvidia::m_lateProbeDecrease),
                          MakeBooleanChecker())
            .AddAttribute("MinRateFraction",
                          "Lowest rate as a fraction of the line rate (no unit, default "
                          "1/16384 = line / 2^14: NIC, NVIDIA sample MIN_RATE).",
                          DoubleValue(1.0 / 16384),
                          MakeDoubleAccessor(&RttProbeNvidia::m_minRateFraction),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("UseAckRtt",
                          "Data ACK RTTs (send to ACK of a data packet) also feed the rule, "
                          "at most one ACK update per max(ProbeInterval, that RTT) after the "
                          "last update of either source (bool, default false: the CTCC "
                          "design measures with probes only; ACKs add nothing a probe does "
                          "not see, since data and probes share the queue, but up to double "
                          "the samples, hence the additive increase: the 8:1 incast's queue "
                          "peak grows from 0.9 to 1.4 MB).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RttProbeNvidia::m_useAckRtt),
                          MakeBooleanChecker());
    return tid;
}

RttProbeNvidia::RttProbeNvidia()
    : m_targetRttAttr(MicroSeconds(13)),
      m_targetMargin(MicroSeconds(9)),
      m_probeIntervalAttr(Time(0)),
      m_highRtt(MicroSeconds(150)),
      m_mdFactor(0.9),
      m_highRttMdFactor(0.8),
      m_aiStep(0.05),
      m_nackFactor(0.5),
      m_minRateFraction(1.0 / 16384),
      m_minRate(0),
      m_rc(0),
      m_lateDecreases(0),
      m_targetMode(TARGET_ABSOLUTE),
      m_nackMode(NACK_IMMEDIATE),
      m_ackPsn(0),
      m_ackSndNxt(0),
      m_recoverPsn(0),
      m_nackOncePerEpisode(true),
      m_lateProbeDecrease(true),
      m_useAckRtt(false),
      m_probeOutstanding(false),
      m_probedOnce(false),
      m_inLossEpisode(false),
      m_nackPending(false)
{
}

void
RttProbeNvidia::DoInit(const CcContext& ctx)
{
    m_targetRtt = m_targetMode == TARGET_ABSOLUTE ? m_targetRttAttr : ctx.baseRtt + m_targetMargin;
    m_probeInterval = m_probeIntervalAttr.IsStrictlyPositive() ? m_probeIntervalAttr : m_targetRtt;
    const double line = double(ctx.lineRate);
    m_minRate = std::min(line * m_minRateFraction, line);
    m_rc = line; // flows start at line rate
    m_probeOutstanding = false;
    m_probedOnce = false;
    m_lateDecreases = 0;
    m_lastUpdate = Now();
    m_ackPsn = m_ackSndNxt = 0;
    m_inLossEpisode = false;
    m_recoverPsn = 0;
    m_nackPending = false;
    if (m_targetRtt <= ctx.baseRtt)
    {
        // Every sample is then above the target: the rate can only fall to the floor.
        NS_LOG_WARN("RttProbeNvidia: target RTT " << m_targetRtt.As(Time::US)
                                                  << " is not above the path's base RTT "
                                                  << ctx.baseRtt.As(Time::US));
    }
}

std::string
RttProbeNvidia::DoGetName() const
{
    return "rtt-probe-nvidia";
}

uint16_t
RttProbeNvidia::DoImplementedHooks() const
{
    // OnAck: the NACK episodes (cumulative PSNs) and UseAckRtt; WantsProbe: the samples.
    // No window, no pacing delay or recheck of its own, no peer rates.
    return HOOK_ACK | HOOK_PROBE;
}

Time
RttProbeNvidia::GetTargetRtt() const
{
    return m_targetRtt;
}

Time
RttProbeNvidia::GetProbeInterval() const
{
    return m_probeInterval;
}

bool
RttProbeNvidia::IsProbeOutstanding() const
{
    return m_probeOutstanding;
}

void
RttProbeNvidia::SetRate(double rate)
{
    m_rc = std::clamp(rate, std::min(m_minRate, double(m_ctx.lineRate)), double(m_ctx.lineRate));
    const uint64_t r = static_cast<uint64_t>(m_rc);
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

bool
RttProbeNvidia::WantsProbe()
{
    if (m_probeOutstanding)
    {
        return false; // one outstanding: its answer or timeout comes first
    }
    const Time now = Now();
    if (m_probedOnce && now < m_lastProbe + m_probeInterval)
    {
        return false;
    }
    // The NIC sends a probe whenever this returns true (it asks only when it has none
    // outstanding itself), so the request and the NIC's view stay in step.
    m_probeOutstanding = true;
    m_probedOnce = true;
    m_lastProbe = now;
    m_lateDecreases = 0;
    return true;
}

void
RttProbeNvidia::OnProbeResponse(Time rtt)
{
    if (m_lateProbeDecrease && m_probeOutstanding)
    {
        ApplyLateDecreases(rtt);
        const bool decided = m_lateDecreases > 0;
        m_probeOutstanding = false;
        m_lateDecreases = 0;
        if (decided)
        {
            return; // above the target: the decreases it stands for are applied
        }
    }
    m_probeOutstanding = false;
    Sample(rtt);
}

void
RttProbeNvidia::OnProbeTimeout()
{
    // No answer within the NIC's probe timeout (the NIC drops a late answer). With
    // LateProbeDecrease the decrease for the time waited is due (the probe was lost or
    // waits in a queue longer than the timeout: both mean congestion); NVIDIA's sample
    // aborts and re-asks. The next WantsProbe() re-asks: the timeout is far longer than
    // ProbeInterval.
    if (m_lateProbeDecrease && m_probeOutstanding)
    {
        ApplyLateDecreases(Now() - m_lastProbe);
    }
    m_probeOutstanding = false;
    m_lateDecreases = 0;
}

void
RttProbeNvidia::DoOnAck(const CcAck& ack)
{
    // Kept for the NACK that may follow (the NIC reports it through OnAck first).
    m_ackPsn = ack.ackPsn;
    m_ackSndNxt = ack.sndNxt;
    if (!ack.rtt.IsStrictlyPositive() || !m_useAckRtt)
    {
        return;
    }
    // Probes give one sample per RTT; ACKs come once per packet. Keep the reaction at
    // one update per RTT, or the x0.9 / +5% steps would apply per packet.
    if (Now() < m_lastUpdate + std::max(m_probeInterval, ack.rtt))
    {
        return;
    }
    Sample(ack.rtt);
}

void
RttProbeNvidia::Sample(Time rtt)
{
    m_lastUpdate = Now();
    double rate = m_rc;
    if (rtt >= m_highRtt)
    {
        if (m_nackPending)
        {
            rate *= m_nackFactor;
            m_nackPending = false;
        }
        else
        {
            rate *= m_highRttMdFactor;
        }
    }
    else if (rtt > m_targetRtt)
    {
        rate *= m_mdFactor;
    }
    else
    {
        rate += m_aiStep * double(m_ctx.lineRate);
    }
    NS_LOG_LOGIC("rtt " << rtt.GetNanoSeconds() << " ns: rate " << m_rc << " -> " << rate);
    SetRate(rate);
}

void
RttProbeNvidia::DoOnNack()
{
    if (m_nackMode == NACK_ON_HIGH_RTT)
    {
        m_nackPending = true;
        return;
    }
    if (m_nackOncePerEpisode && m_inLossEpisode && m_ackPsn < m_recoverPsn)
    {
        return; // the same loss episode as the last cut
    }
    // A new episode: it lasts until everything sent so far is acknowledged.
    m_inLossEpisode = true;
    m_recoverPsn = m_ackSndNxt;
    SetRate(m_rc * m_nackFactor);
}

RttProbeNvidia::LateDecrease
RttProbeNvidia::PendingLateDecreases(Time elapsed) const
{
    LateDecrease d{m_rc, m_lateDecreases, m_nackPending};
    const int64_t t = m_targetRtt.GetTimeStep();
    if (t <= 0 || !elapsed.IsStrictlyPositive())
    {
        return d;
    }
    // Decrease k is due once the probe is older than k target RTTs (strictly: an RTT
    // equal to the target is not above it), up to the first k with k x target >=
    // HighRtt, which is the reference's one high-RTT decrease: a probe stands for at
    // most that many samples, so a queue that is draining (every probe then waits
    // long) does not drive the rate to the floor, from where the NIC's pacing lets the
    // next probe out only after one packet time at the floor (1.45 ms at 100G).
    const uint64_t cap = uint64_t((m_highRtt.GetTimeStep() + t - 1) / t);
    const uint64_t due = std::min(uint64_t((elapsed.GetTimeStep() - 1) / t), cap);
    while (d.count < due)
    {
        ++d.count;
        // Known when it is applied: the RTT is above k x target.
        const bool high = m_targetRtt * int64_t(d.count) >= m_highRtt;
        if (high && d.nackPending)
        {
            d.rate *= m_nackFactor;
            d.nackPending = false;
        }
        else
        {
            d.rate *= high ? m_highRttMdFactor : m_mdFactor;
        }
    }
    return d;
}

void
RttProbeNvidia::ApplyLateDecreases(Time elapsed)
{
    const LateDecrease d = PendingLateDecreases(elapsed);
    if (d.count == m_lateDecreases)
    {
        return;
    }
    NS_LOG_LOGIC("probe out for " << elapsed.GetNanoSeconds() << " ns: " << d.count
                                  << " decreases, rate " << m_rc << " -> " << d.rate);
    m_lateDecreases = d.count;
    m_nackPending = d.nackPending;
    m_lastUpdate = Now();
    SetRate(d.rate);
}

uint64_t
RttProbeNvidia::DoGetRate()
{
    if (m_lateProbeDecrease && m_probeOutstanding)
    {
        ApplyLateDecreases(Now() - m_lastProbe);
    }
    return static_cast<uint64_t>(std::max(m_rc, m_minRate));
}

uint64_t
RttProbeNvidia::DoPeekRate() const
{
    double rc = m_rc;
    if (m_lateProbeDecrease && m_probeOutstanding)
    {
        // What GetRate() would apply now, computed without applying it (a sampler that
        // applied it would change the run it observes).
        const double floor = std::min(m_minRate, double(m_ctx.lineRate));
        const double pending = PendingLateDecreases(Now() - m_lastProbe).rate;
        rc = std::min(rc, std::clamp(pending, floor, double(m_ctx.lineRate)));
    }
    return static_cast<uint64_t>(std::max(rc, m_minRate));
}

} // namespace ns3
