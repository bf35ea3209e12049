/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RttProbe's event handlers and rate rules (the TypeId, attributes and Init are in
 * rtt-probe.cc). Scalable and NvidiaSample share the handlers; each sample goes to its
 * preset's rule.
 */
#include "ns3/log.h"
#include "ns3/rtt-probe.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbeRules");

void
RttProbe::OnFirstSend()
{
    if (m_preset != PRESET_SCALABLE || m_firstRate != FIRST_PEER_SHARE || !m_ctx.peers)
    {
        return;
    }
    // What the NIC knows without the network: its own QPs to this destination. Those
    // already sending have learned what this NIC may send there; a newcomer claims the
    // same (and so takes its share of it, not a line rate of its own).
    const CcPeerGroup& peers = *m_ctx.peers;
    if (peers.ratedQps > 0)
    {
        SetRate(double(peers.rateSum) / peers.ratedQps * Sharers());
    }
    NS_LOG_LOGIC("first claim " << m_rc << " (" << peers.activeQps << " active, "
                                << peers.ratedQps << " sending)");
    NewEpoch();
}

bool
RttProbe::SharesClaim() const
{
    return m_preset == PRESET_SCALABLE && m_shareWithPeers && m_ctx.peers;
}

uint32_t
RttProbe::Sharers() const
{
    return SharesClaim() ? std::max<uint32_t>(m_ctx.peers->activeQps, 1) : 1;
}

double
RttProbe::Claim() const
{
    if (!SharesClaim())
    {
        return m_rc;
    }
    // Until its own first sample (one queueing delay after its first packet) a QP has
    // only its start-up claim; a sibling's lower verdict is fresher news.
    const CcPeerGroup& peers = *m_ctx.peers;
    if (!m_fed && peers.verdictTime >= Time(0) && peers.verdict < m_rc)
    {
        return std::max(peers.verdict, m_minRate * Sharers());
    }
    return m_rc;
}

double
RttProbe::Effective() const
{
    return std::max(Claim() / Sharers(), m_minRate);
}

void
RttProbe::Publish()
{
    if (SharesClaim())
    {
        m_ctx.peers->verdict = m_rc;
        m_ctx.peers->verdictTime = Now();
    }
}

void
RttProbe::OnSend(uint32_t payloadBytes)
{
    m_inflight += payloadBytes;
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
    if (m_preset == PRESET_SCALABLE && (m_inflight == 0 || now < m_lastSample + m_probeInterval))
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
    m_probeRate = m_rc;
    m_lateDecreases = 0;
    return true;
}

void
RttProbe::ApplyLateDecreases(Time elapsed)
{
    if (m_preset == PRESET_SCALABLE)
    {
        // The RTT is at least the time waited: the decrease such a sample calls for,
        // from the rate the probe left at, applies as soon as it is known. The bound
        // only tightens with time, so its value at any event does not depend on who
        // asked before (a sampler's GetRate() changes nothing).
        if (Bound(m_probeRate, elapsed, 0))
        {
            Publish();
        }
        return;
    }
    const int64_t t = m_targetRtt.GetTimeStep();
    if (t <= 0 || !elapsed.IsStrictlyPositive())
    {
        return;
    }
    // Decrease k is due once the probe is older than k target RTTs (strictly: an RTT
    // equal to the target is not above it), up to the first k with k x target >=
    // HighRtt, which is the reference's one high-RTT decrease: a probe stands for at
    // most that many samples, so a queue that is draining (every probe then waits
    // long) does not drive the rate to the floor, from where the NIC's pacing lets the
    // next probe out only after one packet time at the floor (1.45 ms at 100G).
    const uint64_t cap = uint64_t((m_highRtt.GetTimeStep() + t - 1) / t);
    const uint64_t due = std::min(uint64_t((elapsed.GetTimeStep() - 1) / t), cap);
    if (due <= m_lateDecreases)
    {
        return;
    }
    double rate = m_rc;
    while (m_lateDecreases < due)
    {
        ++m_lateDecreases;
        // Known when it is applied: the RTT is above k x target.
        const bool high = m_targetRtt * int64_t(m_lateDecreases) >= m_highRtt;
        if (high && m_nackPending)
        {
            rate *= m_nackFactor;
            m_nackPending = false;
        }
        else
        {
            rate *= high ? m_highRttMdFactor : m_mdFactor;
        }
    }
    m_lastUpdate = Now();
    NS_LOG_LOGIC("probe out for " << elapsed.GetNanoSeconds() << " ns: " << due
                                  << " decreases, rate " << m_rc << " -> " << rate);
    SetRate(rate);
}

