/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SELECTIVE_REPEAT_H
#define RDMA_SELECTIVE_REPEAT_H

#include "ns3/loss-recovery.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Selective repeat as IRN does it (Mittal et al., SIGCOMM 2018): the responder places
 * out-of-order packets and answers each with a NACK carrying the cumulative ACK and the
 * PSN that arrived (every in-order packet is acknowledged); the requester resends the
 * holes below the highest reported PSN, each once per recovery episode, before new data.
 * Its timeout is RtoLow with at most RtoLowThreshold packets in flight, else RtoHigh; on
 * a timeout every unreported PSN that was sent is resent. (IRN's BDP-FC, the cap on
 * packets in flight, is the NIC's InflightCap.)
 */
class SelectiveRepeat : public LossRecovery
{
  public:
    static TypeId GetTypeId();
    SelectiveRepeat();

    RecvReply OnData(RecvQueuePair& rq,
                     const RdmaHeader& h,
                     uint32_t ackInterval,
                     Time now) const override;
    void OnNack(SendQueuePair& qp, const RdmaHeader& h, Time now) const override;
    void OnTimeout(SendQueuePair& qp, Time now) const override;
    std::string GetName() const override;
    Time GetRto(const SendQueuePair& qp) const override;

  private:
    Time m_rtoLow;
    Time m_rtoHigh;
    uint32_t m_rtoLowThreshold;
};

} // namespace ns3

#endif /* RDMA_SELECTIVE_REPEAT_H */
