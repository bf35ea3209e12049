/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-channel.h"

#include "ns3/abort.h"
#include "ns3/compact-deque.h"
#include "ns3/log.h"
#include "ns3/member-event.h"
#include "ns3/node.h"
#include "ns3/prefetch-budget.h"
#include "ns3/prefetch.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-ranks.h"
#include "ns3/rdma-sim-schedule.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaChannel");
NS_OBJECT_ENSURE_REGISTERED(RdmaChannel);

/**
 * One direction of the link (see RdmaChannel), and the event of its head frame's arrival
 * (never cancelled): the simulator's event is this object, so running it touches no
 * other. Aligned to a cache line, so that the lines the simulator prefetches for an
 * event (PrefetchBudget::kObjectLines) hold all of it wherever the heap puts it.
 */
class alignas(64) RdmaChannel::Direction : public DirectEvent
{
  public:
    Direction(RdmaChannel* channel, RdmaNetDevice* to)
        : channel(channel),
          to(to),
          context(to->GetNode() ? to->GetNode()->GetId() : 0),
          hints(to->GetArrivalHints())
    {
    }

    ~Direction() override
    {
        for (const InFlight& f : fifo)
        {
            f.frame->Unref();
        }
    }

    /// Schedule the arrival of \p next, the FIFO's new head, under the uid it reserved
    /// (one reference of this event per scheduling, given back by the simulator). The
    /// hints: the frame, the receiving device's hot fields and the queue pair it is for.
    void ScheduleHead(const InFlight& next)
    {
        head = next.frame;
        Ref();
        RdmaSim::ScheduleReserved(next.ts,
                                  next.uid,
                                  context,
                                  this,
                                  next.frame,
                                  to->HotData(),
                                  next.qp);
    }

    /// The FIFO's head frame, kept here so that its arrival reads no FIFO slot.
    RdmaFrame* head = nullptr;
    RdmaChannel* channel; ///< the link
    RdmaNetDevice* to;    ///< the receiving device
    uint32_t context;     ///< its node id (the arrival's event context)
    /// Where its frames find their queue pair (a NIC's tables), or null: taken when the
    /// direction is made (on the link's first frame, after setup has given owners).
    const RdmaArrivalHints* hints;
    uint64_t lastTs = 0;         ///< arrival time stamp of the newest frame in the FIFO
    CompactDeque<InFlight> fifo; ///< frames in flight, earliest arrival first

    /// The head frame's arrival is next: the receiver may start loading what it reads
    /// after the hints (RdmaNetDevice::WarmArrival).
    void Warm() override
    {
        to->WarmArrival(*head);
        if (fifo.size() > 1)
        {
            // The slot Arrive reads after delivering the head (the next frame's uid and
            // QP), last written when that frame was sent, a microsecond or more ago.
            PrefetchLine(&fifo[1]);
        }
    }

  protected:
    void Notify() override
    {
        channel->Arrive(*this);
    }
};

TypeId
RdmaChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the link (one way).",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&RdmaChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

RdmaChannel::RdmaChannel()
    : m_nDevices(0)
{
}

void
RdmaChannel::Attach(Ptr<RdmaNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices == 2, "RdmaChannel: a link connects exactly two devices");
    m_devices[m_nDevices++] = device;
}

const void*
RdmaChannel::Transmit(const Ptr<RdmaFrame>& f, const RdmaNetDevice* src, uint64_t txSteps)
{
    const uint32_t to = ReceiverOf(src);
    RdmaNetDevice* dst = PeekPointer(m_devices[to]);
    using ReceiveFrame = void (RdmaNetDevice::*)(const Ptr<RdmaFrame>&);
    if (!RdmaSim::IsFastCore())
    {
        if (m_remote)
        {
            SendRemote(f, dst, txSteps);
            return nullptr;
        }
        // Any other simulator: one event per frame.
        const Time arrival = TimeStep(static_cast<int64_t>(txSteps)) + m_delay;
        Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                       arrival,
                                       static_cast<ReceiveFrame>(&RdmaNetDevice::Receive),
                                       dst,
                                       f);
        return nullptr;
    }
    if (!m_dirs[to])
    {
        // (A link between ranks never has one: asked here, off the path of every other.)
        if (m_remote)
        {
            SendRemote(f, dst, txSteps);
            return nullptr;
        }
        m_dirs[to] = Create<Direction>(this, dst);
    }
    Direction& d = *m_dirs[to];
    const uint64_t ts = RdmaSim::NowTs() + txSteps + static_cast<uint64_t>(m_delay.GetTimeStep());
    const uint32_t uid = RdmaSim::ReserveUid();
    if (!d.fifo.empty() && ts < d.lastTs)
    {
        // Out of order (the delay was lowered mid-run): an event of its own, same uid.
        RdmaSim::ScheduleReserved(
            ts,
            uid,
            d.context,
            MakeEvent(static_cast<ReceiveFrame>(&RdmaNetDevice::Receive), dst, f));
        return nullptr;
    }
    RdmaFrame* frame = PeekPointer(f);
    frame->Ref(); // the FIFO's reference, handed to the receiver on arrival
    d.lastTs = ts;
    // Its QP is found now, while the frame is in the cache: at the arrival of the frame
    // before it, its header would be one more cold line.
    const InFlight entry{ts,
                         uid,
                         frame,
                         d.hints != nullptr ? d.hints->For(frame->header) : nullptr};
    d.fifo.push_back(entry);
    if (d.fifo.size() == 1)
    {
        d.ScheduleHead(entry);
    }
    return d.fifo.NextSlotHint();
}

