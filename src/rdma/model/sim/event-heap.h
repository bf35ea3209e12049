/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_EVENT_HEAP_H
#define RDMA_EVENT_HEAP_H

#include "ns3/scheduler.h"

#include <algorithm>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A 4-ary min-heap of ns-3 scheduler events, keys stored inline.
 *
 * Orders events exactly as every ns-3 scheduler does: by time stamp, then by uid (kept
 * as one 128-bit number, so an order test is one comparison). The whole heap is one
 * contiguous vector, so inserting or removing allocates nothing and touches about
 * log4(n) cache lines. Used by ns3::RdmaScheduler and, without a virtual
 * call, by ns3::RdmaSimulatorImpl.
 */
class EventHeap
{
  public:
    using Event = Scheduler::Event;

    EventHeap()
    {
        m_heap.reserve(1024);
    }

    bool Empty() const
    {
        return m_heap.empty();
    }

    /// The earliest event (the heap must not be empty).
    Event Top() const
    {
        return ToEvent(m_heap.front());
    }

    /// Start loading the earliest event's object into the cache (no effect if empty).
    void PrefetchTop() const
    {
        if (!m_heap.empty())
        {
            __builtin_prefetch(m_heap.front().impl);
        }
    }

    /// True if this heap's earliest event runs before \p other's (both not empty).
    bool TopBefore(const EventHeap& other) const
    {
        return m_heap.front().order < other.m_heap.front().order;
    }

    void Push(const Event& ev)
    {
        m_heap.push_back(Entry{Order(ev.key.m_ts, ev.key.m_uid), ev.impl, ev.key.m_context});
        SiftUp(m_heap.size() - 1);
    }

    /// Remove and return the earliest event (the heap must not be empty).
    Event Pop()
    {
        const Entry next = m_heap.front();
        m_heap.front() = m_heap.back();
        m_heap.pop_back();
        if (!m_heap.empty())
        {
            SiftDown(0);
        }
        return ToEvent(next);
    }

    /// Remove the event of uid \p uid; false if it is not here. O(n).
    bool Erase(uint32_t uid)
    {
        for (std::size_t i = 0; i < m_heap.size(); ++i)
        {
            if (static_cast<uint32_t>(m_heap[i].order) == uid)
            {
                m_heap[i] = m_heap.back();
                m_heap.pop_back();
                if (i < m_heap.size())
                {
                    SiftUp(i);
                    SiftDown(i);
                }
                return true;
            }
        }
        return false;
    }

  private:
    static constexpr std::size_t kArity = 4;

    /// (time stamp, uid) as one number: comparing two is one 128-bit comparison.
    using OrderKey = unsigned __int128;

    struct Entry
    {
        OrderKey order;   ///< time stamp in the high 64 bits, uid in the low 32
        EventImpl* impl;  ///< the event
        uint32_t context; ///< its context
    };

    static OrderKey Order(uint64_t ts, uint32_t uid)
    {
        return (static_cast<OrderKey>(ts) << 64) | uid;
    }

    static Event ToEvent(const Entry& e)
    {
        return Event{e.impl,
                     Scheduler::EventKey{static_cast<uint64_t>(e.order >> 64),
                                         static_cast<uint32_t>(e.order),
                                         e.context}};
    }

    void SiftUp(std::size_t i)
    {
        const Entry moving = m_heap[i];
        while (i > 0)
        {
            const std::size_t parent = (i - 1) / kArity;
            if (!(moving.order < m_heap[parent].order))
            {
                break;
            }
            m_heap[i] = m_heap[parent];
            i = parent;
        }
        m_heap[i] = moving;
    }

    void SiftDown(std::size_t i)
    {
        const std::size_t n = m_heap.size();
        const Entry moving = m_heap[i];
        while (true)
        {
            const std::size_t first = i * kArity + 1;
            if (first >= n)
            {
                break;
            }
            const std::size_t last = std::min(first + kArity, n);
            std::size_t best = first;
            for (std::size_t c = first + 1; c < last; ++c)
            {
                if (m_heap[c].order < m_heap[best].order)
                {
                    best = c;
                }
            }
            if (!(m_heap[best].order < moving.order))
            {
                break;
            }
            m_heap[i] = m_heap[best];
            i = best;
        }
        m_heap[i] = moving;
    }

    std::vector<Entry> m_heap; ///< the heap, root at index 0
};

/**
 * \ingroup rdma
 * \brief Two EventHeaps: events due within a horizon of the time they are scheduled
 * (frame arrivals, ends of transmission), and the others (flows that start later,
 * timeouts, samplers).
 *
 * The far events would otherwise deepen the heap that every per-frame event goes
 * through: a run with thousands of flows scheduled ahead has thousands of them. The
 * earliest event is the earlier of the two heads, so the order is exactly that of one
 * heap; a far event is moved nowhere, it just waits in the other heap.
 */
class SplitEventQueue
{
  public:
    using Event = Scheduler::Event;

    /// Events due less than \p horizon time steps after "now" go to the near heap.
    explicit SplitEventQueue(uint64_t horizon)
        : m_horizon(horizon)
    {
    }

    bool Empty() const
    {
        return m_near.Empty() && m_far.Empty();
    }

    /// Add \p ev, scheduled at time stamp \p now.
    void Push(const Event& ev, uint64_t now)
    {
        (ev.key.m_ts - now < m_horizon ? m_near : m_far).Push(ev);
    }

    /// Remove and return the earliest event (not empty).
    Event Pop()
    {
        if (m_far.Empty() || (!m_near.Empty() && m_near.TopBefore(m_far)))
        {
            return m_near.Pop();
        }
        return m_far.Pop();
    }

    /// Remove the event of uid \p uid; false if it is not here. O(n).
    bool Erase(uint32_t uid)
    {
        return m_near.Erase(uid) || m_far.Erase(uid);
    }

    /// Start loading the next near event's object into the cache.
    void PrefetchNext() const
    {
        m_near.PrefetchTop();
    }

  private:
    uint64_t m_horizon;
    EventHeap m_near;
    EventHeap m_far;
};

} // namespace ns3

#endif /* RDMA_EVENT_HEAP_H */
