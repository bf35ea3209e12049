/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RttProbe's pacing (Scalable): a QP sends once it has earned its last packet's wire
 * bytes at the rates in force since that packet left (its own rate, or its share of the
 * group's claim), so that a cut acts on the QP's next packet, not the one after. A
 * packet that leaves without such credit (a QP's first, or its first after an idle
 * restart) draws on the NIC's start budget instead (RttProbeStartBudget).
 */
#include "ns3/log.h"
#include "ns3/rtt-probe-start-budget.h"
#include "ns3/rtt-probe.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbePacing");

void
RttProbe::Advance()
{
    ClaimState& c = *m_s;
    const Time now = Now();
    if (now > c.advancedAt)
    {
        const double dt = (now - c.advancedAt).GetSeconds();
        c.earned += c.qpRate / 8 * dt;
        c.sendRate *= std::exp(-dt / P().pacingRecheck.GetSeconds());
        c.advancedAt = now;
    }
    c.qpRate = Effective();
}

void
RttProbe::OnPeersChanged()
{
    Advance(); // the credit so far at the old share, the new share from now
}

UniformRandomVariable*
RttProbe::Rng()
{
    if (!m_s->jitter)
    {
        // The QP's own claim draws from the NIC's stream, or its own outside a NIC.
        m_s->jitter = m_ctx.rng ? Ptr<UniformRandomVariable>(m_ctx.rng)
                                : CreateObject<UniformRandomVariable>();
    }
    return PeekPointer(m_s->jitter);
}

void
RttProbe::OnSend(uint32_t payloadBytes)
{
    m_inflight += payloadBytes;
    const double wire = rdmawire::WireBytes(RdmaPacketType::DATA, payloadBytes);
    const Time now = Now();
    if (!m_drained && m_lastSendAt.IsPositive() && now > m_lastSendAt)
    {
        // Backlogged since its last packet: what it sent over that gap, its last
        // packet's price (wire size with the pacing jitter) at the rate then in force;
        // its wire size alone would read the jitter as a rate change, and a cut taken
        // from it would be up to a third too deep.
        m_usedRate =
            std::min(m_lastPrice * 8 / (now - m_lastSendAt).GetSeconds(), double(m_ctx.lineRate));
    }
    m_lastSendAt = now;
    m_drained = false;
    m_startSlot = Time(-1);
    if (P().preset != PRESET_SCALABLE)
    {
        return;
    }
    Advance();
    m_s->sendRate += wire * 8 / P().pacingRecheck.GetSeconds();
    // A bucket one packet deep (no credit kept), and the next packet's price drawn
    // around its wire size: QPs that once sent together (a start-up, a cut) would
    // otherwise stay in step and come due together for good.
    m_earnedMark = m_s->earned;
    m_lastPrice = wire;
    if (P().pacingJitter > 0)
    {
        const double d = wire * P().pacingJitter * (2 * Rng()->GetValue() - 1);
        m_earnedMark += d;
        m_lastPrice += d;
    }
}

void
RttProbe::OnDrained()
{
    m_drained = true;
    m_drainedAt = Now();
}

bool
RttProbe::PacesByCredit() const
{
    return P().preset == PRESET_SCALABLE && !m_group;
}

double
RttProbe::Used(double rate) const
{
    return SharesNic() && m_usedRate > 0 ? std::min(rate, m_usedRate) : rate;
}

bool
RttProbe::SharesNic() const
{
    return !m_group && m_ctx.peers && m_ctx.peers->nic && m_ctx.peers->nic->activeQps > 1;
}

bool
RttProbe::IdleLongEnough() const
{
    return m_drained && Now() - m_drainedAt >= P().idleRestart;
}

Time
RttProbe::StartDelay(uint32_t wireBytes)
{
    if (!m_startSlot.IsNegative())
    {
        return Max(m_startSlot - Now(), Time(0)); // reserved at an earlier ask
    }
    if (!m_ctx.peers || !m_ctx.peers->nic)
    {
        return Time(0); // outside a NIC: no budget to share
    }
    CcNicGroup& nic = *m_ctx.peers->nic;
    auto* budget = dynamic_cast<RttProbeStartBudget*>(PeekPointer(nic.shared));
    if (!budget)
    {
        // The NIC's first controller to need it creates it.
        nic.shared = Create<RttProbeStartBudget>(P().startShare * m_ctx.lineRate, P().startBurst);
        budget = static_cast<RttProbeStartBudget*>(PeekPointer(nic.shared));
    }
    m_startSlot = budget->Reserve(Now(), wireBytes);
    return m_startSlot - Now();
}

Time
RttProbe::PacingDelay(uint32_t lastWireBytes)
{
    if (P().preset != PRESET_SCALABLE)
    {
        return Time(0);
    }
    Advance();
    if (!m_group && (lastWireBytes == 0 || IdleLongEnough()))
    {
        // A new QP, or one restarting after idle: its first packet needs no credit of
        // its own (a small message leaves at once), only the NIC's start budget.
        return StartDelay(rdmawire::WireBytes(RdmaPacketType::DATA, m_ctx.mtu));
    }
    if (lastWireBytes == 0)
    {
        // Shared claim: a newcomer's first packet goes at a random point of its first
        // gap at its share: 7,000 QPs starting within a millisecond would otherwise put
        // 7,000 packets on the wire at once, whatever the claim.
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
RttProbe::GetWindow() const
{
    // Per QP, until its first sample a QP knows nothing of its path: one of several QPs
    // of its NIC to its destination sends one packet and waits for the answer (an
    // initial window of one packet), so that a thousand QPs starting at once put a
    // thousand packets in flight, not a thousand rates; a QP alone to its destination
    // sends up to InitialWindow, so a short message does not wait a round trip after
    // its first packet (TCP's initial window).
    if (P().preset != PRESET_SCALABLE || m_group || m_sampled)
    {
        return 0;
    }
    const bool alone = m_ctx.peers && m_ctx.peers->activeQps <= 1;
    return alone ? std::max<uint64_t>(P().initialWindow, m_ctx.mtu) : m_ctx.mtu;
}

Time
RttProbe::PacingRecheck() const
{
    // Per QP, a rise reaches the NIC with the ACK that caused it (RdmaNic::Repace).
    return m_group ? P().pacingRecheck : Time::Max();
}

} // namespace ns3
