/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_EVENT_WHEEL_H
#define RDMA_EVENT_WHEEL_H

#include "ns3/prefetch.h"
#include "ns3/scheduler.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A timing wheel of ns-3 scheduler events due within a bounded horizon: the
 * near events of SplitEventQueue (frame arrivals, ends of transmission).
 *
 * Orders events exactly as every ns-3 scheduler does: by time stamp, then by uid. The
 * wheel has kBuckets buckets of 2^shift time steps each; bucket b holds, as a list, the
 * events whose time stamp divided by 2^shift is b modulo kBuckets, sorted by (time stamp,
 * uid) by the time the cursor reaches it. A bitmap of non-empty buckets (and one bit per bitmap
 * word) finds the next event in a few word operations. Every event must be due less than Span()
 * time steps after "now" (the last event popped, or AdvanceTo) when it is pushed; then all events
 * in the wheel lie within one turn of the cursor (a bucket at or after now's, and at or before the
 * earliest event's), so the first non-empty bucket from the cursor holds the earliest event, which
 * is kept until it is popped or an earlier one is pushed.
 *
 * Why not a heap: on a busy fabric a heap of a few thousand events spent ~290
 * instructions per event (pop and push, two 128-bit comparisons per level); here a push
 * is an append to its bucket's list, and a pop takes a list's head. An event under a uid
 * reserved earlier than events already in its bucket is inserted in order into a bucket of
 * up to kShortBucket events or the bucket being consumed; into a longer one it is appended,
 * and the bucket is sorted once, when the cursor reaches it. On a 1,024-host fabric a bucket holds
 * hundreds of events due in the same nanosecond, and inserting each in order walked half the list,
 * one cold node per step.
 *
 * Events (object, context, hints) sit in pooled nodes reused last freed first, so a
 * push allocates nothing once the run has warmed up.
 */
class EventWheel
{
  public:
    using Event = Scheduler::Event;

    /// Cache lines loaded from an event's first hint, and from its second (Push).
    static constexpr uint32_t kHintLines = 2;
    static constexpr uint32_t kHint2Lines = 9;

    /// Buckets per turn.
    static constexpr uint32_t kBuckets = 1u << 14;

    /// A wheel whose buckets span 2^\p shift time steps each (\p shift <= 32: a node's
    /// order key holds its time stamp's low \p shift bits above the 32-bit uid).
    explicit EventWheel(uint32_t shift)
        : m_shift(shift),
          m_lowMask((uint64_t(1) << shift) - 1),
          m_buckets(kBuckets, Bucket{kNil, kNil, 0}),
          m_bits(kBuckets / 64, 0),
          m_unsorted(kBuckets / 64, 0)
    {
        m_nodes.reserve(1024);
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
     * event in the wheel is earlier). \p hint (kHintLines lines), \p hint2 (kHint2Lines)
     * and \p hint3 (one line): what it reads first (PrefetchNext); \p direct: whether it
     * is a DirectEvent, which Pop reports.
     */
    void Push(const Event& ev,
              const void* hint = nullptr,
              const void* hint2 = nullptr,
              bool direct = false,
              const void* hint3 = nullptr)
    {
        const uint64_t bucketOf = ev.key.m_ts >> m_shift;
        const uint32_t n = NewNode();
        Node* nodes = m_nodes.data();
        Node& node = nodes[n];
        node.ts = ev.key.m_ts;
        node.order = (ev.key.m_ts & m_lowMask) << 32 | ev.key.m_uid;
        node.next = kNil;
        node.context = ev.key.m_context;
        node.impl = ev.impl;
        node.hint = hint;
        node.hint2 = hint2;
        node.hint3 = hint3;
        node.direct = direct;
        const uint32_t b = static_cast<uint32_t>(bucketOf) & (kBuckets - 1);
        Bucket& bucket = m_buckets[b];
        ++m_n;
        ++bucket.count;
        if (bucket.head == kNil)
        {
            bucket.head = bucket.tail = n;
            m_bits[b / 64] |= uint64_t(1) << (b % 64);
            m_summary[b / 4096] |= uint64_t(1) << ((b / 64) % 64);
        }
        else if (nodes[bucket.tail].order < node.order)
        {
            nodes[bucket.tail].next = n;
            bucket.tail = n;
        }
        else if ((bucketOf == m_cursor && m_head != kNil) || bucket.count <= kShortBucket)
        {
            // Under a uid reserved before events already here, in the bucket being
            // consumed (sorted, and hot) or in a short one: insert in order (in a bucket
            // still to be sorted, anywhere before its tail will do).
            uint32_t* link = &bucket.head;
            while (nodes[*link].order < node.order)
            {
                link = &nodes[*link].next;
            }
            node.next = *link;
            *link = n;
        }
        else
        {
            // Under a uid reserved before events already here, in a long later bucket: append,
            // and sort the bucket once, when the cursor reaches it (Head). Walking the
            // list here cost one cold node per step, and a bucket of a large fabric
            // holds hundreds of events due in the same nanosecond.
            nodes[bucket.tail].next = n;
            bucket.tail = n;
            m_unsorted[b / 64] |= uint64_t(1) << (b % 64);
        }
        // At or before the cursor (the earliest event's bucket, if it is known): the
        // cursor must precede every event, and the earliest event may be this one.
        if (bucketOf <= m_cursor)
        {
            if (bucketOf < m_cursor)
            {
                // Alone in a bucket before the first non-empty one.
                m_cursor = bucketOf;
                m_head = m_head != kNil ? n : kNil;
            }
            else if (m_head != kNil && node.order < nodes[m_head].order)
            {
                m_head = n;
            }
        }
    }

    /**
     * The event core's time has moved to \p ts (an event not in the wheel, and not
     * after any event in it, is running): no event can be pushed before it, and pushes
     * reach up to Span() after it, so the cursor moves up to it.
     */
    void AdvanceTo(uint64_t ts)
    {
        m_cursor = std::max(m_cursor, ts >> m_shift);
    }

    /// The time stamp and uid of the earliest event (not empty): for SplitEventQueue.
    void PeekKey(uint64_t* ts, uint32_t* uid)
    {
        const Node& head = m_nodes[Head()];
        *ts = head.ts;
        *uid = static_cast<uint32_t>(head.order);
    }

    /// Remove and return the earliest event (not empty); if \p direct is given, set it
    /// to whether the event was pushed as a DirectEvent.
    Event Pop(bool* direct = nullptr)
    {
        const uint32_t n = Head();
        const uint32_t b = static_cast<uint32_t>(m_cursor) & (kBuckets - 1);
        Bucket& bucket = m_buckets[b];
        const Node& node = m_nodes[n];
        bucket.head = node.next;
        // The next of its bucket is the earliest now; if none, it is found when asked.
        m_head = node.next;
        if (bucket.head == kNil)
        {
            bucket.tail = kNil;
            ClearBit(b);
        }
        if (direct != nullptr)
        {
            *direct = node.direct;
        }
        const Event ev{
            node.impl,
            Scheduler::EventKey{node.ts, static_cast<uint32_t>(node.order), node.context}};
        FreeNode(n);
        --m_n;
        --bucket.count;
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
        const uint32_t h = Head();
        const Node& head = m_nodes[h];
        if (h != m_prefetched)
        {
            // Not prefetched as the event after the last one (it was pushed since).
            Prefetch(head);
        }
        // And the one after it (a load that takes longer than one event still arrives in
        // time): the next of its bucket, or the head of the next non-empty bucket.
        uint32_t after = head.next;
        if (after == kNil)
        {
            const uint32_t b =
                FirstSetCircular((static_cast<uint32_t>(m_cursor) + 1) & (kBuckets - 1));
            after = b != kNil ? m_buckets[b].head : kNil;
        }
        if (after != kNil)
        {
            const Node& a = m_nodes[after];
            Prefetch(a);
            m_prefetched = after;
            // And the node of the event after that, whose hints are read here next time:
            // otherwise that read waits for a node pushed long ago.
            if (a.next != kNil)
            {
                PrefetchLine(&m_nodes[a.next]);
            }
        }
    }

    /// Remove the event of time stamp \p ts and uid \p uid; false if it is not here.
    bool Erase(uint64_t ts, uint32_t uid)
    {
        const uint32_t b = static_cast<uint32_t>(ts >> m_shift) & (kBuckets - 1);
        const uint64_t order = (ts & m_lowMask) << 32 | uid;
        Bucket& bucket = m_buckets[b];
        uint32_t prev = kNil;
        for (uint32_t n = bucket.head; n != kNil; prev = n, n = m_nodes[n].next)
        {
            if (m_nodes[n].order != order || m_nodes[n].ts != ts)
            {
                continue;
            }
            (prev == kNil ? bucket.head : m_nodes[prev].next) = m_nodes[n].next;
            if (bucket.tail == n)
            {
                bucket.tail = prev;
            }
            if (bucket.head == kNil)
            {
                ClearBit(b);
            }
            if (m_head == n)
            {
                m_head = kNil;
            }
            FreeNode(n);
            --m_n;
            --bucket.count;
            return true;
        }
        return false;
    }

  private:
    static constexpr uint32_t kNil = ~0u;

    /// An event where it waits, in its bucket's list: one cache line each (a node that
    /// straddled two lines cost two loads when cold).
    struct alignas(64) Node
    {
        uint64_t ts;       ///< time stamp
        uint64_t order;    ///< its order in its bucket: (time stamp's low bits, uid)
        uint32_t next;     ///< next node of its bucket (or of the free list), or kNil
        uint32_t context;  ///< its context
        EventImpl* impl;   ///< the event
        const void* hint;  ///< what it reads first (kHintLines lines), or null
        const void* hint2; ///< what it reads next (kHint2Lines lines), or null
        const void* hint3; ///< one more line it reads, or null
        bool direct;       ///< a DirectEvent
    };

    /// A bucket's list: first and last node, kNil if empty.
    struct Bucket
    {
        uint32_t head;
        uint32_t tail;
        uint32_t count; ///< events in it
    };

    /// Buckets of at most this many events are kept in order as events arrive (a short
    /// walk costs less than a sort); longer ones are sorted when the cursor gets there.
    static constexpr uint32_t kShortBucket = 16;

    /// The earliest event's node (not empty), found from the cursor if not known.
    uint32_t Head()
    {
        if (m_head == kNil)
        {
            const uint32_t b = FindNext();
            if ((m_unsorted[b / 64] >> (b % 64)) & 1)
            {
                Sort(b);
            }
            m_head = m_buckets[b].head;
        }
        return m_head;
    }

    /// Put bucket \p b's list in order (it was appended to out of order).
    void Sort(uint32_t b)
    {
        m_unsorted[b / 64] &= ~(uint64_t(1) << (b % 64));
        Bucket& bucket = m_buckets[b];
        m_scratch.clear();
        for (uint32_t n = bucket.head; n != kNil; n = m_nodes[n].next)
        {
            m_scratch.emplace_back(m_nodes[n].order, n);
        }
        std::sort(m_scratch.begin(), m_scratch.end());
        for (std::size_t i = 0; i + 1 < m_scratch.size(); ++i)
        {
            m_nodes[m_scratch[i].second].next = m_scratch[i + 1].second;
        }
        bucket.head = m_scratch.front().second;
        bucket.tail = m_scratch.back().second;
        m_nodes[bucket.tail].next = kNil;
    }

    /// Bucket \p b is empty now.
    void ClearBit(uint32_t b)
    {
        m_unsorted[b / 64] &= ~(uint64_t(1) << (b % 64));
        m_bits[b / 64] &= ~(uint64_t(1) << (b % 64));
        if (m_bits[b / 64] == 0)
        {
            m_summary[b / 4096] &= ~(uint64_t(1) << ((b / 64) % 64));
        }
    }

    /// The first non-empty bucket from the cursor, which moves there (not empty).
    uint32_t FindNext()
    {
        const uint32_t from = static_cast<uint32_t>(m_cursor) & (kBuckets - 1);
        const uint32_t b = FirstSetCircular(from);
        m_cursor += (b - from) & (kBuckets - 1);
        return b;
    }

    /// The first non-empty bucket at or after \p from, wrapping around, or kNil.
    uint32_t FirstSetCircular(uint32_t from) const
    {
        const uint32_t b = FirstSetFrom(from);
        return b != kNil ? b : FirstSetFrom(0);
    }

    /// The first non-empty bucket at or after \p from (no wrap), or kNil.
    uint32_t FirstSetFrom(uint32_t from) const
    {
        uint32_t word = from / 64;
        const uint64_t bits = m_bits[word] & (~uint64_t(0) << (from % 64));
        if (bits != 0)
        {
            return word * 64 + __builtin_ctzll(bits);
        }
        // Whole words after it, through the summary (bit w: word w non-empty).
        ++word;
        for (uint32_t s = word / 64; s < kSummaryWords; ++s)
        {
            const uint64_t mask = s == word / 64 ? ~uint64_t(0) << (word % 64) : ~uint64_t(0);
            const uint64_t words = m_summary[s] & mask;
            if (words != 0)
            {
                const uint32_t w = s * 64 + __builtin_ctzll(words);
                return w * 64 + __builtin_ctzll(m_bits[w]);
            }
        }
        return kNil;
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

    static void Prefetch(const Node& v)
    {
        PrefetchLines(v.impl, 2);
        if (v.hint != nullptr)
        {
            PrefetchLines(v.hint, kHintLines);
        }
        if (v.hint2 != nullptr)
        {
            PrefetchLines(v.hint2, kHint2Lines);
        }
        if (v.hint3 != nullptr)
        {
            PrefetchLine(v.hint3);
        }
    }

    static constexpr uint32_t kSummaryWords = kBuckets / 64 / 64;

    uint32_t m_shift;                 ///< a bucket spans 2^m_shift time steps
    uint64_t m_lowMask;               ///< a time stamp's bits within its bucket
    uint64_t m_cursor = 0;            ///< a bucket number (time stamp >> m_shift) no event precedes
    std::size_t m_n = 0;              ///< events held
    std::vector<Bucket> m_buckets;    ///< by time stamp >> m_shift, modulo kBuckets
    std::vector<uint64_t> m_bits;     ///< bit b: bucket b is not empty
    std::vector<uint64_t> m_unsorted; ///< bit b: bucket b's list is out of order
    std::vector<std::pair<uint64_t, uint32_t>> m_scratch; ///< Sort's (order, node)
    uint64_t m_summary[kSummaryWords] = {};               ///< bit w: m_bits[w] is not zero
    std::vector<Node> m_nodes;                            ///< the events, by node index
    uint32_t m_free = kNil; ///< the first free node (free nodes chain by next)
    /// The earliest event's node (in the cursor's bucket), kNil if not known (or none).
    uint32_t m_head = kNil;
    /// The node whose event PrefetchNext prefetched as the one after the earliest (a
    /// hint only: if its node was freed and reused since, one prefetch is skipped).
    uint32_t m_prefetched = kNil;
};

} // namespace ns3

#endif /* RDMA_EVENT_WHEEL_H */
