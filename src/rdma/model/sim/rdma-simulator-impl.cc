/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/fabric-layout.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/ns3-compat.h"
#include "ns3/rdma-ranks.h"
#include "ns3/rdma-simulator-step.h"
#include "ns3/simulator.h"

#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSimulatorImpl");
NS_OBJECT_ENSURE_REGISTERED(RdmaSimulatorImpl);

RdmaSimulatorImpl* RdmaSimulatorImpl::s_active = nullptr;

namespace
{
/// Picoseconds per ns-3 time step, or 0 if a step is finer than 1 ps.
uint64_t
PsPerStep()
{
    const int64_t fs = TimeStep(1).GetFemtoSeconds();
    return fs % 1000 == 0 ? static_cast<uint64_t>(fs / 1000) : 0;
}
} // namespace

TypeId
RdmaSimulatorImpl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSimulatorImpl")
            .SetParent<SimulatorImpl>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSimulatorImpl>()
            .AddAttribute(
                "PortPrefetch",
                "Whether the event loop loads the hot fields of the port "
                "an event is for (RdmaNetDevice::kHotLines cache lines) "
                "while the event before it runs, and a switch those of "
                "the egress port as soon as it has routed a frame. Auto: when the ports' "
                "hot fields together exceed this core's L2 cache (so "
                "they are likely cold); below, the loads would only hold "
                "the cache's fill buffers. Never changes what is "
                "simulated, only the speed.",
                EnumValue(AID_AUTO),
                compat::MakeEnumAccessor(&RdmaSimulatorImpl::m_portPrefetch),
                MakeEnumChecker(AID_AUTO, "Auto", AID_ALWAYS, "Always", AID_NEVER, "Never"))
            .AddAttribute(
                "WarmNext",
                "Whether the event loop warms the next event while "
                "the one before it runs (FabricLayout::Warm): a port's "
                "end of transmission or a frame's arrival starts "
                "loading what its owner reads after the event's "
                "hints, such as the QP's controller and limiter or "
                "the switch's egress port. Auto: when the ports' hot "
                "fields together exceed this core's L2 cache, as for "
                "PortPrefetch; in the cache it costs more than it "
                "saves. Never changes what is simulated, only the "
                "speed.",
                EnumValue(AID_AUTO),
                compat::MakeEnumAccessor(&RdmaSimulatorImpl::m_warmNext),
                MakeEnumChecker(AID_AUTO, "Auto", AID_ALWAYS, "Always", AID_NEVER, "Never"))
            .AddAttribute("TieOrder",
                          "The order of events due at the same instant. Fifo: the order "
                          "they were scheduled in, as ns-3's simulators. ByNode: by the "
                          "node they are for (their context; a frame's arrival: the node "
                          "that sent it; events for no node last), "
                          "then in the order they were scheduled for it; over MPI ranks "
                          "a node's events are scheduled on its own rank in the same "
                          "order, so a run over any number of ranks runs every event in "
                          "the serial run's order. Set before the first Run (it takes "
                          "effect there, once the nodes exist).",
                          EnumValue(TIE_FIFO),
                          compat::MakeEnumAccessor(&RdmaSimulatorImpl::m_tieOrder),
                          MakeEnumChecker(TIE_FIFO, "Fifo", TIE_BY_NODE, "ByNode"));
    return tid;
}

RdmaSimulatorImpl::RdmaSimulatorImpl()
    : m_events(static_cast<uint64_t>(MicroSeconds(kNearHorizonUs).GetTimeStep())),
      m_stop(false),
      m_eventCount(0),
      m_clock{EventId::UID::VALID,
              EventId::UID::INVALID,
              0,
              Simulator::NO_CONTEXT,
              PsPerStep(),
              0,
              true,
              nullptr,
              0,
              0},
      m_portPrefetch(AID_AUTO),
      m_warmNext(AID_AUTO),
      m_tieOrder(TIE_FIFO)
{
    const uint64_t ps = m_clock.psPerStep;
    m_clock.stepsPerNs = ps != 0 && 1000 % ps == 0 ? 1000 / ps : 0;
    s_active = this;
    RdmaSim::s_clock = &m_clock;
}

RdmaSimulatorImpl::~RdmaSimulatorImpl()
{
    if (s_active == this)
    {
        s_active = nullptr;
        RdmaSim::s_clock = nullptr;
    }
}

void
RdmaSimulatorImpl::DoDispose()
{
    while (!m_events.Empty())
    {
        m_events.Pop().impl->Unref();
    }
    if (s_active == this)
    {
        s_active = nullptr;
        RdmaSim::s_clock = nullptr;
    }
    SimulatorImpl::DoDispose();
}

void
RdmaSimulatorImpl::Destroy()
{
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
    if (s_active == this)
    {
        s_active = nullptr;
        RdmaSim::s_clock = nullptr;
    }
}

void
RdmaSimulatorImpl::SetScheduler(ObjectFactory /* schedulerFactory */)
{
    // ns-3 hands every new implementation the SchedulerType global value. This one keeps
    // its events in its own queue, which orders them as every ns-3 scheduler does, so the
    // choice cannot change results; to run on another scheduler, use
    // DefaultSimulatorImpl (the runner does, for `simulator.scheduler` other than rdma).
}

