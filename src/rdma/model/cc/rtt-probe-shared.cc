/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RttProbeShared: its attributes, Init, the claim's split among the group's QPs and the
 * pacing by credit. The rate rules per sample are in rtt-probe-shared-rules.cc.
 */
#include "ns3/rtt-probe-shared.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbeShared");
NS_OBJECT_ENSURE_REGISTERED(RttProbeShared);

TypeId
RttProbeShared::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RttProbeShared")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<RttProbeShared>()
            .AddAttribute("TargetMode",
                          "Where the target RTT comes from. Absolute (default): TargetRtt as "
                          "given, as a NIC does (a real NIC does not know the path's base "
                          "RTT); it must exceed every path's base RTT, else the controller "
                          "only decreases (4.2 us on the 1 us star, ~8.4 us on the 1 us "
                          "leaf-spine: 13 us fits both). BasePlusMargin (simulator "
                          "variant): the path's base RTT + TargetMargin, the same queueing "
                          "delay for every path length.",
                          EnumValue(RttProbeShared::TARGET_ABSOLUTE),
                          compat::MakeEnumAccessor(&RttProbeShared::m_targetMode),
                          MakeEnumChecker(RttProbeShared::TARGET_ABSOLUTE,
                                          "Absolute",
                                          RttProbeShared::TARGET_BASE_PLUS,
                                          "BasePlusMargin"))
            .AddAttribute("TargetRtt",
                          "Target RTT in the Absolute mode, before flow scaling: a sample "
                          "above the target decreases the claim, at or below it increases it "
                          "(time, default 13 us: NIC, NVIDIA RTT sample BASE_RTT).",
                          TimeValue(MicroSeconds(13)),
                          MakeTimeAccessor(&RttProbeShared::m_targetRttAttr),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("TargetMargin",
                          "Target RTT minus the path's base RTT in the BasePlusMargin mode, "
                          "i.e. the queueing delay the controller aims at (time, default "
                          "9 us: simulator, the 13 us NIC target minus the 4.2 us base RTT of "
                          "the 1 us star, rounded, so both modes agree there).",
                          TimeValue(MicroSeconds(9)),
                          MakeTimeAccessor(&RttProbeShared::m_targetMargin),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ProbeInterval",
                          "Shortest time between two probes, sent to sent; a probe packet "
                          "also waits until data is in flight and no sample has arrived for "
                          "this long (the data packets are the probes); one is outstanding "
                          "at most (time, default 0 = the target RTT: simulator).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RttProbeShared::m_probeIntervalAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("NackFactor",
                          "Claim factor on a NACK, once per loss episode and once per RTT "
                          "across the group (no unit, default 0.5: CTCC design 'halve').",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RttProbeShared::m_nackFactor),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("NackOncePerEpisode",
                          "One cut per loss episode of a QP; a NACK arriving before every PSN "
                          "sent up to the cutting NACK is acknowledged reports the same "
                          "episode (bool, default true: simulator, TCP NewReno's once per "
                          "window; with selective repeat the receiver NACKs every packet "
                          "behind a hole, and halving on each would drive the claim to the "
                          "floor). false: every NACK cuts (still once per RTT across the "
                          "group). Without a peer group (RateLimitPerDestination) the PSNs "
                          "of different QPs are compared, so episodes are approximate.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RttProbeShared::m_nackOncePerEpisode),
                          MakeBooleanChecker())
            .AddAttribute("MinRateFraction",
                          "Lowest rate of a QP as a fraction of the line rate; the claim's "
                          "floor is that times the group's active QPs (no unit, default "
                          "1/16384 = line / 2^14: NIC, NVIDIA sample MIN_RATE).",
                          DoubleValue(1.0 / 16384),
                          MakeDoubleAccessor(&RttProbeShared::m_minRateFraction),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Beta",
                          "Decrease gain, claim *= 1 - min(Beta (rtt - target) / rtt, MaxMd) "
                          "(no unit, default 1: simulator; the claim becomes claim x target / "
                          "rtt, the cut that removes the excess queue in one step when all "
                          "senders apply it; Swift uses 0.8).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RttProbeShared::m_beta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MaxMd",
                          "Largest decrease per update, as a fraction of the claim (no unit, "
                          "default 0.9: simulator; one sample must be able to undo a 7x "
                          "overload; Swift's 0.5 assumes one sample per RTT).",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&RttProbeShared::m_maxMd),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MiFactor",
                          "Multiplicative increase per update at or below the target, while "
                          "below the additive cap; also the margin of the increase's "
                          "validation, at most (1 + MiFactor) x what the group sends (no "
                          "unit, default 0.1: simulator).",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&RttProbeShared::m_miFactor),
                          MakeDoubleChecker<double>(0, 10))
            .AddAttribute("AiPackets",
                          "The increase per update is at most AiPackets MTUs per TargetRtt "
                          "(packets, default 1: Swift's ai of one packet per RTT; 630 Mb/s "
                          "per update at 1 KB MTU and 13 us).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RttProbeShared::m_aiPackets),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("FlowScaleStep",
                          "The target grows by this much per halving of the QP's rate below "
                          "one MTU per TargetRtt (time, default 4 us: simulator; 7,000 QPs "
                          "into 100G, about 5.5 halvings below, aim at about 35 us; 0 = no "
                          "flow scaling).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&RttProbeShared::m_flowScaleStep),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FlowScaleMax",
                          "Largest flow-scaling addition to the target (time, default 64 us: "
                          "simulator; bounds the standing queue however many QPs share a "
                          "port).",
                          TimeValue(MicroSeconds(64)),
                          MakeTimeAccessor(&RttProbeShared::m_flowScaleMax),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("GradientSpan",
                          "Shortest send-time span over which the RTT's growth is measured "
                          "for the gradient cut (time, default 2 us: simulator; at 100G one "
                          "packet's serialization, 0.08 us, is noise; 0 = no gradient cut).",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&RttProbeShared::m_gradientSpan),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AiSpan",
                          "Without a peer group (RateLimitPerDestination): the longest time "
                          "one additive increase in time counts (time, default 1 ms: "
                          "simulator; a controller idle for long does not come back with a "
                          "large step).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RttProbeShared::m_aiSpan),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PacingRecheck",
                          "Longest wait before a QP's pacing credit is checked again, so a "
                          "claim that rises during a QP's gap (hundreds of microseconds at a "
                          "fair share of 7,000 QPs) takes effect within this time; also the "
                          "time constant of the group's send-rate estimate that bounds the "
                          "claim's increase (time, default 50 us: simulator; a few target "
                          "RTTs; shorter costs more wake-ups).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RttProbeShared::m_pacingRecheck),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PacingJitter",
                          "Each packet costs its wire size x (1 + u) of credit, u uniform in "
                          "[-PacingJitter, PacingJitter], so the mean rate is exact while QPs "
                          "that once sent together (a start-up, a cut) drift apart instead of "
                          "coming due together every gap (no unit, default 0.5: simulator; "
                          "the randomised timers of Floyd and Jacobson's periodic-message "
                          "synchronisation; 0 = none).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RttProbeShared::m_pacingJitter),
                          MakeDoubleChecker<double>(0, 1));
    return tid;
}

