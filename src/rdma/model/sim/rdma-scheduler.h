/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCHEDULER_H
#define RDMA_SCHEDULER_H

#include "ns3/event-heap.h"
#include "ns3/scheduler.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An ns-3 Scheduler on the module's EventHeap (a 4-ary heap, keys inline).
 *
 * Orders events exactly as every ns-3 scheduler does (time stamp, then uid), so a run
 * gives the same results as with ns3::MapScheduler, with no allocation per event.
 * ns3::RdmaSimulatorImpl, the runner's default, uses the same heap directly; this class
 * is for ns-3's DefaultSimulatorImpl (`SchedulerType=ns3::RdmaScheduler`).
 */
class RdmaScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();
    RdmaScheduler();
    ~RdmaScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    EventHeap m_heap; ///< the events
};

} // namespace ns3

#endif /* RDMA_SCHEDULER_H */
