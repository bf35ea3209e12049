/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/loss-recovery.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LossRecovery");
NS_OBJECT_ENSURE_REGISTERED(LossRecovery);

TypeId
LossRecovery::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LossRecovery")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddAttribute("RetransmissionTimeout",
                          "Go back to the oldest unacknowledged PSN after this time without "
                          "progress (time, default 1 ms).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&LossRecovery::m_rto),
                          MakeTimeChecker(MicroSeconds(1)));
    return tid;
}

LossRecovery::LossRecovery()
    : m_rto(MilliSeconds(1))
{
}

void
LossRecovery::OnNack(SendQueuePair& qp, const RdmaHeader& h, Time now) const
{
    GoBack(qp, h.psn, now);
}

void
LossRecovery::OnTimeout(SendQueuePair& qp, Time now) const
{
    GoBack(qp, qp.sndUna, now);
}

Time
LossRecovery::GetRto(const SendQueuePair& /* qp */) const
{
    return m_rto;
}

void
LossRecovery::GoBack(SendQueuePair& qp, uint32_t psn, Time now)
{
    qp.lastProgress = now;
    if (psn < qp.sndNxt)
    {
        qp.sndNxt = std::max(psn, qp.sndUna);
    }
}

uint32_t
LossRecovery::AcceptInOrder(RecvQueuePair& rq, const RdmaHeader& h)
{
    if (rq.placed.empty())
    {
        ++rq.expectedPsn;
    }
    else
    {
        rq.placed.front() = true;
        while (!rq.placed.empty() && rq.placed.front())
        {
            rq.placed.pop_front();
            ++rq.expectedPsn;
        }
    }
    return h.payload;
}

RecvReply
LossRecovery::Reply(RdmaPacketType type, uint32_t psn)
{
    RecvReply r;
    r.send = true;
    r.type = type;
    r.psn = psn;
    return r;
}

} // namespace ns3