RttProbeShared::RttProbeShared()
    : m_targetRttAttr(MicroSeconds(13)),
      m_targetMargin(MicroSeconds(9)),
      m_probeIntervalAttr(Time(0)),
      m_flowScaleStep(MicroSeconds(4)),
      m_flowScaleMax(MicroSeconds(64)),
      m_gradientSpan(MicroSeconds(2)),
      m_aiSpan(MilliSeconds(1)),
      m_pacingRecheck(MicroSeconds(50)),
      m_nackFactor(0.5),
      m_minRateFraction(1.0 / 16384),
      m_beta(1.0),
      m_maxMd(0.9),
      m_miFactor(0.1),
      m_aiPackets(1.0),
      m_pacingJitter(0.5),
      m_minRate(0),
      m_s(nullptr),
      m_earnedMark(0),
      m_usedRate(0),
      m_lastPrice(0),
      m_probeRate(0),
      m_inflight(0),
      m_targetMode(TARGET_ABSOLUTE),
      m_ackPsn(0),
      m_ackSndNxt(0),
      m_recoverPsn(0),
      m_nackOncePerEpisode(true),
      m_pacedOnce(false),
      m_drained(false),
      m_sampled(false),
      m_probeOutstanding(false),
      m_probedOnce(false),
      m_inLossEpisode(false)
{
}

