/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The module's event core: EventHeap, EventWheel, SplitEventQueue and RdmaScheduler order
 * events exactly as ns-3's MapScheduler (time stamp, then uid); RdmaSimulatorImpl runs events in
 * the order DefaultSimulatorImpl does, including events scheduled later under a reserved uid.
 */
#include "ns3/event-heap.h"
#include "ns3/event-wheel.h"
#include "ns3/global-value.h"
#include "ns3/make-event.h"
#include "ns3/map-scheduler.h"
#include "ns3/rdma-scheduler.h"
#include "ns3/rdma-simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/split-event-queue.h"
#include "ns3/string.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <type_traits>
#include <vector>

using namespace ns3;

namespace
{

/// A random mix of inserts, removals of the earliest and removals by uid, applied to
/// \p a and \p b: every removed event must be the same. Time stamps fall within
/// \p spread steps after "now"; with \p reserve, one insert in four uses a uid taken
/// earlier (as RdmaSimulatorImpl::ScheduleReserved does), older than events already in.
void
CompareSchedulers(Scheduler& a,
                  Scheduler& b,
                  uint32_t seed,
                  uint64_t spread = 50,
                  bool reserve = false)
{
    std::mt19937 rng(seed);
    std::vector<Scheduler::Event> live;
    std::vector<uint32_t> reserved;
    uint32_t uid = 4; // ns-3's first valid uid
    uint64_t now = 0;
    for (int step = 0; step < 20000; ++step)
    {
        const uint32_t op = rng() % 10;
        if (reserve && rng() % 8 == 0)
        {
            reserved.push_back(uid++);
        }
        if (op < 6 || live.empty())
        {
            // Time stamps from a small range, so that many events share one.
            uint32_t u = uid++;
            if (reserve && !reserved.empty() && rng() % 4 == 0)
            {
                const std::size_t r = rng() % reserved.size();
                u = reserved[r];
                reserved.erase(reserved.begin() + r);
            }
            Scheduler::Event ev{nullptr, Scheduler::EventKey{now + rng() % spread, u, 0}};
            a.Insert(ev);
            b.Insert(ev);
            live.push_back(ev);
        }
        else if (op < 9)
        {
            ASSERT_FALSE(a.IsEmpty());
            const Scheduler::Event x = a.RemoveNext();
            const Scheduler::Event y = b.RemoveNext();
            ASSERT_EQ(x.key.m_ts, y.key.m_ts) << "step " << step;
            ASSERT_EQ(x.key.m_uid, y.key.m_uid) << "step " << step;
            ASSERT_GE(x.key.m_ts, now) << "step " << step;
            now = x.key.m_ts;
            live.erase(std::find_if(live.begin(), live.end(), [&x](const Scheduler::Event& e) {
                return e.key.m_uid == x.key.m_uid;
            }));
        }
        else
        {
            const std::size_t i = rng() % live.size();
            a.Remove(live[i]);
            b.Remove(live[i]);
            live.erase(live.begin() + i);
        }
    }
    while (!a.IsEmpty())
    {
        ASSERT_FALSE(b.IsEmpty());
        ASSERT_EQ(a.RemoveNext().key.m_uid, b.RemoveNext().key.m_uid);
    }
    EXPECT_TRUE(b.IsEmpty());
}

} // namespace

TEST(EventCore, RdmaSchedulerOrdersLikeMapScheduler)
{
    for (uint32_t seed = 1; seed <= 3; ++seed)
    {
        Ptr<Scheduler> rdma = CreateObject<RdmaScheduler>();
        Ptr<Scheduler> map = CreateObject<MapScheduler>();
        CompareSchedulers(*rdma, *map, seed);
    }
}

namespace
{
/**
 * A SplitEventQueue or an EventWheel behind the Scheduler interface ("now" = the last
 * removed time stamp). A wheel checks that every event is within its span of now.
 */
template <class Queue>
class QueueScheduler : public Scheduler
{
  public:
    explicit QueueScheduler(Queue queue)
        : m_queue(std::move(queue))
    {
    }

