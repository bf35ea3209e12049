/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RttProbeShared's event handlers and rate rules: probes, samples (one regular update per
 * RTT, the older-sample bound, the decrease, the validated increase), the late decrease
 * of an overdue probe and the NACK. The attributes, Init and the pacing are in
 * rtt-probe-shared.cc.
 */
#include "ns3/log.h"
#include "ns3/rtt-probe-shared.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbeSharedRules");

bool
RttProbeShared::WantsProbe()
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
    if (m_inflight == 0 || now < m_lastSample + m_probeInterval)
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
    return true;
}

void
RttProbeShared::OnProbeResponse(Time rtt)
{
    m_lastSample = Now();
    if (m_probeOutstanding)
    {
        ApplyLateDecrease(rtt);
    }
    m_probeOutstanding = false;
    Sample(rtt);
}

void
RttProbeShared::OnProbeTimeout()
{
    // No answer within the NIC's probe timeout (the NIC drops a late answer): the
    // decrease for the time waited is due (the probe was lost or waits in a queue longer
    // than the timeout: both mean congestion). The next WantsProbe() re-asks.
    if (m_probeOutstanding)
    {
        ApplyLateDecrease(Now() - m_lastProbe);
    }
    m_probeOutstanding = false;
}

void
RttProbeShared::DoOnAck(const CcAck& ack)
{
    if (m_probeOutstanding)
    {
        ApplyLateDecrease(Now() - m_lastProbe); // catch up before reading the claim
    }
    // Kept for the NACK that may follow (the NIC reports it through OnAck first).
    m_ackPsn = ack.ackPsn;
    m_ackSndNxt = ack.sndNxt;
    m_inflight = ack.inflightBytes;
    if (!ack.rtt.IsStrictlyPositive())
    {
        return;
    }
    m_lastSample = Now();
    Sample(ack.rtt);
}

void
RttProbeShared::ApplyLateDecrease(Time elapsed)
{
    // The RTT is at least the time waited: the decrease such a sample calls for, from
    // the claim the probe left at, applies as soon as it is known.
    const double bound = BoundFor(m_probeRate, elapsed, 0);
    if (bound < m_s->rc)
    {
        SetRate(bound);
    }
}

void
RttProbeShared::Sample(Time rtt)
{
    const bool first = !m_sampled;
    m_sampled = true;
    if (first && !m_group)
    {
        FirstOwnSample(rtt);
        return;
    }
    ClaimState& c = *m_s;
    c.lastRtt = rtt;
    const Time sent = Now() - rtt;
    const double gradient = Gradient(sent, rtt);
    const Epoch& last = c.epochs[c.epochHead];
    if (sent < last.start)
    {
        // The packet left before the last update: it cannot show that update's effect
        // (Swift's once per RTT), but its RTT still bounds the claim it left at. That
        // claim, not the one now: the last update has already cut it, and a bound taken
        // from it would cut it again at every older ACK.
        Bound(RateSentAt(sent), rtt, gradient);
        return;
    }
    const double before = c.rc;
    const double bound = BoundFor(last.rate, rtt, gradient);
    if (bound < std::numeric_limits<double>::infinity())
    {
        if (bound < c.rc)
        {
            SetRate(bound); // what Bound() does, without deriving the bound again
        }
    }
    else
    {
        Increase(last);
    }
    NS_LOG_LOGIC("rtt " << rtt.GetNanoSeconds() << " ns: claim " << before << " -> " << c.rc
                        << " over " << Sharers() << " QPs");
    NewEpoch();
}

void
RttProbeShared::FirstOwnSample(Time rtt)
{
    // Flow scaling makes the RTT that QPs settle at tell their rate (the rate whose
    // target it is): the controller starts at the lower of its first rate (the line) and
    // that rate.
    Gradient(Now() - rtt, rtt); // the gradient's first reference
    SetRate(std::min(m_s->rc, RateForTarget(rtt)));
    if (m_lastSendAt.IsPositive())
    {
        // The credit it earned while it waited was at its first rate: its next packet is
        // due one packet after its last at the rate it has now learned, the wait so far
        // counted at that rate.
        const double since = (Now() - m_lastSendAt).GetSeconds();
        m_earnedMark = m_s->earned - std::min(m_lastPrice, Effective() / 8 * since);
    }
    NewEpoch();
}

void
RttProbeShared::Increase(const Epoch& last)
{
    const ClaimState& c = *m_s;
    const double cap = m_aiPackets * 8.0 * m_ctx.mtu / m_targetRtt.GetSeconds();
    double rate = c.rc + std::min(m_miFactor * c.rc, cap);
    if (!m_group)
    {
        // Own claim: additive in time, AiPackets per TargetRtt per TargetRtt, whatever
        // its rate (a step per update would favour the faster controller, which updates
        // more often).
        const double dt = std::min(Now() - last.start, m_aiSpan).GetSeconds();
        rate = c.rc + cap * dt / m_targetRtt.GetSeconds();
    }
    SetRate(UsableIncrease(rate, last.rate));
}

