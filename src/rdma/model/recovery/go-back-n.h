/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_GO_BACK_N_H
#define RDMA_GO_BACK_N_H

#include "ns3/loss-recovery.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Go-back-N, RoCE's loss recovery: the responder accepts only the expected PSN and
 * answers a gap with one NACK per hole (again after NackInterval if the hole stays); the
 * requester restarts from the PSN the responder expects, on a NACK or on a timeout.
 */
class GoBackN : public LossRecovery
{
  public:
    static TypeId GetTypeId();
    GoBackN();

    RecvReply OnData(RecvQueuePair& rq,
                     const RdmaHeader& h,
                     uint32_t ackInterval,
                     Time now) const override;
    /// A trimmed packet is discarded as any packet off the expected PSN; at the expected
    /// PSN it is NACKed at once (a fresh loss, whatever NACK came before). Ahead of it,
    /// it is noted (RecvQueuePair::trimmedAhead, the lowest) and NACKed when the packets
    /// before it have arrived: its header overtakes them in the trim class, and a NACK
    /// now would make the sender resend them too.
    RecvReply OnTrimmedData(RecvQueuePair& rq, const RdmaHeader& h, Time now) const override;
    /// Go back to the NACK's PSN, as for any NACK.
    void OnTrimNack(SendQueuePair& qp, const RdmaHeader& h, Time now) const override;
    std::string GetName() const override;

  private:
    Time m_nackInterval;
};

} // namespace ns3

#endif /* RDMA_GO_BACK_N_H */