void
RttProbe::OnProbeResponse(Time rtt)
{
    m_lastSample = Now();
    if (m_preset == PRESET_SCALABLE)
    {
        if (m_probeOutstanding)
        {
            ApplyLateDecreases(rtt);
        }
        m_probeOutstanding = false;
        Sample(rtt); // skipped if the late decrease already acted on it
        return;
    }
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
RttProbe::OnProbeTimeout()
{
    // No answer within the NIC's probe timeout (the NIC drops a late answer). With late
    // decreases (Scalable always, NvidiaSample with LateProbeDecrease) the decrease for
    // the time waited is due (the probe was lost or waits in a queue longer than the
    // timeout: both mean congestion); NVIDIA's sample aborts and re-asks. The next
    // WantsProbe() re-asks: the timeout is far longer than ProbeInterval.
    if ((m_preset == PRESET_SCALABLE || m_lateProbeDecrease) && m_probeOutstanding)
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
    if (m_preset == PRESET_SCALABLE && m_probeOutstanding)
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
    if (m_preset == PRESET_SCALABLE)
    {
        m_lastSample = Now();
        Sample(ack.rtt);
        return;
    }
    if (!m_useAckRtt)
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
    if (m_preset == PRESET_SCALABLE)
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
    if (!m_fed)
    {
        SetRate(Claim()); // continue from the sibling verdict it was following
        m_fed = true;
    }
    const Time sent = Now() - rtt;
    const double gradient = Gradient(sent, rtt);
    const Epoch& last = m_epochs[m_epochHead];
    if (sent < last.start)
    {
        // The packet left before the last update: it cannot show that update's effect
        // (Swift's once per RTT), but its RTT still bounds the claim it left at.
        if (Bound(RateSentAt(sent), rtt, gradient))
        {
            Publish();
        }
        return;
    }
    const double before = m_rc;
    if (rtt > TargetFor(last.rate / Sharers()))
    {
        Bound(last.rate, rtt, gradient);
    }
    else
    {
        const double cap = m_aiPackets * 8.0 * m_ctx.mtu / m_targetRtt.GetSeconds();
        SetRate(m_rc + std::min(m_miFactor * m_rc, cap));
    }
    NS_LOG_LOGIC("rtt " << rtt.GetNanoSeconds() << " ns: claim " << before << " -> " << m_rc
                        << " over " << Sharers() << " QPs");
    NewEpoch();
    Publish();
}

bool
RttProbe::Bound(double sentClaim, Time rtt, double gradient)
{
    const Time target = TargetFor(sentClaim / Sharers());
    if (rtt <= target)
    {
        return false;
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
    const double bound = sentClaim * (1 - std::min(cut, m_maxMd));
    if (bound < m_rc)
    {
        SetRate(bound);
        return true;
    }
    return false;
}

double
RttProbe::Gradient(Time sent, Time rtt)
{
    // The queueing delay's growth per unit of send time, between this sample and a
    // reference at least GradientSpan earlier (shorter spans are noise: one packet's
    // serialization is already 0.08 us at 100G).
    if (!m_gradientSpan.IsStrictlyPositive())
    {
        return 0;
    }
    if (!m_gradRefValid || sent < m_gradRefSent)
    {
        m_gradRefValid = true;
        m_gradRefSent = sent;
        m_gradRefRtt = rtt;
        return 0;
    }
    const Time span = sent - m_gradRefSent;
    if (span < m_gradientSpan)
    {
        return m_lastGradient;
    }
    m_lastGradient = (rtt - m_gradRefRtt).GetSeconds() / span.GetSeconds();
    m_gradRefSent = sent;
    m_gradRefRtt = rtt;
    return m_lastGradient;
}

double
RttProbe::RateSentAt(Time t) const
{
    // The newest epoch that had started by t; older than all kept: the oldest.
    for (std::size_t i = 0; i < m_epochs.size(); ++i)
    {
        const Epoch& e = m_epochs[(m_epochHead + m_epochs.size() - i) % m_epochs.size()];
        if (e.start <= t)
        {
            return e.rate;
        }
    }
    return m_epochs[(m_epochHead + 1) % m_epochs.size()].rate;
}

void
RttProbe::NewEpoch()
{
    m_epochHead = (m_epochHead + 1) % m_epochs.size();
    m_epochs[m_epochHead] = Epoch{Now(), m_rc};
}

void
RttProbe::ReferenceSample(Time rtt)
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
RttProbe::OnNack()
{
    if (m_preset == PRESET_NVIDIA_SAMPLE && m_nackMode == NACK_ON_HIGH_RTT)
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
    SetRate((m_preset == PRESET_SCALABLE ? Claim() : m_rc) * m_nackFactor);
    m_fed = true;
    if (m_preset == PRESET_SCALABLE)
    {
        NewEpoch(); // the packets in flight left before the cut
    }
}

uint64_t
RttProbe::GetRate()
{
    if ((m_preset == PRESET_SCALABLE || m_lateProbeDecrease) && m_probeOutstanding)
    {
        ApplyLateDecreases(Now() - m_lastProbe);
    }
    return static_cast<uint64_t>(Effective());
}

} // namespace ns3
