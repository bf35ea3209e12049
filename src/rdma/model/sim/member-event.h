/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_MEMBER_EVENT_H
#define RDMA_MEMBER_EVENT_H

#include "ns3/event-impl.h"
#include "ns3/ptr.h"
#include "ns3/rdma-simulator-impl.h"
#include "ns3/simulator.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A reusable event that calls `(object->*Method)()`: for an object that has at
 * most one such event pending at a time (a port's end of transmission, a link's next
 * arrival).
 *
 * Simulator::MakeEvent allocates and frees an event object per scheduling; this one is
 * made once, by its owner, and scheduled again and again (each scheduling holds one
 * reference, which the simulator gives back after running it). It must never be
 * cancelled: an owner that may need to cancel uses an ordinary EventId.
 */
template <class T, void (T::*Method)()>
class MemberEvent : public DirectEvent
{
  public:
    explicit MemberEvent(T* object)
        : m_object(object)
    {
    }

    /// Schedule a run after \p delay (with the running event's context); \p hint,
    /// \p hint2 and \p hint3: what the run reads first (RdmaSimulatorImpl::ScheduleReserved).
    void ScheduleIn(const Time& delay,
                    const void* hint = nullptr,
                    const void* hint2 = nullptr,
                    const void* hint3 = nullptr)
    {
        if (RdmaSimulatorImpl* sim = RdmaSimulatorImpl::Active())
        {
            // The same uid and key that Simulator::Schedule would give, without the
            // EventId it would build.
            Ref();
            sim->ScheduleReserved(sim->NowTs() + static_cast<uint64_t>(delay.GetTimeStep()),
                                  sim->ReserveUid(),
                                  sim->GetContext(),
                                  this,
                                  hint,
                                  hint2,
                                  hint3);
            return;
        }
        Simulator::Schedule(delay, Ptr<EventImpl>(this));
    }

  protected:
    void Notify() override
    {
        (m_object->*Method)();
    }

  private:
    T* m_object; ///< not owned: the owner outlives its scheduled events
};

} // namespace ns3

#endif /* RDMA_MEMBER_EVENT_H */
