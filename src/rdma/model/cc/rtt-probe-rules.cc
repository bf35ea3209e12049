/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RttProbe's event handlers and rate rules (the TypeId, attributes and Init are in
 * rtt-probe.cc, the rate read with the late decreases and Scalable's decrease for a
 * sample in rtt-probe-rate.cc). Scalable and NvidiaSample share the handlers; each sample
 * goes to its preset's rule.
 */
#include "ns3/log.h"
#include "ns3/rtt-probe.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbeRules");

void
RttProbe::OnFirstSend()
{
    if (P().preset != PRESET_SCALABLE)
    {
        return;
    }
    if (m_group)
    {
        // The group's claim is what the NIC has learned about the destination; the
        // newcomer takes its share of it.
        Advance();
        return;
    }
    if (P().firstRate == FIRST_LINE_RATE || !m_ctx.peers)
    {
        return;
    }
    const CcPeerGroup& peers = *m_ctx.peers;
    if (P().firstRate == FIRST_COUNT_SHARE)
    {
        // What the NIC knows without the network: how many of its QPs have work for
        // this destination (the QP's first sample then corrects it, Sample()).
        SetRate(double(m_ctx.lineRate) / std::max<uint32_t>(peers.activeQps, 1));
    }
    else if (P().firstRate == FIRST_PEER_SHARE && peers.ratedQps > 0)
    {
        // The rates its QPs to this destination that already send have learned.
        SetRate(double(peers.rateSum) / peers.ratedQps);
    }
    NS_LOG_LOGIC("first rate " << m_s->rc);
    NewEpoch();
}

uint32_t
RttProbe::Sharers() const
{
    return m_group ? std::max<uint32_t>(m_ctx.peers->activeQps, 1) : 1;
}

double
RttProbe::Effective() const
{
    return std::max(m_s->rc / Sharers(), m_minRate);
}

bool
RttProbe::WantsProbe()
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
    if (P().preset == PRESET_SCALABLE && (m_inflight == 0 || now < m_lastSample + m_probeInterval))
    {
        // The data packets are the probes; a probe packet only when their feedback is
        // overdue (data in flight, no sample for a probe interval).
        return false;
    }
    // The NIC sends a probe whenever this returns true (it asks only when it has none
    // outstanding itself), so the request and the NIC's view stay in step.
    m_probeOutstanding = true;
    m_probedOnce = true;
    m_lastProbe = now;
    m_probeRate = m_s->rc;
    m_lateDecreases = 0;
    return true;
}

