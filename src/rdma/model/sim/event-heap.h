/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_EVENT_HEAP_H
#define RDMA_EVENT_HEAP_H

#include "ns3/scheduler.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A 4-ary min-heap of ns-3 scheduler events, keys stored inline.
 *
 * Orders events exactly as every ns-3 scheduler does: by time stamp, then by uid (kept
 * as one 128-bit number with the context in its lowest bits, which never decide since
 * uids are unique, so an order test is one comparison). The keys are one contiguous
 * vector of 64-byte lines, a node's four children in one line, and the events another,
 * so inserting or removing allocates nothing and touches about log4(n) key lines. An
 * event may carry two *hints*: the addresses of the data it will read first (a link's
 * arrival: the frame and the receiving device), which the simulator starts loading
 * into the cache before the event runs (PrefetchTop). Used by ns3::RdmaScheduler and,
 * without a virtual call, by ns3::RdmaSimulatorImpl.
 */
class EventHeap
{
  public:
    using Event = Scheduler::Event;

    EventHeap()
    {
        m_lines.reserve(256);
        m_lines.resize(2, Line{{kNone, kNone, kNone, kNone}});
        m_vals.reserve(1024);
    }

    bool Empty() const
    {
        return m_vals.empty();
    }

    /// The earliest event (the heap must not be empty).
    Event Top() const
    {
        return ToEvent(Key(0), m_vals.front());
    }

    /// Start loading the earliest event's object and hint into the cache (none if empty).
    void PrefetchTop() const
    {
        if (m_vals.empty())
        {
            return;
        }
        Prefetch(m_vals.front());
        // And the event likely to run after it (its earliest child), so that a load that
        // takes longer than one event still arrives in time.
        if (m_vals.size() > 1)
        {
            Prefetch(m_vals[MinChild(1)]);
        }
    }

    /// True if this heap's earliest event runs before \p other's (both not empty).
    bool TopBefore(const EventHeap& other) const
    {
        return Key(0) < other.Key(0);
    }

    /**
     * Add \p ev. \p hint and \p hint2 (may be null): the data it reads first, two
     * cache lines from \p hint and four from \p hint2 (see PrefetchTop).
     */
    void Push(const Event& ev, const void* hint = nullptr, const void* hint2 = nullptr)
    {
        const std::size_t i = m_vals.size();
        if ((i + kPad + 1) / kArity + 1 > m_lines.size())
        {
            m_lines.resize(m_lines.size() * 2, Line{{kNone, kNone, kNone, kNone}});
        }
        m_vals.push_back(Val{ev.impl, hint, hint2});
        SiftUp(i, Order(ev.key.m_ts, ev.key.m_uid, ev.key.m_context), m_vals.back());
    }

    /**
     * Remove and return the earliest event (the heap must not be empty).
     *
     * Bottom-up: the hole left at the root moves down along the smaller children to a
     * leaf (three comparisons per level, within one cache line, no data-dependent
     * branch), and the last event then moves up from there, rarely far.
     */
    Event Pop()
    {
        const Event next = ToEvent(Key(0), m_vals.front());
        const auto [lastKey, lastVal] = TakeLast();
        const std::size_t n = m_vals.size();
        if (n > 0)
        {
            std::size_t hole = 0;
            for (std::size_t first = 1; first < n; first = hole * kArity + 1)
            {
                const std::size_t best = MinChild(first);
                Key(hole) = Key(best);
                m_vals[hole] = m_vals[best];
                hole = best;
            }
            SiftUp(hole, lastKey, lastVal);
        }
        return next;
    }

    /// Remove the event of uid \p uid; false if it is not here. O(n).
    bool Erase(uint32_t uid)
    {
        const std::size_t n = m_vals.size();
        for (std::size_t i = 0; i < n; ++i)
        {
            if (static_cast<uint32_t>(Key(i) >> 32) == uid)
            {
                const auto [lastKey, lastVal] = TakeLast();
                if (i < n - 1)
                {
                    SiftUp(i, lastKey, lastVal);
                    SiftDown(i);
                }
                return true;
            }
        }
        return false;
    }

  private:
    static constexpr std::size_t kArity = 4;
    /// Node i's key is at m_keys position i + kPad, so every node's 4 children share
    /// one 64-byte line.
    static constexpr std::size_t kPad = 3;

