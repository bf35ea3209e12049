/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RttProbe's rate as the NIC and observers read it: the decreases an unanswered probe
 * implies (its wait is a lower bound of the RTT), applied when the NIC asks (GetRate) or
 * only computed (PeekRate, for cc.csv). The other rules are in rtt-probe-rules.cc.
 */
#include "ns3/log.h"
#include "ns3/rtt-probe.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbeRate");

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
