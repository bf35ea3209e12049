/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SPLIT_EVENT_QUEUE_H
#define RDMA_SPLIT_EVENT_QUEUE_H

#include "ns3/event-heap.h"
#include "ns3/event-wheel.h"

#include <algorithm>
#include <limits>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The event queue of ns3::RdmaSimulatorImpl: an EventWheel for the events due
 * within a horizon of the time they are scheduled (frame arrivals, ends of
 * transmission), and an EventHeap for the others (flows that start later, timeouts,
 * samplers).
 *
 * The far events would otherwise crowd the structure every per-frame event goes
 * through: a run with thousands of flows scheduled ahead has thousands of them, and a
 * wheel holds only what is due within one turn. The earliest event is the earlier of
 * the two heads, so the order is exactly that of one queue ordered by (time stamp,
 * uid); a far event is moved nowhere, it just waits in the heap.
 */
class SplitEventQueue
{
  public:
    using Event = Scheduler::Event;

    /// Events due less than \p horizon time steps after "now" go to the wheel.
    explicit SplitEventQueue(uint64_t horizon)
        : m_horizon(horizon),
          m_near(EventWheel::ForHorizon(horizon))
    {
    }

    bool Empty() const
    {
        return m_near.Empty() && m_far.Empty();
    }

    /// Add \p ev, scheduled at time stamp \p now, with its hints and kind
    /// (EventWheel::Push; a far event keeps only its kind: it runs long after the hints
    /// would have been of use).
    void Push(const Event& ev,
              uint64_t now,
              const EventHints& hints = EventHints(),
              bool direct = false)
    {
        if (ev.key.m_ts - now < m_horizon)
        {
            m_near.Push(ev, hints, direct);
        }
        else
        {
            m_far.Push(ev, direct);
        }
    }

    /// Remove and return the earliest event (not empty); \p direct as EventWheel::Pop.
    /// Then start loading the next near events (EventWheel::PrefetchNext).
    Event Pop(bool* direct = nullptr)
    {
        if (!m_far.Empty())
        {
            bool farFirst = m_near.Empty();
            if (!farFirst)
            {
                uint64_t ts;
                uint32_t uid;
                m_near.PeekKey(&ts, &uid);
                farFirst = m_far.TopBefore(ts, uid);
            }
            if (farFirst)
            {
                const Event ev = m_far.Pop(direct);
                m_near.AdvanceTo(ev.key.m_ts);
                m_near.PrefetchNext();
                return ev;
            }
        }
        return m_near.Pop(direct);
    }

    /// The time stamp of the earliest event (the queue must not be empty).
    uint64_t NextTs()
    {
        uint64_t ts = std::numeric_limits<uint64_t>::max();
        if (!m_near.Empty())
        {
            uint32_t uid;
            m_near.PeekKey(&ts, &uid);
        }
        return m_far.Empty() ? ts : std::min(ts, m_far.Top().key.m_ts);
    }

    /// Remove the event of time stamp \p ts and uid \p uid; false if it is not here.
    /// O(events in its bucket) if it is near, O(far events) otherwise.
    bool Erase(uint64_t ts, uint32_t uid)
    {
        return m_near.Erase(ts, uid) || m_far.Erase(uid);
    }

    /// The earliest near event if it is a DirectEvent, else null: a guess at the next
    /// event (a far one may come first), for a warm-up that changes nothing; \p fourth:
    /// its fourth hint (EventWheel::NextDirect).
    EventImpl* NextDirect(const void** fourth)
    {
        return m_near.NextDirect(fourth);
    }

    /// EventWheel::SetSecondHintLines of the near events.
    void SetSecondHintLines(uint32_t lines)
    {
        m_near.SetSecondHintLines(lines);
    }

  private:
    uint64_t m_horizon;
    EventWheel m_near;
    EventHeap m_far;
};

} // namespace ns3

#endif /* RDMA_SPLIT_EVENT_QUEUE_H */