    void Insert(const Event& ev) override
    {
        if constexpr (std::is_same_v<Queue, EventWheel>)
        {
            ASSERT_LT(ev.key.m_ts - m_now, m_queue.Span());
            m_queue.Push(ev);
        }
        else
        {
            m_queue.Push(ev, m_now);
        }
    }

    bool IsEmpty() const override
    {
        return m_queue.Empty();
    }

    Event PeekNext() const override
    {
        return Event{};
    }

    Event RemoveNext() override
    {
        const Event ev = m_queue.Pop();
        m_now = ev.key.m_ts;
        return ev;
    }

    void Remove(const Event& ev) override
    {
        ASSERT_TRUE(m_queue.Erase(ev.key.m_ts, ev.key.m_uid));
    }

  private:
    Queue m_queue;
    uint64_t m_now = 0;
};

using SplitQueueScheduler = QueueScheduler<SplitEventQueue>;
using WheelScheduler = QueueScheduler<EventWheel>;
} // namespace

TEST(EventCore, SplitQueueOrdersLikeMapScheduler)
{
    // Horizons below, inside and above the spread of time stamps (0..49 after "now"):
    // near and far events interleave in every way.
    for (uint64_t horizon : {1u, 10u, 25u, 1000u})
    {
        Ptr<Scheduler> split = CreateObject<SplitQueueScheduler>(SplitEventQueue(horizon));
        Ptr<Scheduler> map = CreateObject<MapScheduler>();
        CompareSchedulers(*split, *map, 7 + horizon);
        Ptr<Scheduler> splitReserving = CreateObject<SplitQueueScheduler>(SplitEventQueue(horizon));
        Ptr<Scheduler> mapReserving = CreateObject<MapScheduler>();
        CompareSchedulers(*splitReserving, *mapReserving, 17 + horizon, 50, true);
    }
    // Far events that carry time more than a turn of the wheel (16,384 steps) ahead.
    Ptr<Scheduler> split = CreateObject<SplitQueueScheduler>(SplitEventQueue(10000));
    Ptr<Scheduler> map = CreateObject<MapScheduler>();
    CompareSchedulers(*split, *map, 11, 40000, true);
}

TEST(EventCore, SplitQueueKeepsOrderAfterAFarEventCarriesTimeOverATurn)
{
    // The wheel has 16,384 one-step buckets here. A near event at 100, then a far one at
    // 16,400 (bucket 16): near events pushed then at 16,500 and 16,450 (buckets 116 and
    // 66) must come out by time, which a scan from bucket 100 (the last near event's)
    // would not give.
    SplitEventQueue q(10000);
    q.Push({nullptr, {100, 1, 0}}, 0);
    q.Push({nullptr, {16400, 2, 0}}, 0);
    EXPECT_EQ(q.Pop().key.m_uid, 1u);
    EXPECT_EQ(q.Pop().key.m_uid, 2u);
    q.Push({nullptr, {16500, 3, 0}}, 16400);
    q.Push({nullptr, {16450, 4, 0}}, 16400);
    EXPECT_EQ(q.Pop().key.m_ts, 16450u);
    EXPECT_EQ(q.Pop().key.m_ts, 16500u);
    EXPECT_TRUE(q.Empty());
}

TEST(EventCore, WheelOrdersLikeMapSchedulerAcrossTurnsAndReservedUids)
{
    // Buckets of one time step (many events share one), and of 2^k steps (a bucket holds
    // several time stamps, ordered within it); time stamps spread over most of a turn, so
    // that the cursor goes round the wheel many times; uids reserved earlier than events
    // already in a bucket. Each against MapScheduler.
    struct Case
    {
        uint64_t horizon;
        uint64_t spread;
    };

    for (const Case c : {Case{10000, 50},
                         Case{10000, 9000},
                         Case{EventWheel::kBuckets - 1, EventWheel::kBuckets - 1},
                         Case{10000000, 200},
                         Case{10000000, 9000000}})
    {
        for (bool reserve : {false, true})
        {
            Ptr<Scheduler> wheel = CreateObject<WheelScheduler>(EventWheel::ForHorizon(c.horizon));
            Ptr<Scheduler> map = CreateObject<MapScheduler>();
            CompareSchedulers(*wheel, *map, 3 + c.spread % 97 + reserve, c.spread, reserve);
        }
    }
}

