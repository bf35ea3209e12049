/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_EVENT_WHEEL_H
#define RDMA_EVENT_WHEEL_H

#include "ns3/event-hints.h"
#include "ns3/occupancy-bitmap.h"
#include "ns3/prefetch-budget.h"
#include "ns3/prefetch-jump.h"
#include "ns3/prefetch.h"
#include "ns3/scheduler.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A timing wheel of ns-3 scheduler events due within a bounded horizon: the
 * near events of SplitEventQueue (frame arrivals, ends of transmission).
 *
 * Orders events exactly as every ns-3 scheduler does: by time stamp, then by uid. The
 * wheel has kBuckets buckets of 2^shift time steps each; bucket b holds, in an array, the
 * events whose time stamp divided by 2^shift is b modulo kBuckets, sorted by (time stamp,
 * uid) by the time the cursor reaches it. A two-level bitmap of non-empty buckets (OccupancyBitmap)
 * finds the next event in a few word operations. Every event must be due less
 * than Span() time steps after "now" (the last event popped, or AdvanceTo) when it is pushed; then
 * all events in the wheel lie within one turn of the cursor (a bucket at or after now's, and at or
 * before the earliest event's), so the first non-empty bucket from the cursor holds the earliest
 * event, which is kept until it is popped or an earlier one is pushed.
 *
 * Why not a heap: on a busy fabric nearly every event is due within a few microseconds of
 * when it is scheduled, and a heap pays about log4(n) levels of 128-bit comparisons for
 * each push and each pop of them; here a push is an append to its bucket's array, and a
 * pop takes the array's next entry. An event under a uid reserved earlier than events
 * already in its bucket is inserted in order into a bucket of up to kShortBucket events or
 * the bucket being consumed; into a longer one it is appended, and the bucket is sorted
 * once, when the cursor reaches it. On a large fabric a bucket can hold hundreds of events
 * due in the same nanosecond, so sorting once is cheaper than inserting each in order.
 *
 * Why arrays and not lists: a bucket's entries (order key and node, 16 bytes) are
 * contiguous, so an in-order insertion or a sort reads consecutive lines, where a list of
 * nodes would make both a chain of dependent loads, one node per step.
 *
 * Events (object, context, hints) sit in pooled nodes reused last freed first, and a bucket
 * returns its array to a pool (by capacity, last freed first) when it empties, so a push
 * allocates nothing once the run has warmed up and the arrays in use stay in cache.
 */
class EventWheel
{
  public:
    using Event = Scheduler::Event;

    /// How many cache lines PrefetchNext loads from an event's second hint (default 0:
    /// none). The user of the wheel says: RdmaSimulatorImpl gives the lines its ports
    /// say their hot fields span (FabricLayout::PortLines), or 0 where those fields
    /// fit in the cache anyway and the prefetches would only hold its fill buffers.
    void SetSecondHintLines(uint32_t lines)
    {
        m_hint2Lines = lines;
    }

    /// Buckets per turn.
    static constexpr uint32_t kBuckets = 1u << 14;

    /// A wheel whose buckets span 2^\p shift time steps each (\p shift <= 32: an entry's
    /// order key holds its time stamp's low \p shift bits above the 32-bit uid).
    explicit EventWheel(uint32_t shift)
        : m_shift(shift),
          m_lowMask((uint64_t(1) << shift) - 1),
          m_buckets(kBuckets),
          m_unsorted(kBuckets / 64, 0)
    {
        m_nodes.reserve(1024);
    }

    EventWheel(EventWheel&& other) noexcept = default;
    EventWheel& operator=(EventWheel&& other) = delete;
    EventWheel(const EventWheel&) = delete;
    EventWheel& operator=(const EventWheel&) = delete;

    ~EventWheel()
    {
        for (Bucket& bucket : m_buckets)
        {
            delete[] bucket.entries;
        }
        for (std::vector<Entry*>& pool : m_arrays)
        {
            for (Entry* array : pool)
            {
                delete[] array;
            }
        }
    }

    /// The wheel with the narrowest buckets that spans \p horizon time steps (Span()).
    static EventWheel ForHorizon(uint64_t horizon)
    {
        uint32_t shift = 0;
        while (((horizon + (uint64_t(1) << shift) - 1) >> shift) > kBuckets - 1)
        {
            ++shift;
        }
        return EventWheel(shift);
    }

    /// Events may be pushed up to this many time steps after "now" (exclusive).
    uint64_t Span() const
    {
        return uint64_t(kBuckets - 1) << m_shift;
    }

    bool Empty() const
    {
        return m_n == 0;
    }

    /**
     * Add \p ev, due less than Span() time steps after "now": the time stamp of the
     * event popped last, or the one given to AdvanceTo since, whichever is later (no
     * event in the wheel is earlier). \p hints: what it reads first (PrefetchNext loads
     * PrefetchBudget::kFirstHintLines, SetSecondHintLines, kThirdHintLines and
     * kFourthHintLines lines of them); \p direct: whether it is a DirectEvent, which Pop
     * reports.
     */
    void Push(const Event& ev, const EventHints& hints = EventHints(), bool direct = false)
    {
        const uint64_t bucketOf = ev.key.m_ts >> m_shift;
        const uint32_t n = NewNode();
        Node& node = m_nodes[n];
        node.ts = ev.key.m_ts;
        node.context = ev.key.m_context;
        node.impl = ev.impl;
        node.hint = hints.first;
        node.hint2 = hints.second;
        node.hint3 = hints.third;
        node.hint4 = hints.fourth;
        node.direct = direct;
        const uint64_t order = (ev.key.m_ts & m_lowMask) << 32 | ev.key.m_uid;
        const uint32_t b = static_cast<uint32_t>(bucketOf) & (kBuckets - 1);
        Bucket& bucket = m_buckets[b];
        ++m_n;
        if (bucket.first != bucket.end && bucket.end != bucket.capacity &&
            bucket.entries[bucket.end - 1].order < order)
        {
            // The common case: after the events already in a bucket with room. The
            // fields are stored one by one: a 16-byte copy of an entry built on the
            // stack would wait for its two stores to commit (no store forwarding).
            Entry& slot = bucket.entries[bucket.end++];
            slot.order = order;
            slot.node = n;
        }
        else
        {
            Place(bucket, b, bucketOf, Entry{order, n});
        }
    }

    /**
     * The event core's time has moved to \p ts (an event not in the wheel, and not
     * after any event in it, is running): no event can be pushed before it, and pushes
     * reach up to Span() after it, so the cursor moves up to it.
     */
    void AdvanceTo(uint64_t ts)
    {
        const uint64_t to = ts >> m_shift;
        if (to > m_cursor)
        {
            m_cursor = to;
            m_head = nullptr;
        }
    }

    /// The time stamp and uid of the earliest event (not empty): for SplitEventQueue.
    void PeekKey(uint64_t* ts, uint32_t* uid)
    {
        const Entry& head = *Head();
        *ts = m_nodes[head.node].ts;
        *uid = static_cast<uint32_t>(head.order);
    }

    /**
     * Remove and return the earliest event (not empty); if \p direct is given, set it to
     * whether the event was pushed as a DirectEvent. Then start loading the events after
     * it, as PrefetchNext, in the same pass: while the popped event's bucket holds the
     * next one, the bucket and its next entry are those just found.
     */
    Event Pop(bool* direct = nullptr)
    {
        const Entry* head = Head();
        const uint32_t b = static_cast<uint32_t>(m_cursor) & (kBuckets - 1);
        Bucket& bucket = m_buckets[b];
        const Node& node = m_nodes[head->node];
        if (direct != nullptr)
        {
            *direct = node.direct;
        }
        const Event ev{
            node.impl,
            Scheduler::EventKey{node.ts, static_cast<uint32_t>(head->order), node.context}};
        FreeNode(head->node);
        --m_n;
        if (++bucket.first == bucket.end)
        {
            Emptied(b);
            PrefetchNext();
            return ev;
        }
        ++m_head;
        const uint32_t h = m_head->node;
        if (h != m_prefetched)
        {
            Prefetch(m_nodes[h]);
        }
        PrefetchAfter(&bucket, bucket.first + 1);
        return ev;
    }

    /// Start loading the earliest event's object and hints into the cache, and those of
    /// the event after it (nothing if empty).
    void PrefetchNext()
    {
        if (m_n == 0)
        {
            return;
        }
        const uint32_t h = Head()->node;
        if (h != m_prefetched)
        {
            // Not prefetched as the event after the last one (it was pushed since).
            Prefetch(m_nodes[h]);
        }
        const Bucket& bucket = m_buckets[static_cast<uint32_t>(m_cursor) & (kBuckets - 1)];
        PrefetchAfter(&bucket, bucket.first + 1);
    }

    /// The earliest event if it was pushed as a DirectEvent, else null (also if empty);
    /// \p fourth: its fourth hint, loaded when it was the event after the next.
    EventImpl* NextDirect(const void** fourth)
    {
        if (m_n == 0)
        {
            return nullptr;
        }
        const Node& node = m_nodes[Head()->node];
        *fourth = node.hint4;
        return node.direct ? node.impl : nullptr;
    }

    /// Remove the event of time stamp \p ts and uid \p uid; false if it is not here.
    bool Erase(uint64_t ts, uint32_t uid)
    {
        const uint32_t b = static_cast<uint32_t>(ts >> m_shift) & (kBuckets - 1);
        const uint64_t order = (ts & m_lowMask) << 32 | uid;
        Bucket& bucket = m_buckets[b];
        for (uint32_t i = bucket.first; i < bucket.end; ++i)
        {
            const Entry entry = bucket.entries[i];
            if (entry.order != order || m_nodes[entry.node].ts != ts)
            {
                continue;
            }
            // Keeps the others' order: a sorted bucket stays sorted.
            std::copy(bucket.entries + i + 1, bucket.entries + bucket.end, bucket.entries + i);
            // (The earliest event's entry, if known, is still entries[first].)
            if (--bucket.end == bucket.first)
            {
                Emptied(b);
            }
            FreeNode(entry.node);
            --m_n;
            return true;
        }
        return false;
    }

  private:
    static constexpr uint32_t kNil = OccupancyBitmap<kBuckets>::kNone;

    /// An event where it waits: one cache line each (a node that straddled two lines
    /// cost two loads when cold).
    struct alignas(64) Node
    {
        uint64_t ts;       ///< time stamp
        uint32_t next;     ///< next node of the free list, or kNil
        uint32_t context;  ///< its context
        EventImpl* impl;   ///< the event
        const void* hint;  ///< what it reads first (PrefetchBudget::kFirstHintLines lines), or null
        const void* hint2; ///< what it reads next (SetSecondHintLines), or null
        const void* hint3; ///< what it reads after those (kThirdHintLines lines), or null
        const void* hint4; ///< what its warm-up reads (kFourthHintLines lines), or null
        bool direct;       ///< a DirectEvent
    };

    /// An event in its bucket: its order there (time stamp's low bits, uid) and node.
    struct Entry
    {
        uint64_t order;
        uint32_t node;
    };

    /// Whether entry \p a runs before entry \p b of the same bucket (a type, not a
    /// function pointer, so that the sort and the search inline it).
    struct Before
    {
        bool operator()(const Entry& a, const Entry& b) const
        {
            return a.order < b.order;
        }
    };

    /// A bucket: its events are entries[first, end), in order unless its m_unsorted bit
    /// is set; entries before first were popped. An empty bucket holds no array (it gives
    /// it back to the pool as it empties).
    struct Bucket
    {
        Entry* entries = nullptr;
        uint32_t first = 0;
        uint32_t end = 0;
        uint32_t capacity = 0;
    };

    /// PrefetchNext's loads after the earliest event's, whose bucket is \p bucket (the
    /// cursor's), from its entry \p i (the next after the earliest, maybe its end).
    __attribute__((always_inline)) void PrefetchAfter(const Bucket* bucket, uint32_t i)
    {
        // The event after the earliest (a load that takes longer than one event still
        // arrives in time): the next of its bucket, or the first of the next non-empty one.
        if (i == bucket->end)
        {
            const uint32_t b =
                m_nonEmpty.FirstSetCircular((static_cast<uint32_t>(m_cursor) + 1) & (kBuckets - 1));
            if (b == kNil)
            {
                return;
            }
            bucket = &m_buckets[b];
            i = bucket->first;
        }
        const uint32_t after = bucket->entries[i].node;
        Prefetch(m_nodes[after]);
        m_prefetched = after;
        // And the node of the event after that, whose hints are read here next time:
        // otherwise that read waits for a node pushed long ago.
        if (i + 1 < bucket->end)
        {
            PrefetchLine(&m_nodes[bucket->entries[i + 1].node]);
        }
    }

    /// Buckets of at most this many events are kept in order as events arrive (a short
    /// insertion costs less than a sort); longer ones are sorted when the cursor gets there.
    static constexpr uint32_t kShortBucket = 16;

    /// The smallest array, in entries (two cache lines), and the pools' size classes.
    static constexpr uint32_t kMinLog2 = 3;
    static constexpr uint32_t kClasses = 32 - kMinLog2;

    /// The earliest event's entry (not empty), found from the cursor if not known.
    const Entry* Head()
    {
        if (m_head == nullptr)
        {
            const uint32_t b = FindNext();
            Bucket& bucket = m_buckets[b];
            if ((m_unsorted[b / 64] >> (b % 64)) & 1)
            {
                m_unsorted[b / 64] &= ~(uint64_t(1) << (b % 64));
                std::sort(bucket.entries + bucket.first, bucket.entries + bucket.end, Before{});
            }
            m_head = bucket.entries + bucket.first;
        }
        return m_head;
    }

    /**
     * Push's other cases: \p entry, of bucket number \p bucketOf (index \p b), goes
     * into an empty bucket, a full one, or before events already there.
     */
    __attribute__((noinline)) void Place(Bucket& bucket,
                                         uint32_t b,
                                         uint64_t bucketOf,
                                         const Entry& entry)
    {
        const bool consumed = bucketOf == m_cursor && m_head != nullptr;
        if (bucket.first == bucket.end)
        {
            TakeArray(bucket);
            bucket.entries[bucket.end++] = entry;
            m_nonEmpty.Set(b);
        }
        else
        {
            if (bucket.end == bucket.capacity)
            {
                Grow(bucket);
            }
            Entry* entries = bucket.entries;
            if (entries[bucket.end - 1].order < entry.order)
            {
                entries[bucket.end++] = entry;
            }
            else if (bucket.end - bucket.first <= kShortBucket)
            {
                // Under a uid reserved before events already here, in a short bucket: insert
                // in order, moving the later entries up one by one from the end (a few
                // entries: a call to memmove and a binary search's mispredicted branches
                // cost more). In a bucket still to be sorted, anywhere before its last entry
                // will do.
                uint32_t i = bucket.end;
                do
                {
                    entries[i] = entries[i - 1];
                    --i;
                } while (i > bucket.first && entry.order < entries[i - 1].order);
                entries[i] = entry;
                ++bucket.end;
            }
            else if (consumed)
            {
                // The same in the long bucket being consumed (sorted, and hot), where the
                // move can be long: a binary search and one memmove, which cost less than
                // moving many entries one by one.
                Entry* at =
                    std::upper_bound(entries + bucket.first, entries + bucket.end, entry, Before{});
                std::copy_backward(at, entries + bucket.end, entries + bucket.end + 1);
                *at = entry;
                ++bucket.end;
            }
            else
            {
                // Under a uid reserved before events already here, in a long later bucket:
                // append, and sort the bucket once, when the cursor reaches it (Head).
                entries[bucket.end++] = entry;
                m_unsorted[b / 64] |= uint64_t(1) << (b % 64);
            }
        }
        if (consumed)
        {
            // The cursor's bucket (its array may have moved, the entry may be first).
            m_head = bucket.entries + bucket.first;
        }
        else if (bucketOf < m_cursor)
        {
            // Before the cursor (the earliest event's bucket, if it is known): the cursor
            // must precede every event, and this one, alone in its bucket, is the earliest.
            m_cursor = bucketOf;
            if (m_head != nullptr)
            {
                m_head = bucket.entries;
            }
        }
    }

    /// Bucket \p b is empty now: its array goes back to the pool, its bits are cleared,
    /// and if it was the cursor's the earliest event is no longer known.
    void Emptied(uint32_t b)
    {
        Bucket& bucket = m_buckets[b];
        GiveArray(bucket);
        m_unsorted[b / 64] &= ~(uint64_t(1) << (b % 64));
        m_nonEmpty.Clear(b);
        if (b == (static_cast<uint32_t>(m_cursor) & (kBuckets - 1)))
        {
            m_head = nullptr;
        }
    }

    /// Give \p bucket (empty, which holds no array) the smallest array.
    void TakeArray(Bucket& bucket)
    {
        bucket.capacity = 1u << kMinLog2;
        bucket.entries = NewArray(bucket.capacity);
    }

    /// Return \p bucket's array to the pool.
    void GiveArray(Bucket& bucket)
    {
        FreeArray(bucket.entries, bucket.capacity);
        bucket.entries = nullptr;
        bucket.first = bucket.end = bucket.capacity = 0;
    }

    /// Move \p bucket's events to an array twice as large (they start at its beginning).
    void Grow(Bucket& bucket)
    {
        const uint32_t capacity = bucket.capacity * 2;
        Entry* entries = NewArray(capacity);
        std::copy(bucket.entries + bucket.first, bucket.entries + bucket.end, entries);
        FreeArray(bucket.entries, bucket.capacity);
        bucket.entries = entries;
        bucket.end -= bucket.first;
        bucket.first = 0;
        bucket.capacity = capacity;
    }

    /// An array of \p capacity entries (a power of two, at least 2^kMinLog2): the one
    /// freed last of that size, else a new one.
    Entry* NewArray(uint32_t capacity)
    {
        std::vector<Entry*>& pool = m_arrays[__builtin_ctz(capacity) - kMinLog2];
        if (pool.empty())
        {
            return new Entry[capacity];
        }
        Entry* entries = pool.back();
        pool.pop_back();
        return entries;
    }

    /// Back to the pool of its size: \p entries, of \p capacity entries.
    void FreeArray(Entry* entries, uint32_t capacity)
    {
        m_arrays[__builtin_ctz(capacity) - kMinLog2].push_back(entries);
    }

    /// The first non-empty bucket from the cursor, which moves there (not empty).
    uint32_t FindNext()
    {
        const uint32_t from = static_cast<uint32_t>(m_cursor) & (kBuckets - 1);
        const uint32_t b = m_nonEmpty.FirstSetCircular(from);
        m_cursor += (b - from) & (kBuckets - 1);
        return b;
    }

    uint32_t NewNode()
    {
        if (m_free != kNil)
        {
            const uint32_t n = m_free;
            m_free = m_nodes[n].next;
            return n;
        }
        m_nodes.emplace_back();
        return static_cast<uint32_t>(m_nodes.size() - 1);
    }

    void FreeNode(uint32_t n)
    {
        m_nodes[n].next = m_free;
        m_free = n;
    }

    void Prefetch(const Node& v) const
    {
        PrefetchLines(v.impl, PrefetchBudget::kObjectLines);
        if (v.hint != nullptr)
        {
            PrefetchLines(v.hint, PrefetchBudget::kFirstHintLines);
        }
        if (v.hint2 != nullptr)
        {
            PrefetchLinesJump(v.hint2, m_hint2Lines);
        }
        if (v.hint3 != nullptr)
        {
            PrefetchLines(v.hint3, PrefetchBudget::kThirdHintLines);
        }
        if (v.hint4 != nullptr)
        {
            PrefetchLines(v.hint4, PrefetchBudget::kFourthHintLines);
        }
    }

    uint32_t m_shift;              ///< a bucket spans 2^m_shift time steps
    uint64_t m_lowMask;            ///< a time stamp's bits within its bucket
    uint64_t m_cursor = 0;         ///< a bucket number (time stamp >> m_shift) no event precedes
    std::size_t m_n = 0;           ///< events held
    std::vector<Bucket> m_buckets; ///< by time stamp >> m_shift, modulo kBuckets
    OccupancyBitmap<kBuckets> m_nonEmpty; ///< bucket b is not empty
    std::vector<uint64_t> m_unsorted;     ///< bit b: bucket b's entries are out of order
    std::vector<Node> m_nodes;            ///< the events, by node index
    uint32_t m_free = kNil;               ///< the first free node (free nodes chain by next)
    /// Free arrays by size class (2^(kMinLog2 + class) entries), last freed last.
    std::vector<Entry*> m_arrays[kClasses];
    /// The earliest event's entry (the first of the cursor's bucket, sorted), or null if
    /// not known.
    Entry* m_head = nullptr;
    /// The node whose event PrefetchNext prefetched as the one after the earliest (a
    /// hint only: if its node was freed and reused since, one prefetch is skipped).
    uint32_t m_prefetched = kNil;
    uint32_t m_hint2Lines = 0; ///< SetSecondHintLines
};

} // namespace ns3

#endif /* RDMA_EVENT_WHEEL_H */