const void*
RdmaChannel::GetTxHint(const RdmaNetDevice* from) const
{
    return PeekPointer(m_dirs[ReceiverOf(from)]);
}

const void*
RdmaChannel::GetTxQpTables(const RdmaNetDevice* from) const
{
    const Ptr<Direction>& d = m_dirs[ReceiverOf(from)];
    return d ? d->hints : nullptr;
}

static_assert(PrefetchBudget::kFirstHintLines >= RdmaFrame::kLines,
              "an arrival's first hint (the frame) loads all of the frame");

void
RdmaChannel::Arrive(Direction& d)
{
    static_assert(alignof(Direction) == 64 &&
                      sizeof(Direction) <= PrefetchBudget::kObjectLines * 64,
                  "the lines the core prefetches for an event hold all of a direction");
    static_assert(sizeof(Direction) <= kTxHintLines * 64,
                  "a device's prefetch of its transmit hint loads all of the direction");
    Ptr<RdmaFrame> f(d.head, false); // takes over the FIFO's reference
    d.fifo.pop_front();              // (its slot is not read: InFlight has no destructor)
    // The next frame's arrival keeps the uid it reserved when it was sent, so it may be
    // scheduled after this frame is received: its entry loads into the cache meanwhile.
    // (A frame sent on this direction during Receive finds the FIFO empty or not, as
    // here, and schedules itself only in the first case.)
    const bool more = !d.fifo.empty();
    if (more)
    {
        PrefetchLine(&d.fifo.front());
    }
    d.to->Receive(f);
    if (more)
    {
        d.ScheduleHead(d.fifo.front());
    }
}

void
RdmaChannel::DoDispose()
{
    for (auto& d : m_dirs)
    {
        d = nullptr;
    }
    for (auto& dev : m_devices)
    {
        dev = nullptr;
    }
    Channel::DoDispose();
}

void
RdmaChannel::SendRemote(const Ptr<RdmaFrame>& f, RdmaNetDevice* dst, uint64_t txSteps)
{
    // The peer is another rank's: the frame crosses as its wire image (under the module's
    // own core, its header alone: the payload is virtual).
    const Time arrival = Simulator::Now() + TimeStep(static_cast<int64_t>(txSteps)) + m_delay;
    if (RdmaRanks::OwnEngine())
    {
        thread_local std::vector<uint8_t> wire;
        wire.clear();
        f->AppendHeaderBytes(wire);
        // (Ordered by node, the sender reserves the arrival's uid, as a serial link.)
        RdmaRanks::SendRecord(dst->GetNode()->GetId(),
                              dst->GetIfIndex(),
                              arrival,
                              RdmaSim::OrdersByNode() ? RdmaSim::ReserveUid() : 0,
                              wire.data(),
                              static_cast<uint32_t>(wire.size()));
        return;
    }
    RdmaRanks::Send(f->GetPacket(), arrival, dst->GetNode()->GetId(), dst->GetIfIndex());
}

void
RdmaChannel::SetRemote(bool remote)
{
    m_remote = remote;
}

Ptr<RdmaNetDevice>
RdmaChannel::GetPeer(Ptr<const RdmaNetDevice> device) const
{
    return m_devices[0] == device ? m_devices[1] : m_devices[0];
}

uint64_t
RdmaChannel::GetFramesInFlight(Ptr<const RdmaNetDevice> to) const
{
    const uint32_t i = m_devices[0] == to ? 0 : 1;
    uint64_t n = 0;
    if (m_dirs[i])
    {
        for (const InFlight& f : m_dirs[i]->fifo)
        {
            n += f.frame->header.type != RdmaPacketType::PFC;
        }
    }
    return n;
}

Time
RdmaChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
RdmaChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
RdmaChannel::GetDevice(std::size_t i) const
{
    return m_devices[i];
}

} // namespace ns3
