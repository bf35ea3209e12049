/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DIRECT_PLACEMENT_H
#define RDMA_DIRECT_PLACEMENT_H

#include "ns3/loss-recovery.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Direct placement: every packet carries its placement (a per-packet RETH), so the
 * responder accepts packets in any order, tracks them in a bitmap and acknowledges
 * cumulatively every AckInterval arrivals, for a duplicate, and as soon as a message's
 * last packet and everything before it have arrived, with no NACK: reordering by the
 * fabric costs nothing, and a real loss is recovered by the timeout (going back to the
 * oldest unacknowledged PSN).
 */
class DirectPlacement : public LossRecovery
{
  public:
    static TypeId GetTypeId();

    RecvReply OnData(RecvQueuePair& rq,
                     const RdmaHeader& h,
                     uint32_t ackInterval,
                     Time now) const override;
    /// Never sent by a direct-placement responder; treated as go-back-N's.
    std::string GetName() const override;
};

} // namespace ns3

#endif /* RDMA_DIRECT_PLACEMENT_H */