TEST(EventCore, WheelOrdersCrowdedBucketsFilledOutOfOrder)
{
    // A large fabric's arrivals: hundreds of events due in the same nanosecond, most
    // under uids reserved long before (the wheel appends those to their bucket and sorts
    // it when the cursor gets there), mixed with fresh uids and with several time stamps
    // per bucket; then more reserved uids pushed into the bucket being consumed (inserted
    // in order there). Every event must come out by (time stamp, uid).
    EventWheel wheel = EventWheel::ForHorizon(10000000); // buckets of 1,024 steps
    std::mt19937 rng(5);
    std::vector<std::pair<uint64_t, uint32_t>> expected;
    uint32_t freshUid = 100000;
    for (uint32_t i = 0; i < 2000; ++i)
    {
        // Three buckets ahead of "now" (0), four time stamps in each.
        const uint64_t ts = 5000 + 1024 * (rng() % 3) + 7 * (rng() % 4);
        const uint32_t uid = rng() % 3 != 0 ? 99999 - i : freshUid++;
        wheel.Push({nullptr, {ts, uid, 0}});
        expected.emplace_back(ts, uid);
    }
    std::sort(expected.begin(), expected.end());
    std::vector<std::pair<uint64_t, uint32_t>> got;
    for (uint32_t i = 0; i < 500; ++i)
    {
        const Scheduler::Event ev = wheel.Pop();
        got.emplace_back(ev.key.m_ts, ev.key.m_uid);
    }
    // Into the bucket being consumed, at or after the time popped last: reserved uids
    // below and above those still there.
    const uint64_t now = got.back().first;
    for (uint32_t i = 0; i < 200; ++i)
    {
        const uint64_t ts = now + rng() % 3;
        const uint32_t uid = 2000 + 1000 * (i % 2) + i;
        wheel.Push({nullptr, {ts, uid, 0}});
        expected.emplace_back(ts, uid);
    }
    std::sort(expected.begin() + 500, expected.end());
    while (!wheel.Empty())
    {
        const Scheduler::Event ev = wheel.Pop();
        got.emplace_back(ev.key.m_ts, ev.key.m_uid);
    }
    EXPECT_EQ(got, expected);
}

TEST(EventCore, WheelSpansItsHorizonWithTheNarrowestBuckets)
{
    EXPECT_EQ(EventWheel::ForHorizon(10000).Span(), uint64_t(EventWheel::kBuckets - 1));
    EXPECT_EQ(EventWheel::ForHorizon(EventWheel::kBuckets).Span(),
              uint64_t(EventWheel::kBuckets - 1) * 2);
    for (uint64_t horizon : {1ull, 16383ull, 16384ull, 10000000ull, 1ull << 40})
    {
        const uint64_t span = EventWheel::ForHorizon(horizon).Span();
        EXPECT_GE(span, horizon);
        if (span > EventWheel::kBuckets - 1)
        {
            // Buckets half as wide would span span / 2: too little.
            EXPECT_LT(span / 2, horizon) << "buckets twice as wide as needed";
        }
    }
}