uint32_t
RdmaSimulatorImpl::GetSystemId() const
{
    return RdmaRanks::Rank();
}

bool
RdmaSimulatorImpl::IsFinished() const
{
    return m_events.Empty() || m_stop;
}

RdmaSimClock* RdmaSim::s_clock = nullptr;

bool
RdmaSimulatorImpl::AtScale()
{
    // Loading a port's hot lines ahead of its event pays where the ports' hot fields
    // outgrow this core's L2 cache, so that a port's lines are likely cold when its event
    // comes. Where they fit, the loads find the lines already there: they cost
    // instructions and hold fill buffers that the loop's other loads wait for.
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    const int64_t cache = l2 > 0 ? l2 : kDefaultL2Bytes;
    return FabricLayout::PortBytes() > cache;
}

bool
RdmaSimulatorImpl::LoadsPortState() const
{
    return m_portPrefetch == AID_ALWAYS || (m_portPrefetch == AID_AUTO && AtScale());
}

bool
RdmaSimulatorImpl::WarmsNext() const
{
    return m_warmNext == AID_ALWAYS || (m_warmNext == AID_AUTO && AtScale());
}

template <bool kWarm>
void
RdmaSimulatorImpl::RunEvents()
{
    while (!m_events.Empty() && !m_stop)
    {
        Step<kWarm>();
    }
}

void
RdmaSimulatorImpl::OrderByNode()
{
    // Fields 1..nodes for the nodes (above every uid ns-3 reserves, 0-3), and one more.
    const uint32_t fields = NodeList::GetNNodes() + 2;
    uint32_t fieldBits = 1;
    while (fieldBits < 31 && (uint64_t(1) << fieldBits) < fields)
    {
        ++fieldBits;
    }
    NS_ABORT_MSG_IF(fieldBits > 24, "RdmaSimulatorImpl: TieOrder ByNode takes up to 2^24 nodes");
    m_fieldSeq.assign(fields, 0);
    m_clock.seqBits = 32 - fieldBits;
    m_clock.lastField = fields - 1;
    m_clock.fieldSeq = m_fieldSeq.data();
}

void
RdmaSimulatorImpl::Run()
{
    if (m_tieOrder == TIE_BY_NODE && m_clock.fieldSeq == nullptr)
    {
        OrderByNode();
    }
    m_stop = false;
    // The core's table of what to load ahead of each event: the roles of the links' and
    // ports' events and the ports' and controllers' sizes, as the fabric is now.
    FabricLayout::Setup();
    m_clock.loadingPorts = LoadsPortState();
    m_events.SetSecondHintLines(m_clock.loadingPorts ? FabricLayout::PortLines() : 0);
    // (Two loops, so that the one that does not warm pays nothing per event for it.)
    const bool warm = WarmsNext();
    if (RdmaRanks::OwnEngine())
    {
        warm ? RunWindows<true>() : RunWindows<false>();
    }
    else if (warm)
    {
        RunEvents<true>();
    }
    else
    {
        RunEvents<false>();
    }
    if (m_clock.fieldSeq != nullptr)
    {
        // What is scheduled between runs is no node's: not the last event's node's.
        m_clock.currentContext = Simulator::NO_CONTEXT;
    }
}

void
RdmaSimulatorImpl::Stop()
{
    m_stop = true;
}

compat::SimulatorStopResult
RdmaSimulatorImpl::Stop(const Time& delay)
{
    return compat::ToStopResult(Simulator::Schedule(delay, &Simulator::Stop));
}

EventId
RdmaSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(), "RdmaSimulatorImpl::Schedule: negative delay");
    const uint64_t ts = m_clock.currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    const uint32_t uid = m_clock.TakeUid(m_clock.currentContext);
    m_events.Push(Scheduler::Event{event, Scheduler::EventKey{ts, uid, m_clock.currentContext}},
                  m_clock.currentTs);
    return EventId(event, ts, m_clock.currentContext, uid);
}

void
RdmaSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    const uint64_t ts = m_clock.currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    m_events.Push(
        Scheduler::Event{event, Scheduler::EventKey{ts, m_clock.TakeUid(context), context}},
        m_clock.currentTs);
}

EventId
RdmaSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Schedule(Time(0), event);
}

EventId
RdmaSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    EventId id(Ptr<EventImpl>(event, false), m_clock.currentTs, 0xffffffff, EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    m_clock.nextUid++;
    return id;
}

Time
RdmaSimulatorImpl::Now() const
{
    return TimeStep(m_clock.currentTs);
}

Time
RdmaSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    return IsExpired(id) ? TimeStep(0) : TimeStep(id.GetTs() - m_clock.currentTs);
}

void
RdmaSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); ++i)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    EventImpl* impl = id.PeekEventImpl();
    if (m_events.Erase(id.GetTs(), id.GetUid()))
    {
        impl->Cancel();
        impl->Unref();
    }
}

void
RdmaSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
RdmaSimulatorImpl::IsExpired(const EventId& id) const
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        if (id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled())
        {
            return true;
        }
        for (const EventId& d : m_destroyEvents)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    return IsExpiredInline(id);
}

Time
RdmaSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
RdmaSimulatorImpl::GetContext() const
{
    return CurrentContext();
}

uint64_t
RdmaSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
