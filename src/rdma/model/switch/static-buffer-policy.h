/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_STATIC_BUFFER_POLICY_H
#define RDMA_STATIC_BUFFER_POLICY_H

#include "ns3/buffer-policy.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Static partitioning: every egress queue (port, class) may hold at most a fixed number
 * of bytes, whatever the others hold (switch.buffer.policy static). QueueLimit sets it;
 * 0 (the default) gives every queue an equal share of the shared pool,
 * B / (ports x 8 classes), so that the queues together can never ask for more than the
 * pool. Its drops are STATIC_QUEUE_LIMIT.
 */
class StaticBufferPolicy : public BufferPolicy
{
  public:
    static TypeId GetTypeId();
    StaticBufferPolicy();

    double GetThreshold(uint32_t outPort, uint8_t priority, uint64_t freeBytes) override;
    DropReason GetDropReason() const override;
    std::string GetName() const override;
    /// The share of one queue (bytes): QueueLimit, or B / (ports x 8) if it is 0.
    uint64_t GetQueueLimit() const;

  private:
    uint64_t m_queueLimit; ///< 0 = the equal share
};

} // namespace ns3

#endif /* RDMA_STATIC_BUFFER_POLICY_H */