TEST(EventCore, HeapKeepsTimeStampsBeyondThirtyTwoBits)
{
    // The order key packs (time stamp, uid) into 128 bits: a time stamp above 2^32
    // (4.3 s at 1 ns resolution) must still order first by time.
    EventHeap heap;
    const uint64_t late = (uint64_t(1) << 40) + 7;
    heap.Push({nullptr, {late, 5, 0}});
    heap.Push({nullptr, {late - 1, 9, 0}});
    heap.Push({nullptr, {late, 3, 0}});
    EXPECT_EQ(heap.Pop().key.m_uid, 9u);
    const Scheduler::Event second = heap.Pop();
    EXPECT_EQ(second.key.m_uid, 3u);
    EXPECT_EQ(second.key.m_ts, late);
    EXPECT_EQ(heap.Pop().key.m_uid, 5u);
    EXPECT_TRUE(heap.Empty());
}

TEST(EventCore, HeapOrdersByUidNotContextAndReturnsBoth)
{
    // The context shares the order key's lowest bits: it must never decide the order
    // (uids do), and every event must come back with its own context and other
    // fields intact, across the heap's growth.
    EventHeap heap;
    const uint32_t n = 5000;
    for (uint32_t k = 0; k < n; ++k)
    {
        // In a scrambled order (7 is prime to n); same time stamp for pairs, contexts
        // decreasing as uids increase.
        const uint32_t i = (k * 7) % n;
        heap.Push({nullptr, {i / 2, 100 + i, 0xffffffffu - i}});
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        ASSERT_FALSE(heap.Empty());
        const Scheduler::Event ev = heap.Pop();
        ASSERT_EQ(ev.key.m_uid, 100 + i);
        ASSERT_EQ(ev.key.m_ts, i / 2);
        ASSERT_EQ(ev.key.m_context, 0xffffffffu - i);
    }
    EXPECT_TRUE(heap.Empty());
}

namespace
{
std::vector<int> g_order;

void
Record(int id)
{
    g_order.push_back(id);
}

/// Schedules ids 0..5 at the same and different times, with a cancel and a remove;
/// under RdmaSimulatorImpl also one event under a uid reserved before others.
std::vector<int>
RunScript(bool reserve)
{
    g_order.clear();
    Simulator::Schedule(NanoSeconds(10), &Record, 0);
    uint32_t reserved = 0;
    RdmaSimulatorImpl* sim = RdmaSimulatorImpl::Active();
    if (reserve)
    {
        reserved = sim->ReserveUid(); // the slot of the event "1"
    }
    else
    {
        Simulator::Schedule(NanoSeconds(10), &Record, 1);
    }
    Simulator::Schedule(NanoSeconds(10), &Record, 2);
    EventId cancelled = Simulator::Schedule(NanoSeconds(5), &Record, 99);
    EventId removed = Simulator::Schedule(NanoSeconds(7), &Record, 98);
    Simulator::Schedule(NanoSeconds(3), &Record, 3);
    Simulator::ScheduleNow(&Record, 4);
    cancelled.Cancel();
    Simulator::Remove(removed);
    if (reserve)
    {
        // Scheduled last, under the uid taken before "2": runs between "0" and "2".
        sim->ScheduleReserved(10, reserved, 0, MakeEvent(&Record, 1));
    }
    Simulator::Schedule(NanoSeconds(10), &Record, 5);
    Simulator::Run();
    Simulator::Destroy();
    return g_order;
}
} // namespace

TEST(EventCore, RdmaSimulatorImplRunsEventsInDefaultOrder)
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    const std::vector<int> reference = RunScript(false);
    ASSERT_EQ(reference, (std::vector<int>{4, 3, 0, 1, 2, 5}));

    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
    EXPECT_EQ(RunScript(false), reference);
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
    EXPECT_EQ(RunScript(true), reference) << "an event under a reserved uid runs in its slot";
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
}

