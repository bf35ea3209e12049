/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SIMULATOR_IMPL_H
#define RDMA_SIMULATOR_IMPL_H

#include "ns3/event-impl.h"
#include "ns3/ns3-compat.h"
#include "ns3/rdma-sim.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/split-event-queue.h"

#include <list>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The module's event core: ns-3's DefaultSimulatorImpl semantics on the module's
 * SplitEventQueue, plus events scheduled under a uid reserved earlier.
 *
 * Events run in exactly the order DefaultSimulatorImpl runs them (time stamp, then the
 * order in which they were scheduled), so results are the same; only the cost differs:
 * the queue is inline (no virtual scheduler call, no allocation per event): a timing
 * wheel for events due within kNearHorizonUs (10 us) of when they are scheduled, a heap
 * for the others
 * (see SplitEventQueue),
 * and there is no logging or hook per event.
 *
 * Its addition is the reserved uid. A link keeps its frames in flight in its own FIFO
 * and holds one event, for the earliest arrival. When a frame is sent, the link takes
 * the uid that ns-3 would have given the frame's own arrival event (ReserveUid); when the
 * frame becomes the FIFO's head, its arrival is scheduled under that uid
 * (ScheduleReserved). So the queue holds one event per busy link instead of one per frame
 * in flight, and every event still runs in the order it would have run with one event
 * per frame.
 *
 * The scenario runner makes it the simulator implementation (`simulator.scheduler`
 * `rdma`, the default); the module also works on any other implementation, without
 * reserved uids (see Active()).
 */
class RdmaSimulatorImpl final : public SimulatorImpl
{
  public:
    static TypeId GetTypeId();
    RdmaSimulatorImpl();
    ~RdmaSimulatorImpl() override;

    /// When Run uses one of its aids against cache misses (the PortPrefetch and WarmNext
    /// attributes).
    enum CacheAid
    {
        AID_AUTO,   ///< when the ports' hot fields exceed this core's L2 cache
        AID_ALWAYS, ///< always
        AID_NEVER,  ///< never
    };

    /// \return whether Run loads the ports' hot fields ahead of their events: as the
    ///         PortPrefetch attribute says, for the ports that exist now
    bool LoadsPortState() const;

    /// \return whether Run warms the next event while the one before it runs
    ///         (FabricLayout::Warm): as the WarmNext attribute says, for the ports that
    ///         exist now
    bool WarmsNext() const;

    /// The simulator implementation in use if it is an RdmaSimulatorImpl, else nullptr.
    static RdmaSimulatorImpl* Active()
    {
        return s_active;
    }

    /// Take the uid that the next scheduled event would get, for ScheduleReserved.
    uint32_t ReserveUid()
    {
        return m_clock.TakeUid(m_clock.currentContext);
    }

    /**
     * Schedule \p event at the absolute time stamp \p ts (not before now) under the uid
     * \p uid from ReserveUid (each used once). Takes over one reference of \p event.
     * \p hints are the data the event reads first (see EventWheel::Push): the simulator
     * starts loading them into the cache while the event before it runs. They change
     * nothing else. A DirectEvent (known from \p event's type) is run by
     * DirectEvent::Fire.
     */
    template <class E>
    void ScheduleReserved(uint64_t ts,
                          uint32_t uid,
                          uint32_t context,
                          E* event,
                          const EventHints& hints = EventHints())
    {
        static_assert(std::is_base_of_v<EventImpl, E>, "an event");
        m_events.Push(Scheduler::Event{event, Scheduler::EventKey{ts, uid, context}},
                      m_clock.currentTs,
                      hints,
                      std::is_base_of_v<DirectEvent, E>);
    }

    /// The time stamp of the event running now (ns-3 time steps).
    uint64_t NowTs() const
    {
        return m_clock.currentTs;
    }

    /// \p ns nanoseconds in time steps, NanoSeconds(ns).GetTimeStep(), without building a
    /// Time when this core runs and a nanosecond is a whole number of steps (a
    /// multiplication): a port converts every frame's serialization time.
    static uint64_t NsToSteps(uint64_t ns)
    {
        return RdmaSim::NsToSteps(ns);
    }

    /// GetContext(), inline (the context of the event running now): a port's events read
    /// it at every frame.
    uint32_t CurrentContext() const
    {
        return m_clock.currentContext;
    }