double
RttProbeShared::UsableIncrease(double rate, double lastRate)
{
    const ClaimState& c = *m_s;
    if (m_group)
    {
        // Grow only while the group sends what it claims (its QPs take up a rise
        // within PacingRecheck): a claim that ran ahead would land all at once.
        Advance();
        return std::min(rate, std::max(c.rc, m_group->sendRate * (1 + m_miFactor)));
    }
    if (m_usedRate > 0 && m_usedRate < (1 - m_miFactor) * lastRate)
    {
        // Own claim: only if it sent clearly below its rate (capped at (1 + MiFactor) x
        // what it sent, its additive step would otherwise be a multiplicative one).
        return std::min(rate, std::max(c.rc, m_usedRate * (1 + m_miFactor)));
    }
    return rate;
}

double
RttProbeShared::BoundFor(double sentClaim, Time rtt, double gradient) const
{
    const Time target = TargetFor(sentClaim / Sharers());
    if (rtt <= target)
    {
        return std::numeric_limits<double>::infinity();
    }
    // Level: the queue is (rtt - target) too long. Gradient: the queue grew by
    // `gradient` seconds per second of sending, i.e. the senders together offered
    // (1 + gradient) x what it drains: each should scale what it sent at by
    // 1 / (1 + gradient). The level reacts to a standing queue, the gradient to an
    // overload at once, however long the queue already is.
    const double excess = (rtt - target).GetSeconds() / rtt.GetSeconds();
    double cut = m_beta * excess;
    if (gradient > 0)
    {
        cut = std::max(cut, 1 - 1 / (1 + gradient));
    }
    return sentClaim * (1 - std::min(cut, m_maxMd));
}

bool
RttProbeShared::Bound(double sentClaim, Time rtt, double gradient)
{
    const double bound = BoundFor(sentClaim, rtt, gradient);
    if (bound < m_s->rc)
    {
        SetRate(bound);
        return true;
    }
    return false;
}

Time
RttProbeShared::TargetFor(double rate) const
{
    if (!m_flowScaleStep.IsStrictlyPositive() || rate <= 0)
    {
        return m_targetRtt;
    }
    // Packets per target RTT at this rate; flow scaling below one.
    const double window = rate * m_targetRtt.GetSeconds() / (8.0 * m_ctx.mtu);
    if (window >= 1)
    {
        return m_targetRtt;
    }
    const double halvings = -std::log2(window);
    const double extra =
        std::min(halvings * m_flowScaleStep.GetSeconds(), m_flowScaleMax.GetSeconds());
    return m_targetRtt + Seconds(extra);
}

double
RttProbeShared::RateForTarget(Time rtt) const
{
    if (rtt <= m_targetRtt || !m_flowScaleStep.IsStrictlyPositive())
    {
        return std::numeric_limits<double>::infinity();
    }
    // TargetFor inverted: the halvings below one MTU per target RTT that add rtt's
    // excess over TargetRtt (at most FlowScaleMax's worth).
    const double extra = std::min(rtt - m_targetRtt, m_flowScaleMax).GetSeconds();
    const double halvings = extra / m_flowScaleStep.GetSeconds();
    return 8.0 * m_ctx.mtu / m_targetRtt.GetSeconds() * std::exp2(-halvings);
}

double
RttProbeShared::Gradient(Time sent, Time rtt)
{
    // The queueing delay's growth per unit of send time, between this sample and a
    // reference at least GradientSpan earlier (shorter spans are noise: one packet's
    // serialization is already 0.08 us at 100G).
    if (!m_gradientSpan.IsStrictlyPositive())
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
    if (span < m_gradientSpan)
    {
        return c.lastGradient;
    }
    c.lastGradient = (rtt - c.gradRefRtt).GetSeconds() / span.GetSeconds();
    c.gradRefSent = sent;
    c.gradRefRtt = rtt;
    return c.lastGradient;
}

double
RttProbeShared::RateSentAt(Time t) const
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
RttProbeShared::NewEpoch()
{
    m_s->epochHead = (m_s->epochHead + 1) % m_s->epochs.size();
    m_s->epochs[m_s->epochHead] = Epoch{Now(), m_s->rc};
}

void
RttProbeShared::DoOnNack()
{
    if (m_nackOncePerEpisode && m_inLossEpisode && m_ackPsn < m_recoverPsn)
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
    SetRate(m_s->rc * m_nackFactor);
    if (m_group)
    {
        m_group->lastNackCut = Now();
    }
    NewEpoch(); // the packets in flight left before the cut
}

} // namespace ns3
