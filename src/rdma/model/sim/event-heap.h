/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_EVENT_HEAP_H
#define RDMA_EVENT_HEAP_H

#include "ns3/ns3-compat.h"
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
 * as one 128-bit number with the event's slot in its lowest bits, which never decide
 * since uids are unique, so an order test is one comparison). The keys are one
 * contiguous vector of 64-byte lines, a node's four children in one line. The events
 * (object, context, kind) stay in their slots while their keys move, so inserting or
 * removing allocates nothing and moves only 16-byte keys along about log4(n) lines.
 * Used by ns3::RdmaScheduler and, for its far events, by ns3::RdmaSimulatorImpl
 * (SplitEventQueue).
 */
class EventHeap
{
  public:
    using Event = Scheduler::Event;

    EventHeap()
    {
        m_lines.reserve(256);
        m_lines.resize(2, Line{{kNone, kNone, kNone, kNone}});
        m_slots.reserve(1024);
        m_free.reserve(1024);
    }

    bool Empty() const
    {
        return m_n == 0;
    }

    /// The earliest event (the heap must not be empty).
    Event Top() const
    {
        return ToEvent(Key(0));
    }

    /// True if this heap's earliest event (not empty) runs before the event of time
    /// stamp \p ts and uid \p uid (not in this heap).
    bool TopBefore(uint64_t ts, uint32_t uid) const
    {
        // (Equal to Key(0) < Order(ts, uid, 0), without building a 128-bit key per event:
        // time stamps first, in the key's high half, then uids.)
        const OrderKey top = Key(0);
        const uint64_t topTs = static_cast<uint64_t>(top >> 64);
        if (topTs != ts)
        {
            return topTs < ts;
        }
        return static_cast<uint32_t>(static_cast<uint64_t>(top) >> 32) < uid;
    }

    /**
     * Add \p ev. \p direct: the event is a DirectEvent, which Pop reports.
     */
    void Push(const Event& ev, bool direct = false)
    {
        const std::size_t i = m_n++;
        if ((i + kPad + 1) / kArity + 1 > m_lines.size())
        {
            m_lines.resize(m_lines.size() * 2, Line{{kNone, kNone, kNone, kNone}});
        }
        uint32_t slot;
        if (m_free.empty())
        {
            slot = static_cast<uint32_t>(m_slots.size());
            m_slots.push_back(Slot{ev.impl, ev.key.m_context, direct});
        }
        else
        {
            slot = m_free.back();
            m_free.pop_back();
            m_slots[slot] = Slot{ev.impl, ev.key.m_context, direct};
        }
        SiftUp(i, Order(ev.key.m_ts, ev.key.m_uid, slot));
    }

    /**
     * Remove and return the earliest event (the heap must not be empty); if \p direct
     * is given, set it to whether the event was pushed as a DirectEvent.
     *
     * Bottom-up: the hole left at the root moves down along the smaller children to a
     * leaf (three comparisons per level, within one cache line, no data-dependent
     * branch), and the last event then moves up from there, rarely far.
     */
    Event Pop(bool* direct = nullptr)
    {
        if (direct != nullptr)
        {
            *direct = SlotOf(Key(0)).direct;
        }
        const Event next = Release(Key(0));
        const OrderKey lastKey = TakeLast();
        const std::size_t n = m_n;
        if (n > 0)
        {
            std::size_t hole = 0;
            for (std::size_t first = 1; first < n; first = hole * kArity + 1)
            {
                const std::size_t best = MinChild(first);
                Key(hole) = Key(best);
                hole = best;
            }
            SiftUp(hole, lastKey);
        }
        return next;
    }

    /// Remove the event of uid \p uid; false if it is not here. O(n).
    bool Erase(uint32_t uid)
    {
        const std::size_t n = m_n;
        for (std::size_t i = 0; i < n; ++i)
        {
            if (static_cast<uint32_t>(Key(i) >> 32) == uid)
            {
                Release(Key(i));
                const OrderKey lastKey = TakeLast();
                if (i < n - 1)
                {
                    SiftUp(i, lastKey);
                    SiftDown(i);
                }
                return true;
            }
        }
        return false;
    }