    /// The uid of the event running now.
    uint32_t CurrentUid() const
    {
        return m_clock.currentUid;
    }

    /**
     * Simulator::Now(), the same value. When this core runs, it is read from it
     * directly: Simulator::Now() goes through the simulator singleton, its log checks
     * and a virtual call, and the NIC asks for the time several times per frame.
     */
    static Time CurrentTime()
    {
        return RdmaSim::Now();
    }

    /// CurrentTime() in picoseconds, without building a Time when this core runs.
    static uint64_t CurrentPs()
    {
        return RdmaSim::NowPs();
    }

    /// \p id.IsRunning(), the same answer, read directly when this core runs (as
    /// CurrentTime).
    static bool IsRunning(const EventId& id)
    {
        return s_active != nullptr ? !s_active->IsExpiredInline(id) : !id.IsExpired();
    }

    // SimulatorImpl
    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    compat::SimulatorStopResult Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

  protected:
    void DoDispose() override;

  private:
    /// Events due less than this many microseconds after they are scheduled go to the
    /// timing wheel, the others to the heap (SplitEventQueue). Frame arrivals and ends of
    /// transmission, nearly every event, are due within a link's delay plus a frame's
    /// time, a few microseconds in a datacenter; flow starts, timeouts and samplers are
    /// usually farther off, and would only crowd the wheel's turn.
    static constexpr int64_t kNearHorizonUs = 10;
    /// The cache AtScale compares the ports' hot bytes with when the system does not
    /// report this core's L2 size (1 MiB: the L2 per core of current server CPUs).
    static constexpr int64_t kDefaultL2Bytes = int64_t(1) << 20;

    static RdmaSimulatorImpl* s_active; ///< the live instance, if any

    /// IsExpired(\p id), inline but for destroy events.
    bool IsExpiredInline(const EventId& id) const
    {
        if (id.GetUid() == EventId::UID::DESTROY)
        {
            return IsExpired(id);
        }
        return id.PeekEventImpl() == nullptr || id.GetTs() < m_clock.currentTs ||
               (id.GetTs() == m_clock.currentTs && id.GetUid() <= m_clock.currentUid) ||
               id.PeekEventImpl()->IsCancelled();
    }

    SplitEventQueue m_events; ///< near (within kNearHorizonUs of scheduling) and far events
    std::list<EventId> m_destroyEvents;
    bool m_stop;
    uint64_t m_eventCount;
    /// The next uid, the running event's key and the time resolution (RdmaSim reads
    /// them inline through RdmaSim::s_clock while this core is in use); its loadingPorts
    /// is LoadsPortState() when Run began.
    RdmaSimClock m_clock;
    CacheAid m_portPrefetch; ///< the PortPrefetch attribute
    CacheAid m_warmNext;     ///< the WarmNext attribute

    /// The order of the events of one instant (the TieOrder attribute).
    enum TieOrder
    {
        TIE_FIFO,    ///< in the order they were scheduled (as ns-3's simulators)
        TIE_BY_NODE, ///< by the node they are for, then in their order for it
    };

    TieOrder m_tieOrder;
    std::vector<uint32_t> m_fieldSeq; ///< TIE_BY_NODE: RdmaSimClock::fieldSeq
    /// TIE_BY_NODE: give every node its field of uids (at the first Run: the nodes exist).
    void OrderByNode();
    /// Whether the fabric's state is likely cold (AID_AUTO's test).
    static bool AtScale();
    /// One event of the loop: the earliest, run (rdma-simulator-step.h).
    template <bool kWarm>
    void Step();
    /// Run's loop, warming the next event (FabricLayout::Warm) or not.
    template <bool kWarm>
    void RunEvents();
    /// Run over MPI ranks (RdmaRanks::OwnEngine): windows of time all ranks agree on
    /// (RdmaRanks::Grant), each run as RunEvents up to its end (rdma-simulator-windows.cc,
    /// a unit of its own, so that the serial loop is compiled as it was alone).
    template <bool kWarm>
    void RunWindows();
    uint64_t m_granted = 0; ///< over ranks: the end of the current window
};

} // namespace ns3

#endif /* RDMA_SIMULATOR_IMPL_H */
