/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/go-back-n.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GoBackN");
NS_OBJECT_ENSURE_REGISTERED(GoBackN);

TypeId
GoBackN::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GoBackN")
            .SetParent<LossRecovery>()
            .SetGroupName("Rdma")
            .AddConstructor<GoBackN>()
            .AddAttribute("NackInterval",
                          "A NACK for the same missing PSN is repeated after this time (time, "
                          "default 100 us).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&GoBackN::m_nackInterval),
                          MakeTimeChecker(Time(0)));
    return tid;
}

GoBackN::GoBackN()
    : m_nackInterval(MicroSeconds(100))
{
}

RecvReply
GoBackN::OnData(RecvQueuePair& rq, const RdmaHeader& h, uint32_t ackInterval, Time now) const
{
    RecvReply r;
    if (h.psn == rq.expectedPsn)
    {
        const uint32_t accepted = AcceptInOrder(rq, h);
        if (rq.expectedPsn == rq.trimmedAhead)
        {
            // The packets before one trimmed ahead are in: ask for it now.
            rq.trimmedAhead = std::numeric_limits<uint32_t>::max();
            rq.nackedPsn = rq.expectedPsn;
            rq.lastNack = now;
            r = Reply(RdmaPacketType::NACK, rq.expectedPsn);
        }
        else if (++rq.sinceAck >= ackInterval || (h.flags & RdmaHeader::FLAG_ACK_REQUEST))
        {
            rq.sinceAck = 0;
            r = Reply(RdmaPacketType::ACK, rq.expectedPsn - 1);
        }
        r.deliveredBytes = accepted;
    }
    else if (h.psn > rq.expectedPsn)
    {
        // Drop it, and ask once per hole (again after NackInterval).
        if (rq.nackedPsn != rq.expectedPsn || now - rq.lastNack >= m_nackInterval)
        {
            rq.nackedPsn = rq.expectedPsn;
            rq.lastNack = now;
            r = Reply(RdmaPacketType::NACK, rq.expectedPsn);
        }
        r.outOfOrder = true;
    }
    else if (h.flags & RdmaHeader::FLAG_ACK_REQUEST)
    {
        // Duplicate (our ACK was lost or late): acknowledge what we have.
        r = Reply(RdmaPacketType::ACK, rq.expectedPsn - 1);
    }
    NS_LOG_LOGIC("psn " << h.psn << " expected " << rq.expectedPsn);
    return r;
}

RecvReply
GoBackN::OnTrimmedData(RecvQueuePair& rq, const RdmaHeader& h, Time now) const
{
    RecvReply r;
    if (h.psn == rq.expectedPsn)
    {
        rq.nackedPsn = rq.expectedPsn;
        rq.lastNack = now;
        if (rq.trimmedAhead <= rq.expectedPsn)
        {
            rq.trimmedAhead = std::numeric_limits<uint32_t>::max();
        }
        r = Reply(RdmaPacketType::NACK, rq.expectedPsn);
    }
    else if (h.psn > rq.expectedPsn)
    {
        // Noted even while a go-back is under way: the trimmed copy may be the go-back's
        // own resend (a NACK too many then costs a second go-back, not a timeout).
        rq.trimmedAhead = std::min(rq.trimmedAhead, h.psn);
    }
    NS_LOG_LOGIC("trimmed psn " << h.psn << " expected " << rq.expectedPsn);
    return r;
}

void
GoBackN::OnTrimNack(SendQueuePair& qp, const RdmaHeader& h, Time now) const
{
    LossRecovery::OnNack(qp, h, now);
}

std::string
GoBackN::GetName() const
{
    return "go_back_n";
}

} // namespace ns3
