/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * LossRecovery, packet trimming: a packet a switch cut to its header (FLAG_TRIMMED) is
 * NACKed by its responder and resent by its requester, exactly that PSN (the default of
 * selective repeat and direct placement; go-back-N has rules of its own).
 */
#include "ns3/log.h"
#include "ns3/loss-recovery.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LossRecoveryTrim");

RecvReply
LossRecovery::OnTrimmedData(RecvQueuePair& rq, const RdmaHeader& h, Time /* now */) const
{
    const uint32_t offset = h.psn - rq.expectedPsn;
    const bool have = h.psn < rq.expectedPsn || (offset < rq.placed.size() && rq.placed[offset]);
    NS_LOG_LOGIC("trimmed psn " << h.psn << " expected " << rq.expectedPsn
                                << (have ? " (had it)" : ""));
    if (have)
    {
        return RecvReply{}; // a spare copy was trimmed: nothing to resend
    }
    return Reply(RdmaPacketType::NACK, rq.expectedPsn);
}

void
LossRecovery::OnTrimNack(SendQueuePair& qp, const RdmaHeader& h, Time now) const
{
    const uint32_t psn = h.sackPsn;
    qp.lastProgress = now;
    if (psn < qp.sndUna || psn >= qp.sndNxt)
    {
        return; // acknowledged since, or not sent (a go-back has rewound past it)
    }
    // (TRIM_RESENT before: its resend was trimmed too, and goes again.)
    qp.SetReport(psn, SendQueuePair::TRIM_NACKED);
    qp.resendFrom = qp.resendPending ? std::min(qp.resendFrom, psn) : psn;
    qp.resendPending = true;
}

} // namespace ns3
