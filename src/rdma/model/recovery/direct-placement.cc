/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/direct-placement.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectPlacement");
NS_OBJECT_ENSURE_REGISTERED(DirectPlacement);

TypeId
DirectPlacement::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectPlacement")
                            .SetParent<LossRecovery>()
                            .SetGroupName("Rdma")
                            .AddConstructor<DirectPlacement>();
    return tid;
}

RecvReply
DirectPlacement::OnData(RecvQueuePair& rq,
                        const RdmaHeader& h,
                        uint32_t ackInterval,
                        Time /* now */) const
{
    uint32_t accepted = 0;
    bool outOfOrder = false;
    if (h.psn >= rq.expectedPsn)
    {
        const uint32_t offset = h.psn - rq.expectedPsn;
        outOfOrder = offset > 0;
        if (rq.placed.size() <= offset)
        {
            rq.placed.resize(offset + 1, false);
        }
        if (!rq.placed[offset])
        {
            rq.placed[offset] = true;
            accepted = h.payload;
        }
        while (!rq.placed.empty() && rq.placed.front())
        {
            rq.placed.pop_front();
            ++rq.expectedPsn;
        }
    }
    // Cumulative ACK every AckInterval arrivals, for a duplicate, and as soon as a
    // message's last packet (ACK requested) and everything before it have arrived.
    if (h.flags & RdmaHeader::FLAG_ACK_REQUEST)
    {
        rq.ackRequestedBelow = std::max(rq.ackRequestedBelow, h.psn + 1);
    }
    const bool requested = rq.ackRequestedBelow > 0 && rq.expectedPsn >= rq.ackRequestedBelow;
    if (requested)
    {
        rq.ackRequestedBelow = 0;
    }
    RecvReply r;
    if (++rq.sinceAck >= ackInterval || requested || h.psn + 1 < rq.expectedPsn)
    {
        rq.sinceAck = 0;
        r = Reply(RdmaPacketType::ACK, rq.expectedPsn - 1);
    }
    r.deliveredBytes = accepted;
    r.outOfOrder = outOfOrder;
    return r;
}

std::string
DirectPlacement::GetName() const
{
    return "direct_placement";
}

} // namespace ns3
