/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/dynamic-threshold-policy.h"

#include "ns3/log.h"
#include "ns3/switch-mmu.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DynamicThresholdPolicy");
NS_OBJECT_ENSURE_REGISTERED(DynamicThresholdPolicy);

TypeId
DynamicThresholdPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DynamicThresholdPolicy")
                            .SetParent<BufferPolicy>()
                            .SetGroupName("Rdma")
                            .AddConstructor<DynamicThresholdPolicy>();
    return tid;
}

double
DynamicThresholdPolicy::GetThreshold(uint32_t /* outPort */,
                                     uint8_t /* priority */,
                                     uint64_t freeBytes)
{
    // The same expression as before the policies existed, so that runs stay identical.
    return GetMmu()->GetEgressAlpha() * freeBytes;
}

DropReason
DynamicThresholdPolicy::GetDropReason() const
{
    return DropReason::LOSSY_EGRESS_THRESHOLD;
}

std::string
DynamicThresholdPolicy::GetName() const
{
    return "dynamic_threshold";
}

} // namespace ns3
