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
    std::string GetName() const override;

  private:
    Time m_nackInterval;
};

} // namespace ns3

#endif /* RDMA_GO_BACK_N_H */
