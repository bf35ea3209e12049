/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Nscc's rules, as htsim's UecSrc (ultraethernet/uet-htsim, htsim/sim/uec.cpp) applies
 * them: the base RTT and averaged delay (update_base_rtt, update_delay), QuickAdapt
 * (quick_adapt), the four quadrants of an ACK (updateCwndOnAck_NSCC: fair_increase,
 * proportional_increase, fast_increase, multiplicative_decrease), the fulfilment
 * (fulfill_adjustment), the NACK (updateCwndOnNack_NSCC) and the timeout
 * (mark_packet_for_retransmission). The attributes and Init are in nscc.cc.
 */
#include "ns3/log.h"
#include "ns3/nscc.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NsccRules");

namespace
{
/// htsim's UecSrc::update_delay weighs a sample above 5 base RTTs by this constant, not by
/// the configured weight (the two are equal at the default).
constexpr double kLargeDelayWeight = 0.0125;
} // namespace

void
Nscc::UpdateBaseRtt(Time rtt)
{
    // htsim update_base_rtt: the BDP and the largest window follow the smallest RTT.
    if (rtt < m_baseRtt)
    {
        m_baseRtt = rtt;
        m_maxWindow =
            std::max(m_maxWindowBdp * double(m_ctx.lineRate) / 8 * rtt.GetSeconds(), m_minWindow);
    }
}

void
Nscc::UpdateAvgDelay(Time delay, bool ecn)
{
    // htsim update_delay: an unmarked sample above target is a queue on another path (or
    // a reverse-path delay): it counts as a quarter of the base RTT.
    double sample = delay.GetSeconds();
    double w = m_delayWeight;
    if (!ecn && delay > m_target)
    {
        sample = m_baseRtt.GetSeconds() / 4;
    }
    else if (delay > m_baseRtt * 5)
    {
        w = kLargeDelayWeight;
    }
    m_avgDelay = w * sample + (1 - w) * m_avgDelay;
}

bool
Nscc::QuickAdapt(bool loss, bool ecn, Time delay)
{
    if (!m_quickAdapt)
    {
        return false;
    }
    const Time now = Now();
    bool consumed = false;
    if (m_bytesIgnored < m_bytesToIgnore && ecn)
    {
        // A mark on bytes sent before the last QuickAdapt: already answered.
        consumed = true;
        m_last = IGNORED;
    }
    else if (now > m_qaEnd)
    {
        const double gate = std::ldexp(m_maxWindow, -int(m_qaGate));
        if (m_qaEnd.IsStrictlyPositive() &&
            (m_qaTrigger || loss || delay > m_target * m_qaThreshold) &&
            double(m_achievedBytes) < gate)
        {
            SetWindow(double(m_achievedBytes));
            m_bytesToIgnore = m_inflight;
            m_bytesIgnored = 0;
            m_qaTrigger = false;
            consumed = true;
            m_last = QUICK_ADAPT;
            NS_LOG_LOGIC(this << " QuickAdapt to " << m_cwnd.Get());
        }
        m_achievedBytes = 0;
        m_qaEnd = now + m_baseRtt + m_target;
    }
    if (consumed)
    {
        m_pending = 0;
        m_receivedBytes = 0;
    }
    return consumed;
}

bool
Nscc::FastIncrease(uint64_t acked, Time delay)
{
    if (delay < m_fastDelay)
    {
        m_fastCount += acked;
        if (double(m_fastCount) > m_cwnd.Get() || m_fastIncreasing)
        {
            SetWindow(m_cwnd.Get() + double(acked) * m_fiScale);
            m_fastIncreasing = true;
            return true;
        }
    }
    else
    {
        m_fastCount = 0;
    }
    m_fastIncreasing = false;
    return false;
}

void
Nscc::ProportionalIncrease(uint64_t acked, Time delay)
{
    if (FastIncrease(acked, delay))
    {
        m_last = FAST_INCREASE;
        return;
    }
    m_last = PROPORTIONAL_INCREASE;
    m_pending += m_alpha * double(acked) * (m_target - delay).GetSeconds();
}

void
Nscc::MultiplicativeDecrease()
{
    m_last = MULTIPLICATIVE_DECREASE;
    m_fastIncreasing = false;
    m_fastCount = 0;
    const Time now = Now();
    const double d = m_avgDelay;
    if (d > m_target.GetSeconds() && now - m_lastDecrease > m_baseRtt)
    {
        const double factor =
            std::max(1 - m_gamma * (d - m_target.GetSeconds()) / d, 1 - m_maxDecrease);
        SetWindow(m_cwnd.Get() * factor);
        m_lastDecrease = now;
    }
}

void
Nscc::Fulfill()
{
    // htsim fulfill_adjustment: the pending increase is bytes^2 (per-ACK increases times
    // the bytes acknowledged), so adding pending / W adds about fi (or alpha x (target -
    // delay)) per window of ACKs.
    const Time now = Now();
    double w = m_cwnd.Get() + m_pending / m_cwnd.Get();
    if (now - m_lastAdjust >= m_adjustPeriod)
    {
        w += m_eta;
        m_lastAdjust = now;
    }
    SetWindow(w);
    m_pending = 0;
    m_receivedBytes = 0;
}

void
Nscc::DoOnAck(const CcAck& ack)
{
    const Time now = Now();
    m_achievedBytes += ack.ackedBytes;
    m_receivedBytes += ack.ackedBytes;
    m_bytesIgnored += ack.ackedBytes;
    m_inflight = ack.inflightBytes;
    // htsim processAck: the sample's delay above the base RTT; without a sample (or one
    // below the base RTT), the averaged delay.
    Time delay = Seconds(m_avgDelay);
    if (ack.rtt.IsStrictlyPositive())
    {
        UpdateBaseRtt(ack.rtt);
        if (ack.rtt >= m_baseRtt)
        {
            delay = ack.rtt - m_baseRtt;
            UpdateAvgDelay(delay, ack.ecnEcho);
        }
    }
    if (QuickAdapt(false, ack.ecnEcho, delay))
    {
        return;
    }
    // htsim updateCwndOnAck_NSCC's four quadrants.
    const bool high = delay >= m_target;
    if (!ack.ecnEcho && high)
    {
        m_last = FAIR_INCREASE;
        m_pending += m_fi * double(ack.ackedBytes);
    }
    else if (!ack.ecnEcho)
    {
        ProportionalIncrease(ack.ackedBytes, delay);
    }
    else if (high)
    {
        MultiplicativeDecrease();
    }
    else
    {
        m_last = NO_CHANGE;
    }
    SetWindow(m_cwnd.Get()); // the largest window may have shrunk with the base RTT
    if (double(m_receivedBytes) > m_adjustMtus * m_ctx.mtu || now - m_lastAdjust > m_adjustPeriod)
    {
        Fulfill();
    }
}

void
Nscc::DoOnNack()
{
    // htsim updateCwndOnNack_NSCC: the NACKed packet (one MTU here) counts toward the
    // ignored bytes, the averaged delay takes a sample of the network RTT as if marked,
    // and QuickAdapt is due; if it does not run now, W loses the NACKed bytes.
    m_bytesIgnored += m_ctx.mtu;
    UpdateAvgDelay(m_networkRtt, true);
    m_qaTrigger = true;
    if (!QuickAdapt(true, true, Time(0)))
    {
        SetWindow(m_cwnd.Get() - m_ctx.mtu);
    }
}

void
Nscc::DoOnTimeout()
{
    // htsim mark_packet_for_retransmission: W loses the timed-out packet.
    SetWindow(m_cwnd.Get() - m_ctx.mtu);
}

} // namespace ns3
