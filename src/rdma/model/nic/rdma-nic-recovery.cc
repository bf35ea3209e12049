/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaNic, requester side: acknowledgements, NACKs, probe answers and timeouts, handed
 * to the congestion controller and to the loss-recovery policy; message completions.
 */
#include "ns3/pint-code.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-sim.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

void
RdmaNic::ReceiveAck(const RdmaHeader& h)
{
    SendQueuePair& qp = m_sendQps[h.dstQpn];
    Acknowledge(qp, h.psn + 1, h);
    if (m_pathFeedback)
    {
        NotePathFeedback(qp, h);
    }
    Repace(qp);
    Reschedule(qp);
}

void
RdmaNic::ReceiveNack(const RdmaHeader& h)
{
    SendQueuePair& qp = m_sendQps[h.dstQpn];
    Acknowledge(qp, h.psn, h);
    if (m_pathFeedback)
    {
        NotePathFeedback(qp, h);
    }
    if (h.flags & RdmaHeader::FLAG_CNP)
    {
        ++m_stats.cnpsReceived;
        qp.cc->OnCnp();
    }
    qp.cc->OnNack();
    if (h.flags & RdmaHeader::FLAG_TRIMMED)
    {
        m_recovery->OnTrimNack(qp, h, RdmaSim::Now());
    }
    else
    {
        m_recovery->OnNack(qp, h, RdmaSim::Now());
    }
    Reschedule(qp);
}

void
RdmaNic::ReceiveProbeResponse(const RdmaHeader& h)
{
    SendQueuePair& qp = m_sendQps[h.dstQpn];
    RateLimiter& limiter = m_limiters[qp.limiter];
    if (!limiter.probeOutstanding)
    {
        return; // answer to a probe already given up
    }
    limiter.probeTimer.Cancel();
    limiter.probeOutstanding = false;
    limiter.probeTimeout = m_probeTimeout;
    limiter.cc->GetExtension()->OnProbeResponse(RdmaSim::Now() - NanoSeconds(h.timestamp));
    Repace(qp);
    Reschedule(qp);
}

void
RdmaNic::Acknowledge(SendQueuePair& qp, uint32_t newUna, const RdmaHeader& h)
{
    uint64_t acked = 0;
    if (newUna > qp.sndUna)
    {
        acked = uint64_t(newUna - qp.sndUna) * m_mtu;
        // Keep the SACK bitmap aligned with sndUna.
        for (uint32_t i = qp.sndUna; i < newUna && !qp.sacked.empty(); ++i)
        {
            qp.sacked.pop_front();
        }
        qp.sndUna = newUna;
        qp.sndNxt = std::max(qp.sndNxt, qp.sndUna);
        qp.retxNext = std::max(qp.retxNext, qp.sndUna);
        qp.lastProgress = RdmaSim::Now();
    }
    // A controller without OnAck (DCQCN) is not loaded at all.
    if (qp.ccHooks & CongestionControl::HOOK_ACK)
    {
        CcAck ack;
        ack.ackedBytes = acked;
        ack.rtt = h.timestamp > 0 ? RdmaSim::Now() - NanoSeconds(h.timestamp) : Time(0);
        ack.ecnEcho = h.flags & RdmaHeader::FLAG_ECN_ECHO;
        ack.remoteDelay = NanoSeconds(h.remoteDelayNs);
        ack.ackPsn = qp.sndUna;
        ack.sndNxt = qp.sndNxt;
        ack.inflightBytes = uint64_t(qp.sndNxt - qp.sndUna) * m_mtu;
        if (h.flags & RdmaHeader::FLAG_INT)
        {
            ack.intHops = h.intHops;
            ack.intStack = h.intStack;
        }
        if (h.pintBytes != 0)
        {
            ack.hasPint = true;
            ack.pintU = PintCode::Decode(h.pintCode, m_pintBits);
        }
        qp.cc->OnAck(ack);
    }
    CompleteAcknowledged(qp);
}

void
RdmaNic::CompleteAcknowledged(SendQueuePair& qp)
{
    while (qp.frontLastPsn < qp.sndUna)
    {
        const RdmaMessage& m = qp.messages.front();
        Completion c{m_nodeId, qp.qpn, m.flowId, m.bytes, m.posted, RdmaSim::Now()};
        qp.completedBytes += m.bytes;
        qp.messages.pop_front();
        qp.NoteFront();
        m_completionTrace(c);
        if (!m_completionCallback.IsNull())
        {
            m_completionCallback(c);
        }
    }
    LeavePeerGroupIfDone(qp);
}

void
RdmaNic::LeavePeerGroupIfDone(SendQueuePair& qp)
{
    if (!qp.active || !qp.messages.empty())
    {
        return;
    }
    CcPeerGroup& group = *qp.peers;
    qp.active = false;
    --group.activeQps;
    --m_nicGroup.activeQps;
    qp.cc->OnSendEvent(CcSendEvent::PEERS_CHANGED);
    if (qp.rated)
    {
        qp.rated = false;
        --group.ratedQps;
        group.rateSum -= qp.pacedRate;
        qp.pacedRate = 0;
    }
}

Time
RdmaNic::CurrentRto(const SendQueuePair& qp) const
{
    const Time wanted = (qp.ccHooks & CongestionControl::HOOK_RTO)
                            ? qp.cc->GetExtension()->RetransmissionTimeout()
                            : Time(0);
    if (wanted.IsStrictlyPositive())
    {
        return wanted;
    }
    return m_recovery->GetRto(qp);
}

void
RdmaNic::ArmRto(SendQueuePair& qp, Time at)
{
    qp.rtoArmed = true;
    qp.rto = Simulator::Schedule(at - RdmaSim::Now(), &RdmaNic::RtoExpired, this, qp.qpn);
}

void
RdmaNic::RtoExpired(uint32_t qpn)
{
    SendQueuePair& qp = m_sendQps[qpn];
    qp.rtoArmed = false;
    if (!qp.HasOutstanding())
    {
        return; // everything sent is acknowledged: the timer stops until the next send
    }
    const Time now = RdmaSim::Now();
    const Time rto = CurrentRto(qp);
    if (now - qp.lastProgress < rto)
    {
        ArmRto(qp, qp.lastProgress + rto); // progress since arming: not expired yet
        return;
    }
    ++m_stats.timeouts;
    if (m_pathFeedback)
    {
        NotePathTimeout(qp, now);
    }
    qp.cc->OnTimeout();
    m_recovery->OnTimeout(qp, now);
    Reschedule(qp);
    ArmRto(qp, now + CurrentRto(qp));
}

} // namespace ns3
