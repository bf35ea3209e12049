/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/selective-repeat.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SelectiveRepeat");
NS_OBJECT_ENSURE_REGISTERED(SelectiveRepeat);

TypeId
SelectiveRepeat::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SelectiveRepeat")
            .SetParent<LossRecovery>()
            .SetGroupName("Rdma")
            .AddConstructor<SelectiveRepeat>()
            .AddAttribute("RtoLow",
                          "Timeout with few packets in flight (time, default 100 us: IRN).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&SelectiveRepeat::m_rtoLow),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("RtoHigh",
                          "Timeout otherwise (time, default 320 us: IRN).",
                          TimeValue(MicroSeconds(320)),
                          MakeTimeAccessor(&SelectiveRepeat::m_rtoHigh),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("RtoLowThreshold",
                          "RtoLow applies up to this many packets in flight (packets, "
                          "default 3: IRN).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&SelectiveRepeat::m_rtoLowThreshold),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

SelectiveRepeat::SelectiveRepeat()
    : m_rtoLow(MicroSeconds(100)),
      m_rtoHigh(MicroSeconds(320)),
      m_rtoLowThreshold(3)
{
}

RecvReply
SelectiveRepeat::OnData(RecvQueuePair& rq,
                        const RdmaHeader& h,
                        uint32_t /* ackInterval */,
                        Time /* now */) const
{
    RecvReply r;
    if (h.psn == rq.expectedPsn)
    {
        const uint32_t accepted = AcceptInOrder(rq, h);
        rq.sinceAck = 0; // every in-order packet is acknowledged
        r = Reply(RdmaPacketType::ACK, rq.expectedPsn - 1);
        r.deliveredBytes = accepted;
    }
    else if (h.psn > rq.expectedPsn)
    {
        // Place it (counted once); NACK = cumulative ACK + the PSN that arrived.
        const uint32_t offset = h.psn - rq.expectedPsn;
        if (rq.placed.size() <= offset)
        {
            rq.placed.resize(offset + 1, false);
        }
        uint32_t accepted = 0;
        if (!rq.placed[offset])
        {
            rq.placed[offset] = true;
            accepted = h.payload;
        }
        r = Reply(RdmaPacketType::NACK, rq.expectedPsn);
        r.deliveredBytes = accepted;
        r.outOfOrder = true;
    }
    else
    {
        // Duplicate (our ACK was lost or late): acknowledge what we have.
        r = Reply(RdmaPacketType::ACK, rq.expectedPsn - 1);
    }
    return r;
}

void
SelectiveRepeat::OnNack(SendQueuePair& qp, const RdmaHeader& h, Time now) const
{
    const uint32_t psn = h.sackPsn;
    if (psn < qp.sndUna || psn >= qp.sndNxt)
    {
        return;
    }
    const uint32_t offset = psn - qp.sndUna;
    if (qp.sacked.size() <= offset)
    {
        qp.sacked.resize(offset + 1, SendQueuePair::UNREPORTED);
    }
    qp.sacked[offset] = SendQueuePair::SACKED;
    // Everything below the reported PSN that was not reported is a hole to resend, once
    // per recovery episode: while the cumulative ACK has not passed the episode's high
    // mark the scan goes on from where it is (a later NACK only adds the PSNs above the
    // old mark); once it has, a new episode scans from the cumulative ACK.
    if (qp.sndUna > qp.recoverHigh)
    {
        qp.retxNext = qp.sndUna;
    }
    qp.recoverHigh = std::max(qp.recoverHigh, psn);
    qp.lastProgress = now;
}

void
SelectiveRepeat::OnTimeout(SendQueuePair& qp, Time now) const
{
    // Resend every unreported PSN that was sent: trimmed ones (resent or not) too.
    for (uint32_t i = 0; i < qp.sacked.size(); ++i)
    {
        if (qp.sacked[i] != SendQueuePair::SACKED)
        {
            qp.sacked[i] = SendQueuePair::UNREPORTED;
        }
    }
    qp.resendPending = false;
    qp.retxNext = qp.sndUna;
    qp.recoverHigh = qp.sndNxt;
    qp.lastProgress = now;
}

Time
SelectiveRepeat::GetRto(const SendQueuePair& qp) const
{
    return qp.sndNxt - qp.sndUna <= m_rtoLowThreshold ? m_rtoLow : m_rtoHigh;
}

std::string
SelectiveRepeat::GetName() const
{
    return "selective_repeat";
}

} // namespace ns3