  private:
    static constexpr std::size_t kArity = 4;
    /// Node i's key is key i + kPad of m_lines (Key(i); the lines are contiguous), so the
    /// children of node i (keys 4i + 4 to 4i + 7) fill line i + 1 exactly.
    static constexpr std::size_t kPad = 3;

    /// (time stamp, uid, slot) as one number: comparing two is one 128-bit comparison.
    /// The slot never decides, since uids are unique.
    using OrderKey = compat::Uint128;
    static constexpr OrderKey kNone = ~static_cast<OrderKey>(0); ///< after every event

    /// Four keys: a node's children.
    struct alignas(64) Line
    {
        OrderKey keys[kArity];
    };

    /// An event where it waits: its key holds the slot's index.
    struct Slot
    {
        EventImpl* impl;  ///< the event
        uint32_t context; ///< its context
        bool direct;      ///< a DirectEvent (Push)
    };

    static OrderKey Order(uint64_t ts, uint32_t uid, uint32_t slot)
    {
        return (static_cast<OrderKey>(ts) << 64) | (static_cast<OrderKey>(uid) << 32) | slot;
    }

    const Slot& SlotOf(OrderKey k) const
    {
        return m_slots[static_cast<uint32_t>(k)];
    }

    Event ToEvent(OrderKey k) const
    {
        const Slot& v = SlotOf(k);
        return Event{v.impl,
                     Scheduler::EventKey{static_cast<uint64_t>(k >> 64),
                                         static_cast<uint32_t>(k >> 32),
                                         v.context}};
    }

    /// The event of key \p k, its slot given back.
    Event Release(OrderKey k)
    {
        const Event ev = ToEvent(k);
        m_free.push_back(static_cast<uint32_t>(k));
        return ev;
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
    /// (A heap's comparisons are coin flips that a branch predictor gets wrong half the
    /// time, so each result is made a number the compiler cannot turn into a jump, as
    /// GCC does with "c[3] < c[2] ? 3 : 2" even when written without "?:".)
    std::size_t MinChild(std::size_t first) const
    {
        const OrderKey* c = &Key(first);
        const std::size_t lo = Opaque(c[1] < c[0]);
        const std::size_t hi = 2 + Opaque(c[3] < c[2]);
        const std::size_t hiWins = Opaque(c[hi] < c[lo]);
        return first + lo + ((hi - lo) & (0 - hiWins));
    }

    /// \p v, hidden from the optimizer (it must compute it as data, not branch on it).
    static std::size_t Opaque(std::size_t v)
    {
        asm("" : "+r"(v));
        return v;
    }

    /// Remove the last node; return its key.
    OrderKey TakeLast()
    {
        const std::size_t last = --m_n;
        const OrderKey taken = Key(last);
        Key(last) = kNone;
        return taken;
    }

    /// Put \p k at the hole \p i, moving it up to its place.
    void SiftUp(std::size_t i, OrderKey k)
    {
        while (i > 0)
        {
            const std::size_t parent = (i - 1) / kArity;
            if (!(k < Key(parent)))
            {
                break;
            }
            Key(i) = Key(parent);
            i = parent;
        }
        Key(i) = k;
    }

    /// Move node \p i down to its place.
    void SiftDown(std::size_t i)
    {
        const std::size_t n = m_n;
        const OrderKey k = Key(i);
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
            i = best;
        }
        Key(i) = k;
    }

    std::vector<Line> m_lines;    ///< the keys (kNone where no node is), see kPad
    std::size_t m_n = 0;          ///< events held
    std::vector<Slot> m_slots;    ///< the events, by slot
    std::vector<uint32_t> m_free; ///< slots not in use, the latest freed last
};

} // namespace ns3

#endif /* RDMA_EVENT_HEAP_H */
