/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RttProbe's rate as the NIC and observers read it: the decreases an unanswered probe
 * implies (its wait is a lower bound of the RTT), applied when the NIC asks (GetRate) or
 * only computed (PeekRate, for cc.csv); and Scalable's decrease for an RTT sample
 * (BoundFor, Bound), which the probe's wait applies as one. The other rules are in
 * rtt-probe-rules.cc.
 */
#include "ns3/log.h"
#include "ns3/rtt-probe.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbeRate");

double
RttProbe::BoundFor(double sentClaim, Time rtt, double gradient) const
{
    const Time target = TargetFor(sentClaim / Sharers());
    if (rtt <= target)
    {
        // Below the target only a surge cuts: the queue growing at least SurgeGradient
        // seconds per second means the senders offer (1 + g) x the drain rate, and
        // waiting for the queue to reach the target would let it grow that much longer.
        if (SharesNic() && P().surgeGradient > 0 && gradient >= P().surgeGradient)
        {
            return sentClaim / (1 + gradient);
        }
        return std::numeric_limits<double>::infinity();
    }
    // Level: the queue is (rtt - target) too long. Gradient: the queue grew by
    // `gradient` seconds per second of sending, i.e. the senders together offered
    // (1 + gradient) x what it drains: each should scale what it sent at by
    // 1 / (1 + gradient). The level reacts to a standing queue, the gradient to an
    // overload at once, however long the queue already is.
    const double excess = (rtt - target).GetSeconds() / rtt.GetSeconds();
    if (SharesNic())
    {
        // Per QP, a proportional-derivative cut: the level term alone, sampled by each QP
        // once per packet (hundreds of microseconds at a fair share of a few Mb/s), makes
        // the aggregate an oscillator (docs/design-notes.md, "Per-QP rates"). The signed
        // gradient damps it: a queue already draining (g < 0) calls for a smaller cut, or
        // none, since the QPs sampled before have cut enough.
        const double pd = P().qpLevelGain * excess + P().qpGradientGain * gradient;
        if (pd <= 0)
        {
            return std::numeric_limits<double>::infinity();
        }
        return sentClaim * (1 - std::min(pd, P().maxMd));
    }
    double cut = P().beta * excess;
    if (gradient > 0)
    {
        cut = std::max(cut, 1 - 1 / (1 + gradient));
    }
    return sentClaim * (1 - std::min(cut, P().maxMd));
}

bool
RttProbe::Bound(double sentClaim, Time rtt, double gradient)
{
    const double bound = BoundFor(sentClaim, rtt, gradient);
    if (bound < m_s->rc)
    {
        SetRate(bound);
        return true;
    }
    return false;
}

RttProbe::LateDecrease
RttProbe::PendingLateDecreases(Time elapsed) const
{
    LateDecrease d{m_s->rc, m_lateDecreases, m_nackPending};
    if (P().preset == PRESET_SCALABLE)
    {
        // The RTT is at least the time waited: the decrease such a sample calls for,
        // from the rate the probe left at, applies as soon as it is known.
        d.rate = std::min(d.rate, BoundFor(m_probeRate, elapsed, 0));
        return d;
    }
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
    const uint64_t cap = uint64_t((P().highRtt.GetTimeStep() + t - 1) / t);
    const uint64_t due = std::min(uint64_t((elapsed.GetTimeStep() - 1) / t), cap);
    while (d.count < due)
    {
        ++d.count;
        // Known when it is applied: the RTT is above k x target.
        const bool high = m_targetRtt * int64_t(d.count) >= P().highRtt;
        if (high && d.nackPending)
        {
            d.rate *= P().nackFactor;
            d.nackPending = false;
        }
        else
        {
            d.rate *= high ? P().highRttMdFactor : P().mdFactor;
        }
    }
    return d;
}

void
RttProbe::ApplyLateDecreases(Time elapsed)
{
    const LateDecrease d = PendingLateDecreases(elapsed);
    if (P().preset == PRESET_SCALABLE)
    {
        if (d.rate < m_s->rc)
        {
            SetRate(d.rate);
        }
        return;
    }
    if (d.count == m_lateDecreases)
    {
        return;
    }
    NS_LOG_LOGIC("probe out for " << elapsed.GetNanoSeconds() << " ns: " << d.count
                                  << " decreases, rate " << m_s->rc << " -> " << d.rate);
    m_lateDecreases = d.count;
    m_nackPending = d.nackPending;
    m_lastUpdate = Now();
    SetRate(d.rate);
}

uint64_t
RttProbe::GetRate()
{
    if ((P().preset == PRESET_SCALABLE || P().lateProbeDecrease) && m_probeOutstanding)
    {
        ApplyLateDecreases(Now() - m_lastProbe);
    }
    return static_cast<uint64_t>(Effective());
}

uint64_t
RttProbe::PeekRate() const
{
    double rc = m_s->rc;
    if ((P().preset == PRESET_SCALABLE || P().lateProbeDecrease) && m_probeOutstanding)
    {
        // What GetRate() would apply now, computed without applying it: the late
        // decreases change the claim's pacing credit and update times, so a sampler
        // that applied them would change the run it observes.
        const double floor = std::min(m_minRate * Sharers(), double(m_ctx.lineRate));
        const double pending = PendingLateDecreases(Now() - m_lastProbe).rate;
        rc = std::min(rc, std::clamp(pending, floor, double(m_ctx.lineRate)));
    }
    return static_cast<uint64_t>(std::max(rc / Sharers(), m_minRate));
}

} // namespace ns3
