/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/static-buffer-policy.h"

#include "ns3/log.h"
#include "ns3/rdma-wire.h"
#include "ns3/switch-mmu.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StaticBufferPolicy");
NS_OBJECT_ENSURE_REGISTERED(StaticBufferPolicy);

TypeId
StaticBufferPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StaticBufferPolicy")
            .SetParent<BufferPolicy>()
            .SetGroupName("Rdma")
            .AddConstructor<StaticBufferPolicy>()
            .AddAttribute("QueueLimit",
                          "The most bytes one egress queue (port, class) may hold (bytes); "
                          "0 = an equal share of the shared pool, B / (ports x 8 classes).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&StaticBufferPolicy::m_queueLimit),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

StaticBufferPolicy::StaticBufferPolicy()
    : m_queueLimit(0)
{
}

uint64_t
StaticBufferPolicy::GetQueueLimit() const
{
    if (m_queueLimit > 0)
    {
        return m_queueLimit;
    }
    const uint64_t queues = uint64_t(GetMmu()->GetPortCount()) * kRdmaNumPriorities;
    return queues ? GetMmu()->GetSharedCapacity() / queues : 0;
}

double
StaticBufferPolicy::GetThreshold(uint32_t /* outPort */,
                                 uint8_t /* priority */,
                                 uint64_t /* freeBytes */)
{
    return static_cast<double>(GetQueueLimit());
}

DropReason
StaticBufferPolicy::GetDropReason() const
{
    return DropReason::STATIC_QUEUE_LIMIT;
}

std::string
StaticBufferPolicy::GetName() const
{
    return "static";
}

} // namespace ns3