namespace
{
/// Events whose state the probes check: one run already, one running, one pending, one
/// cancelled, one removed, one scheduled now, and an empty EventId.
struct ClockProbeState
{
    std::vector<EventId> ids;
    uint32_t probes = 0;
    uint32_t mismatches = 0;
};

ClockProbeState g_probe;

void
Noop()
{
}

/// Compares the fast clock and pending-check with ns-3's own at the current event.
void
ProbeClock()
{
    ++g_probe.probes;
    if (RdmaSimulatorImpl::CurrentTime() != Simulator::Now() ||
        RdmaSimulatorImpl::CurrentPs() != static_cast<uint64_t>(Simulator::Now().GetPicoSeconds()))
    {
        ++g_probe.mismatches;
    }
    for (const EventId& id : g_probe.ids)
    {
        if (RdmaSimulatorImpl::IsRunning(id) != !id.IsExpired())
        {
            ++g_probe.mismatches;
        }
    }
}

/// Probes at 0, 3 ns (twice: before and after the event it checks runs) and 7 ns, with
/// events pending, cancelled, removed and run among them; returns how many probes ran.
uint32_t
RunClockScript()
{
    g_probe = ClockProbeState{};
    ProbeClock(); // before Run: time 0, no event running
    g_probe.ids.push_back(EventId());
    g_probe.ids.push_back(Simulator::Schedule(NanoSeconds(3), &ProbeClock));
    g_probe.ids.push_back(Simulator::Schedule(NanoSeconds(3), &Noop));
    g_probe.ids.push_back(Simulator::Schedule(NanoSeconds(3), &ProbeClock));
    g_probe.ids.push_back(Simulator::Schedule(NanoSeconds(5), &Noop));
    g_probe.ids.back().Cancel();
    EventId removed = Simulator::Schedule(NanoSeconds(6), &Noop);
    g_probe.ids.push_back(removed);
    Simulator::Remove(removed);
    g_probe.ids.push_back(Simulator::Schedule(NanoSeconds(7), &ProbeClock));
    g_probe.ids.push_back(Simulator::Schedule(NanoSeconds(9), &Noop));
    g_probe.ids.push_back(Simulator::ScheduleNow(&ProbeClock));
    Simulator::Stop(NanoSeconds(8)); // the 9 ns event stays pending
    Simulator::Run();
    ProbeClock(); // after Run: the last event's time
    Simulator::Destroy();
    return g_probe.probes;
}
} // namespace

TEST(EventCore, FastClockAndPendingCheckAgreeWithNs3)
{
    for (const char* impl : {"ns3::RdmaSimulatorImpl", "ns3::DefaultSimulatorImpl"})
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        EXPECT_EQ(RunClockScript(), 6u) << impl;
        EXPECT_EQ(g_probe.mismatches, 0u) << impl;
    }
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
}

namespace
{
/// A DirectEvent that records its id each time it runs.
class RecordingDirectEvent : public DirectEvent
{
  public:
    explicit RecordingDirectEvent(int id)
        : m_id(id)
    {
    }

  protected:
    void Notify() override
    {
        Record(m_id);
    }

  private:
    int m_id;
};
} // namespace

TEST(EventCore, DirectEventRunsOnceInItsReservedSlot)
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
    g_order.clear();
    Ptr<RecordingDirectEvent> direct = Create<RecordingDirectEvent>(1);
    Simulator::Schedule(NanoSeconds(10), &Record, 0);
    RdmaSimulatorImpl* sim = RdmaSimulatorImpl::Active();
    const uint32_t first = sim->ReserveUid();
    Simulator::Schedule(NanoSeconds(10), &Record, 2);
    const uint32_t second = sim->ReserveUid();
    Simulator::Schedule(NanoSeconds(3), &Record, 3);
    // Scheduled last, under uids taken before "2" and before "4": it runs in both
    // slots, between "0" and "2" at 10 ns, and before "4" at 20 ns.
    Simulator::Schedule(NanoSeconds(20), &Record, 4);
    direct->Ref();
    sim->ScheduleReserved(10, first, 0, PeekPointer(direct));
    direct->Ref();
    sim->ScheduleReserved(20, second, 0, PeekPointer(direct));
    Simulator::Run();
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    EXPECT_EQ(g_order, (std::vector<int>{3, 0, 1, 2, 1, 4}));
    EXPECT_EQ(direct->GetReferenceCount(), 1u) << "each run gives its reference back";
}