void
RttProbeShared::DoInit(const CcContext& ctx)
{
    m_targetRtt = m_targetMode == TARGET_ABSOLUTE ? m_targetRttAttr : ctx.baseRtt + m_targetMargin;
    m_probeInterval = m_probeIntervalAttr.IsStrictlyPositive() ? m_probeIntervalAttr : m_targetRtt;
    const double line = double(ctx.lineRate);
    m_minRate = std::min(line * m_minRateFraction, line);
    m_own = nullptr;
    m_group = nullptr;
    if (ctx.peers)
    {
        // The group's first controller creates the claim; the others join it.
        m_group = dynamic_cast<ClaimState*>(PeekPointer(ctx.peers->shared));
        if (!m_group)
        {
            m_group = Create<ClaimState>();
            m_group->advancedAt = Now();
            m_group->jitter = ctx.rng ? Ptr<UniformRandomVariable>(ctx.rng)
                                      : CreateObject<UniformRandomVariable>();
            ctx.peers->shared = m_group;
            m_group->rc = line;
            m_group->epochs.fill(Epoch{Now(), line});
        }
        m_s = PeekPointer(m_group);
    }
    else
    {
        // No peer group (one controller for all the QPs to the destination, or a unit
        // test): a claim of its own, at the line rate.
        m_own = Create<ClaimState>();
        m_s = PeekPointer(m_own);
        m_s->rc = line;
        m_s->epochs.fill(Epoch{Now(), line});
        m_s->advancedAt = Now();
    }
    m_earnedMark = 0;
    m_pacedOnce = false;
    m_drained = false;
    m_sampled = false;
    m_lastSendAt = Time(-1);
    m_usedRate = 0;
    m_probeOutstanding = false;
    m_probedOnce = false;
    m_probeRate = 0;
    m_lastSample = Now();
    m_inflight = 0;
    m_ackPsn = m_ackSndNxt = 0;
    m_inLossEpisode = false;
    m_recoverPsn = 0;
    if (m_targetRtt <= ctx.baseRtt)
    {
        // Every sample is then above the target: the claim can only fall to the floor.
        NS_LOG_WARN("RttProbeShared: target RTT " << m_targetRtt.As(Time::US)
                                                  << " is not above the path's base RTT "
                                                  << ctx.baseRtt.As(Time::US));
    }
}

std::string
RttProbeShared::DoGetName() const
{
    return "rtt-probe-shared";
}

uint16_t
RttProbeShared::DoImplementedHooks() const
{
    // No peer rates: a newcomer takes its share of the group's claim, not its siblings'
    // mean rate. The window serves the case without a peer group only.
    return HOOK_ACK | HOOK_WINDOW | HOOK_PACING | HOOK_PROBE;
}

Time
RttProbeShared::GetTargetRtt() const
{
    return TargetFor(Effective());
}

Time
RttProbeShared::GetProbeInterval() const
{
    return m_probeInterval;
}

bool
RttProbeShared::IsProbeOutstanding() const
{
    return m_probeOutstanding;
}

uint32_t
RttProbeShared::Sharers() const
{
    return m_group ? std::max<uint32_t>(m_ctx.peers->activeQps, 1) : 1;
}

double
RttProbeShared::Effective() const
{
    return std::max(m_s->rc / Sharers(), m_minRate);
}

