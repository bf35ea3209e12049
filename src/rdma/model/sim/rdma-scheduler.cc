/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaScheduler");
NS_OBJECT_ENSURE_REGISTERED(RdmaScheduler);

TypeId
RdmaScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaScheduler>();
    return tid;
}

RdmaScheduler::RdmaScheduler() = default;

RdmaScheduler::~RdmaScheduler() = default;

void
RdmaScheduler::Insert(const Event& ev)
{
    m_heap.Push(ev);
}

bool
RdmaScheduler::IsEmpty() const
{
    return m_heap.Empty();
}

Scheduler::Event
RdmaScheduler::PeekNext() const
{
    NS_ABORT_MSG_IF(m_heap.Empty(), "RdmaScheduler: PeekNext on an empty scheduler");
    return m_heap.Top();
}

Scheduler::Event
RdmaScheduler::RemoveNext()
{
    NS_ABORT_MSG_IF(m_heap.Empty(), "RdmaScheduler: RemoveNext on an empty scheduler");
    return m_heap.Pop();
}

void
RdmaScheduler::Remove(const Event& ev)
{
    NS_ABORT_MSG_IF(!m_heap.Erase(ev.key.m_uid),
                    "RdmaScheduler: Remove of an event that is not scheduled");
}

} // namespace ns3