    /// (time stamp, uid, context) as one number: comparing two is one 128-bit
    /// comparison. The context never decides, since uids are unique.
    using OrderKey = unsigned __int128;
    static constexpr OrderKey kNone = ~static_cast<OrderKey>(0); ///< after every event

    /// Four keys: a node's children.
    struct alignas(64) Line
    {
        OrderKey keys[kArity];
    };

    struct Val
    {
        EventImpl* impl;   ///< the event
        const void* hint;  ///< what it reads first (two lines), or null
        const void* hint2; ///< what it reads next (four lines), or null
    };

    /// Start loading what \p v's event reads first: its object and its hints.
    static void Prefetch(const Val& v)
    {
        __builtin_prefetch(v.impl);
        __builtin_prefetch(reinterpret_cast<const char*>(v.impl) + 64);
        if (v.hint != nullptr)
        {
            __builtin_prefetch(v.hint);
            __builtin_prefetch(static_cast<const char*>(v.hint) + 64);
        }
        if (v.hint2 != nullptr)
        {
            for (int line = 0; line < 4; ++line)
            {
                __builtin_prefetch(static_cast<const char*>(v.hint2) + 64 * line);
            }
        }
    }

    static OrderKey Order(uint64_t ts, uint32_t uid, uint32_t context)
    {
        return (static_cast<OrderKey>(ts) << 64) | (static_cast<OrderKey>(uid) << 32) | context;
    }

    static Event ToEvent(OrderKey k, const Val& v)
    {
        return Event{v.impl,
                     Scheduler::EventKey{static_cast<uint64_t>(k >> 64),
                                         static_cast<uint32_t>(k >> 32),
                                         static_cast<uint32_t>(k)}};
    }

    OrderKey& Key(std::size_t i)
    {
        return reinterpret_cast<OrderKey*>(m_lines.data())[i + kPad]; // lines are contiguous
    }

    const OrderKey& Key(std::size_t i) const
    {
        return reinterpret_cast<const OrderKey*>(m_lines.data())[i + kPad];
    }

    /// The earliest of the children that begin at \p first (an existing node): one aligned
    /// line of keys, kNone past the last node, three comparisons and no branch.
    std::size_t MinChild(std::size_t first) const
    {
        const OrderKey* c = &Key(first);
        const std::size_t lo = c[1] < c[0] ? 1 : 0;
        const std::size_t hi = c[3] < c[2] ? 3 : 2;
        return first + (c[hi] < c[lo] ? hi : lo);
    }

    /// Remove the last node; return its key and event.
    std::pair<OrderKey, Val> TakeLast()
    {
        const std::size_t last = m_vals.size() - 1;
        const std::pair<OrderKey, Val> taken{Key(last), m_vals.back()};
        Key(last) = kNone;
        m_vals.pop_back();
        return taken;
    }

    /// Put (\p k, \p v) at the hole \p i, moving it up to its place.
    void SiftUp(std::size_t i, OrderKey k, Val v)
    {
        while (i > 0)
        {
            const std::size_t parent = (i - 1) / kArity;
            if (!(k < Key(parent)))
            {
                break;
            }
            Key(i) = Key(parent);
            m_vals[i] = m_vals[parent];
            i = parent;
        }
        Key(i) = k;
        m_vals[i] = v;
    }

    /// Move node \p i down to its place.
    void SiftDown(std::size_t i)
    {
        const std::size_t n = m_vals.size();
        const OrderKey k = Key(i);
        const Val v = m_vals[i];
        while (true)
        {
            const std::size_t first = i * kArity + 1;
            if (first >= n)
            {
                break;
            }
            const std::size_t best = MinChild(first);
            if (!(Key(best) < k))
            {
                break;
            }
            Key(i) = Key(best);
            m_vals[i] = m_vals[best];
            i = best;
        }
        Key(i) = k;
        m_vals[i] = v;
    }

    std::vector<Line> m_lines; ///< the keys (kNone where no node is), see kPad
    std::vector<Val> m_vals;   ///< node i's event
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

    /// Add \p ev, scheduled at time stamp \p now, with its hints (EventHeap::Push).
    void Push(const Event& ev,
              uint64_t now,
              const void* hint = nullptr,
              const void* hint2 = nullptr)
    {
        (ev.key.m_ts - now < m_horizon ? m_near : m_far).Push(ev, hint, hint2);
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