void
RttProbeShared::SetRate(double rate)
{
    Advance(); // credit earned so far at the old claim
    // The floor is per QP, so the claim's is n floors.
    const double floor = std::min(m_minRate * Sharers(), double(m_ctx.lineRate));
    m_s->rc = std::clamp(rate, floor, double(m_ctx.lineRate));
    Advance(); // the new claim is in force from now
    const uint64_t r = static_cast<uint64_t>(m_s->rc);
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

void
RttProbeShared::HandleFirstSend()
{
    if (m_group)
    {
        // The group's claim is what the NIC has learned about the destination; the
        // newcomer takes its share of it.
        Advance();
    }
}

uint64_t
RttProbeShared::DoGetRate()
{
    if (m_probeOutstanding)
    {
        ApplyLateDecrease(Now() - m_lastProbe);
    }
    return static_cast<uint64_t>(Effective());
}

uint64_t
RttProbeShared::DoPeekRate() const
{
    double rc = m_s->rc;
    if (m_probeOutstanding)
    {
        // What GetRate() would apply now, computed without applying it: the late
        // decrease changes the claim's pacing credit and update times, so a sampler
        // that applied it would change the run it observes.
        const double floor = std::min(m_minRate * Sharers(), double(m_ctx.lineRate));
        const double pending = std::min(rc, BoundFor(m_probeRate, Now() - m_lastProbe, 0));
        rc = std::min(rc, std::clamp(pending, floor, double(m_ctx.lineRate)));
    }
    return static_cast<uint64_t>(std::max(rc / Sharers(), m_minRate));
}

// --- pacing by credit ------------------------------------------------------------------

void
RttProbeShared::Advance()
{
    ClaimState& c = *m_s;
    const Time now = Now();
    if (now > c.advancedAt)
    {
        const double dt = (now - c.advancedAt).GetSeconds();
        c.earned += c.qpRate / 8 * dt;
        c.sendRate *= std::exp(-dt / m_pacingRecheck.GetSeconds());
        c.advancedAt = now;
    }
    c.qpRate = Effective();
}

UniformRandomVariable*
RttProbeShared::Rng()
{
    if (!m_s->jitter)
    {
        // The controller's own claim draws from the NIC's stream, or its own outside one.
        m_s->jitter = m_ctx.rng ? Ptr<UniformRandomVariable>(m_ctx.rng)
                                : CreateObject<UniformRandomVariable>();
    }
    return PeekPointer(m_s->jitter);
}

void
RttProbeShared::HandleSend(uint32_t payloadBytes)
{
    m_inflight += payloadBytes;
    const double wire = rdmawire::WireBytes(RdmaPacketType::DATA, payloadBytes);
    const Time now = Now();
    if (!m_group && !m_drained && m_lastSendAt.IsPositive() && now > m_lastSendAt)
    {
        // Own claim, backlogged since its last packet: what it sent over that gap, its
        // last packet's price at the rate then in force (the increase's validation).
        m_usedRate =
            std::min(m_lastPrice * 8 / (now - m_lastSendAt).GetSeconds(), double(m_ctx.lineRate));
    }
    m_lastSendAt = now;
    m_drained = false;
    Advance();
    m_s->sendRate += wire * 8 / m_pacingRecheck.GetSeconds();
    // A bucket one packet deep (no credit kept), and the next packet's price drawn
    // around its wire size: QPs that once sent together (a start-up, a cut) would
    // otherwise stay in step and come due together for good.
    m_earnedMark = m_s->earned;
    m_lastPrice = wire;
    if (m_pacingJitter > 0)
    {
        const double d = wire * m_pacingJitter * (2 * Rng()->GetValue() - 1);
        m_earnedMark += d;
        m_lastPrice += d;
    }
}

bool
RttProbeShared::PacesByCredit() const
{
    return !m_group;
}

Time
RttProbeShared::PacingDelay(uint32_t lastWireBytes)
{
    Advance();
    if (lastWireBytes == 0)
    {
        if (!m_group)
        {
            return Time(0); // own claim: a first packet needs no credit
        }
        // A newcomer's first packet goes at a random point of its first gap at its
        // share: 7,000 QPs starting within a millisecond would otherwise put 7,000
        // packets on the wire at once, whatever the claim.
        lastWireBytes = rdmawire::WireBytes(RdmaPacketType::DATA, m_ctx.mtu);
        if (!m_pacedOnce)
        {
            m_pacedOnce = true;
            m_earnedMark = m_s->earned - lastWireBytes * Rng()->GetValue();
        }
    }
    const double deficit = lastWireBytes - (m_s->earned - m_earnedMark);
    if (deficit <= 0)
    {
        return Time(0);
    }
    // Round up: a wait of zero would send before the credit is there.
    return NanoSeconds(int64_t(std::ceil(deficit * 8 / m_s->qpRate * 1e9)));
}

uint64_t
RttProbeShared::DoGetWindow() const
{
    // Without a peer group, until its first sample the controller knows nothing of its
    // path: one packet in flight, then none.
    return m_group || m_sampled ? 0 : m_ctx.mtu;
}

Time
RttProbeShared::PacingRecheck() const
{
    // Own claim: a rise reaches the NIC with the ACK that caused it (RdmaNic::Repace).
    return m_group ? m_pacingRecheck : Time::Max();
}

void
RttProbeShared::DoOnSendEvent(CcSendEvent event, uint32_t payloadBytes)
{
    switch (event)
    {
    case CcSendEvent::FIRST_SEND:
        HandleFirstSend();
        break;
    case CcSendEvent::SEND:
        HandleSend(payloadBytes);
        break;
    case CcSendEvent::PEERS_CHANGED:
        Advance(); // the credit so far at the old share, the new share from now
        break;
    case CcSendEvent::DRAINED:
        m_drained = true;
        break;
    default:
        break;
    }
}

} // namespace ns3