void
RttProbe::OnProbeResponse(Time rtt)
{
    m_lastSample = Now();
    if (P().preset == PRESET_SCALABLE)
    {
        if (m_probeOutstanding)
        {
            ApplyLateDecreases(rtt);
        }
        m_probeOutstanding = false;
        Sample(rtt); // skipped if the late decrease already acted on it
        return;
    }
    if (P().lateProbeDecrease && m_probeOutstanding)
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
RttProbe::OnProbeTimeout()
{
    // No answer within the NIC's probe timeout (the NIC drops a late answer). With late
    // decreases (Scalable always, NvidiaSample with LateProbeDecrease) the decrease for
    // the time waited is due (the probe was lost or waits in a queue longer than the
    // timeout: both mean congestion); NVIDIA's sample aborts and re-asks. The next
    // WantsProbe() re-asks: the timeout is far longer than ProbeInterval.
    if ((P().preset == PRESET_SCALABLE || P().lateProbeDecrease) && m_probeOutstanding)
    {
        ApplyLateDecreases(Now() - m_lastProbe);
    }
    m_probeOutstanding = false;
    m_lateDecreases = 0;
}

void
RttProbe::OnAck(const CcAck& ack)
{
    // Kept for the NACK that may follow (the NIC reports it through OnAck first).
    if (P().preset == PRESET_SCALABLE && m_probeOutstanding)
    {
        ApplyLateDecreases(Now() - m_lastProbe); // catch up before reading the rate
    }
    m_ackPsn = ack.ackPsn;
    m_ackSndNxt = ack.sndNxt;
    m_inflight = ack.inflightBytes;
    if (!ack.rtt.IsStrictlyPositive())
    {
        return;
    }
    if (P().preset == PRESET_SCALABLE)
    {
        m_lastSample = Now();
        Sample(ack.rtt);
        return;
    }
    if (!P().useAckRtt)
    {
        return;
    }
    // Probes give one sample per RTT; ACKs come once per packet. Keep the reaction at
    // one update per RTT, or the x0.9 / +5% steps would apply per packet.
    if (Now() < m_lastUpdate + std::max(m_probeInterval, ack.rtt))
    {
        return;
    }
    m_lastSample = Now();
    Sample(ack.rtt);
}

void
RttProbe::Sample(Time rtt)
{
    const bool first = !m_sampled;
    m_sampled = true;
    if (first && P().preset == PRESET_SCALABLE && !m_group)
    {
        // Per QP, the first sample ends the initial window of one packet. Flow scaling
        // makes the RTT that QPs settle at tell their rate (the rate whose target it
        // is): a QP joining a path at equilibrium starts at the rate of those already
        // there, read from its own sample. On an empty path a QP alone to its
        // destination keeps its first rate, the line (a flow among others' traffic);
        // one of several goes on at what its window achieved, one packet per RTT, for
        // QPs starting together would otherwise each take a share of the line before
        // their first sample could tell them of each other.
        Gradient(Now() - rtt, rtt); // the gradient's first reference
        double rate = std::min(m_s->rc, RateForTarget(rtt));
        if (m_ctx.peers && m_ctx.peers->activeQps > 1)
        {
            const double window = 8.0 * rdmawire::WireBytes(RdmaPacketType::DATA, m_ctx.mtu);
            rate = std::min(rate, window / rtt.GetSeconds());
        }
        SetRate(rate);
        if (m_lastSendAt.IsPositive())
        {
            // The credit it earned while it waited was at a guessed rate (its first
            // rate): its next packet is due one packet after its last at the rate it has
            // now learned, the wait so far counted at that rate. Spent as earned, every
            // QP's second packet would follow its first sample at once, and 7,750 QPs
            // starting within a millisecond would send two packets each at any rate.
            const double since = (Now() - m_lastSendAt).GetSeconds();
            m_earnedMark = m_s->earned - std::min(m_lastPrice, Effective() / 8 * since);
        }
        NewEpoch();
        return;
    }
    if (P().preset == PRESET_SCALABLE)
    {
        ScalableSample(rtt);
    }
    else
    {
        ReferenceSample(rtt);
    }
}

void
RttProbe::ScalableSample(Time rtt)
{
    ClaimState& c = *m_s;
    c.lastRtt = rtt;
    const Time sent = Now() - rtt;
    const double gradient = Gradient(sent, rtt);
    const Epoch& last = c.epochs[c.epochHead];
    if (sent < last.start)
    {
        // The packet left before the last update: it cannot show that update's effect
        // (Swift's once per RTT), but its RTT still bounds the claim it left at. That
        // claim, not the rate the QP was last sent at: the last update has already cut
        // that one, and a bound taken from it would cut it again at every older ACK (a
        // fast QP has an RTT's worth of them in flight).
        Bound(RateSentAt(sent), rtt, gradient);
        return;
    }
    const double before = c.rc;
    const double bound = BoundFor(Used(last.rate), rtt, gradient);
    if (bound < std::numeric_limits<double>::infinity())
    {
        if (bound < c.rc)
        {
            SetRate(bound); // what Bound() does, without deriving the bound again
        }
    }
    else
    {
        ScalableIncrease(last, rtt, gradient);
    }
    NS_LOG_LOGIC("rtt " << rtt.GetNanoSeconds() << " ns: claim " << before << " -> " << c.rc
                        << " over " << Sharers() << " QPs");
    NewEpoch();
}

void
RttProbe::ScalableIncrease(const Epoch& last, Time rtt, double gradient)
{
    const ClaimState& c = *m_s;
    const double cap = P().aiPackets * 8.0 * m_ctx.mtu / m_targetRtt.GetSeconds();
    const double dt = std::min(Now() - last.start, P().aiSpan).GetSeconds();
    double rate = c.rc + std::min(IncreaseFactor(last, rtt, dt) * c.rc, cap);
    if (!m_group && !SharesNic())
    {
        // A QP alone on its NIC grows additively in time, AiPackets per TargetRtt
        // per TargetRtt, whatever its rate: a multiplicative step would keep the
        // ratio of two such QPs' rates for good (MIMD), and a step per update would
        // favour the faster QP, which updates more often (AIMD fairness needs the
        // same increase per second for all).
        rate = c.rc + cap * dt / m_targetRtt.GetSeconds();
    }
    if (SharesNic())
    {
        // Per QP, an additive increase in time, the NIC's AiRate split among its
        // active QPs: what makes QPs that started apart converge to equal rates
        // (AIMD), and what the NIC adds in all is the same however many QPs it has.
        rate += P().aiRate * dt / std::max<uint32_t>(m_ctx.peers->nic->activeQps, 1);
    }
    rate = UsableIncrease(rate, last.rate);
    if (SharesNic())
    {
        // Per QP, the damping of the increase: a queue that grows while still below
        // the target means the QPs together already offer more than the port drains
        // ((1 + g) x), and each of them learns it only once per packet. Their
        // increases, taken one QP at a time over a sample interval, would carry the
        // aggregate far past the drain rate before the target is reached (the
        // aggregate then swings between an empty queue and a long one). So the step
        // shrinks by QpIncreaseDamping x g and turns into a cut when g is large.
        const double step = (rate - c.rc) / c.rc - P().qpIncreaseDamping * std::max(gradient, 0.0);
        rate = c.rc * (1 + std::max(step, -P().maxMd));
    }
    SetRate(rate);
}

double
RttProbe::IncreaseFactor(const Epoch& last, Time rtt, double dt) const
{
    if (!SharesNic())
    {
        return P().miFactor;
    }
    // Per QP, the increase is proportional to how far below the target the RTT
    // is, up to doubling: a QP left low by a start-up or a departure regains its
    // share within a few of its packets, and one near the target barely moves.
    // Below one MTU per target RTT a QP samples once per packet, so the step also
    // scales with the time since its last update (MiFactor per MiPeriod): a
    // faster QP, sampling more often, grows no faster than a slow one. Above, it
    // updates once per RTT like any flow, and the AI cap keeps its step additive.
    const Time target = TargetFor(last.rate);
    const bool belowOneMtu = last.rate * m_targetRtt.GetSeconds() < 8.0 * m_ctx.mtu;
    return std::min(P().miFactor * (target - rtt).GetSeconds() / rtt.GetSeconds() *
                        (belowOneMtu ? dt / P().miPeriod.GetSeconds() : 1.0),
                    1.0);
}

double
RttProbe::UsableIncrease(double rate, double lastRate)
{
    const ClaimState& c = *m_s;
    if (m_group)
    {
        // Grow only while the group sends what it claims (its QPs take up a rise
        // within PacingRecheck): a claim that ran ahead would land all at once.
        Advance();
        return std::min(rate, std::max(c.rc, m_group->sendRate * (1 + P().miFactor)));
    }
    if (m_usedRate > 0 && (SharesNic() || m_usedRate < (1 - P().miFactor) * lastRate))
    {
        // Per QP, the same validation: a QP held back by its NIC (its siblings
        // share the NIC's link) does not grow a rate it cannot use. A QP alone on
        // its NIC, only if it sent clearly below its rate: capped at (1 + MiFactor)
        // x what it sent, its additive step would again be a multiplicative one.
        return std::min(rate, std::max(c.rc, m_usedRate * (1 + P().miFactor)));
    }
    return rate;
}

double
RttProbe::RateForTarget(Time rtt) const
{
    if (rtt <= m_targetRtt || !P().flowScaleStep.IsStrictlyPositive())
    {
        return std::numeric_limits<double>::infinity();
    }
    // TargetFor inverted: the halvings below one MTU per target RTT that add rtt's
    // excess over TargetRtt (at most FlowScaleMax's worth).
    const double extra = std::min(rtt - m_targetRtt, P().flowScaleMax).GetSeconds();
    const double halvings = extra / P().flowScaleStep.GetSeconds();
    return 8.0 * m_ctx.mtu / m_targetRtt.GetSeconds() * std::exp2(-halvings);
}

double
RttProbe::Gradient(Time sent, Time rtt)
{
    // The queueing delay's growth per unit of send time, between this sample and a
    // reference at least GradientSpan earlier (shorter spans are noise: one packet's
    // serialization is already 0.08 us at 100G).
    if (!P().gradientSpan.IsStrictlyPositive())
    {
        return 0;
    }
    ClaimState& c = *m_s;
    if (!c.gradRefValid || sent < c.gradRefSent)
    {
        c.gradRefValid = true;
        c.gradRefSent = sent;
        c.gradRefRtt = rtt;
        return 0;
    }
    const Time span = sent - c.gradRefSent;
    if (span < P().gradientSpan)
    {
        return c.lastGradient;
    }
    c.lastGradient = (rtt - c.gradRefRtt).GetSeconds() / span.GetSeconds();
    c.gradRefSent = sent;
    c.gradRefRtt = rtt;
    return c.lastGradient;
}

double
RttProbe::RateSentAt(Time t) const
{
    // The newest epoch that had started by t; older than all kept: the oldest.
    const auto& ring = m_s->epochs;
    for (std::size_t i = 0; i < ring.size(); ++i)
    {
        const Epoch& e = ring[(m_s->epochHead + ring.size() - i) % ring.size()];
        if (e.start <= t)
        {
            return e.rate;
        }
    }
    return ring[(m_s->epochHead + 1) % ring.size()].rate;
}

void
RttProbe::NewEpoch()
{
    m_s->epochHead = (m_s->epochHead + 1) % m_s->epochs.size();
    m_s->epochs[m_s->epochHead] = Epoch{Now(), m_s->rc};
}

void
RttProbe::ReferenceSample(Time rtt)
{
    m_lastUpdate = Now();
    double rate = m_s->rc;
    if (rtt >= P().highRtt)
    {
        if (m_nackPending)
        {
            rate *= P().nackFactor;
            m_nackPending = false;
        }
        else
        {
            rate *= P().highRttMdFactor;
        }
    }
    else if (rtt > m_targetRtt)
    {
        rate *= P().mdFactor;
    }
    else
    {
        rate += P().aiStep * double(m_ctx.lineRate);
    }
    NS_LOG_LOGIC("rtt " << rtt.GetNanoSeconds() << " ns: rate " << m_s->rc << " -> " << rate);
    SetRate(rate);
}

void
RttProbe::OnNack()
{
    if (P().preset == PRESET_NVIDIA_SAMPLE && P().nackMode == NACK_ON_HIGH_RTT)
    {
        m_nackPending = true;
        return;
    }
    if (P().nackOncePerEpisode && m_inLossEpisode && m_ackPsn < m_recoverPsn)
    {
        return; // the same loss episode as the last cut
    }
    if (m_group && Now() < m_group->lastNackCut + m_group->lastRtt)
    {
        return; // a sibling's NACK has cut the claim within the last RTT: same episode
    }
    // A new episode: it lasts until everything sent so far is acknowledged.
    m_inLossEpisode = true;
    m_recoverPsn = m_ackSndNxt;
    SetRate(m_s->rc * P().nackFactor);
    if (m_group)
    {
        m_group->lastNackCut = Now();
    }
    if (P().preset == PRESET_SCALABLE)
    {
        NewEpoch(); // the packets in flight left before the cut
    }
}

} // namespace ns3
