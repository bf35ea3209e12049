/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DYNAMIC_THRESHOLD_POLICY_H
#define RDMA_DYNAMIC_THRESHOLD_POLICY_H

#include "ns3/buffer-policy.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Dynamic thresholds (Choudhury and Hahne, 1998; the Broadcom default): an egress queue
 * may hold alpha x (B - Q(t)), alpha the MMU's EgressAlpha (switch.lossy_alpha), B the
 * shared pool and Q(t) its occupancy. The default policy (switch.buffer.policy
 * dynamic_threshold); its drops are LOSSY_EGRESS_THRESHOLD.
 */
class DynamicThresholdPolicy : public BufferPolicy
{
  public:
    static TypeId GetTypeId();

    double GetThreshold(uint32_t outPort, uint8_t priority, uint64_t freeBytes) override;
    DropReason GetDropReason() const override;
    std::string GetName() const override;
};

} // namespace ns3

#endif /* RDMA_DYNAMIC_THRESHOLD_POLICY_H */
