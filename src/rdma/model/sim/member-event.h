/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_MEMBER_EVENT_H
#define RDMA_MEMBER_EVENT_H

#include "ns3/event-impl.h"
#include "ns3/ptr.h"
#include "ns3/rdma-sim.h"
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
 * cancelled: an owner that may need to cancel uses a RearmableEvent (below).
 */
template <class T, void (T::*Method)()>
class MemberEvent : public DirectEvent
{
  public:
    explicit MemberEvent(T* object)
        : m_object(object)
    {
    }

    /// Schedule a run after \p delay (with the running event's context). Returns the
    /// run's uid. A file that calls it (or RearmableEvent::Schedule) includes
    /// rdma-sim-schedule.h, which defines RdmaSim::ScheduleReserved.
    uint32_t ScheduleIn(const Time& delay)
    {
        return ScheduleInSteps(static_cast<uint64_t>(delay.GetTimeStep()));
    }

    /// ScheduleIn with the delay in time steps (no Time built on the way).
    uint32_t ScheduleInSteps(uint64_t steps)
    {
        if (RdmaSim::IsFastCore())
        {
            // The same uid and key that Simulator::Schedule would give, without the
            // EventId it would build.
            const uint32_t uid = RdmaSim::ReserveUid();
            Ref();
            RdmaSim::ScheduleReserved(RdmaSim::NowTs() + steps,
                                      uid,
                                      RdmaSim::CurrentContext(),
                                      this);
            return uid;
        }
        return Simulator::Schedule(TimeStep(static_cast<int64_t>(steps)), Ptr<EventImpl>(this))
            .GetUid();
    }

    /// The object it calls.
    T* GetObject() const
    {
        return m_object;
    }

  protected:
    void Notify() override
    {
        (m_object->*Method)();
    }

  private:
    T* m_object; ///< not owned: the owner outlives its scheduled events
};

/**
 * \ingroup rdma
 * \brief A timer that calls `(object->*Method)()`, at most one run pending, that can be
 * cancelled and scheduled again (a NIC's pacing wake-up).
 *
 * Under the fast core (RdmaSim::IsFastCore()) it schedules one MemberEvent again and again (no
 * allocation, no EventId): cancelling only forgets the pending run, which still comes off the
 * queue, as ns-3's cancelled events do, and then does nothing (its uid is not the current one).
 * Under any other simulator implementation each run is an ordinary ns-3 event. Both give
 * a run the time stamp, uid and context that Simulator::Schedule would.
 */
template <class T, void (T::*Method)()>
class RearmableEvent
{
  public:
    explicit RearmableEvent(T* object)
        : m_object(object),
          m_event(Create<MemberEvent<RearmableEvent, &RearmableEvent::Fired>>(this))
    {
    }

    RearmableEvent(const RearmableEvent&) = delete;
    RearmableEvent& operator=(const RearmableEvent&) = delete;

    /// Run after \p delay, instead of any run still pending.
    void Schedule(const Time& delay)
    {
        Cancel();
        if (RdmaSim::IsFastCore())
        {
            m_uid = m_event->ScheduleIn(delay);
            m_armed = true;
            return;
        }
        m_ns3 = Simulator::Schedule(delay, Method, m_object);
    }

    /// Forget the pending run, if any: it will not call the object.
    void Cancel()
    {
        m_armed = false;
        if (!RdmaSim::IsFastCore())
        {
            m_ns3.Cancel();
        }
    }

    /// Whether a run is still to come.
    bool IsPending() const
    {
        return RdmaSim::IsFastCore() ? m_armed : !m_ns3.IsExpired();
    }

  private:
    /// A scheduled run came off the queue (the fast core): call the object unless
    /// it was cancelled since.
    void Fired()
    {
        if (!m_armed || RdmaSim::CurrentUid() != m_uid)
        {
            return;
        }
        m_armed = false;
        (m_object->*Method)();
    }

    T* m_object; ///< not owned: the owner outlives its scheduled runs
    Ptr<MemberEvent<RearmableEvent, &RearmableEvent::Fired>> m_event;
    EventId m_ns3;        ///< the pending run under any other simulator implementation
    uint32_t m_uid = 0;   ///< the uid of the run that counts (the fast core)
    bool m_armed = false; ///< whether it is still to come (the fast core)
};

} // namespace ns3

#endif /* RDMA_MEMBER_EVENT_H */
