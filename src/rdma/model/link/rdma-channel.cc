/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-channel.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/member-event.h"
#include "ns3/node.h"
#include "ns3/rdma-channel-direction.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-sim-schedule.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaChannel");
NS_OBJECT_ENSURE_REGISTERED(RdmaChannel);

void
RdmaChannel::Direction::ScheduleHead(const InFlight& next)
{
    head = next.frame;
    Ref();
    RdmaSim::ScheduleReserved(next.ts, next.uid, context, this);
}

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

RdmaChannel::~RdmaChannel() = default;

void
RdmaChannel::Attach(Ptr<RdmaNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices == 2, "RdmaChannel: a link connects exactly two devices");
    m_devices[m_nDevices++] = device;
}

void
RdmaChannel::Transmit(const Ptr<RdmaFrame>& f, const RdmaNetDevice* src, uint64_t txSteps)
{
    const uint32_t to = ReceiverOf(src);
    RdmaNetDevice* dst = PeekPointer(m_devices[to]);
    if (!RdmaSim::IsFastCore())
    {
        Deliver(f, dst, txSteps);
        return;
    }
    if (!m_dirs[to])
    {
        // (A link that keeps no frames in flight never has one: asked here, off the path
        // of every other.)
        if (!KeepsFramesInFlight())
        {
            Deliver(f, dst, txSteps);
            return;
        }
        DirectionTo(to);
    }
    Direction& d = *m_dirs[to];
    const uint64_t ts = RdmaSim::NowTs() + txSteps + static_cast<uint64_t>(m_delay.GetTimeStep());
    const uint32_t uid = RdmaSim::ReserveUid();
    if (!d.fifo.empty() && ts < d.lastTs)
    {
        // Out of order (the delay was lowered mid-run): an event of its own, same uid.
        using ReceiveFrame = void (RdmaNetDevice::*)(const Ptr<RdmaFrame>&);
        RdmaSim::ScheduleReserved(
            ts,
            uid,
            d.context,
            MakeEvent(static_cast<ReceiveFrame>(&RdmaNetDevice::Receive), dst, f));
        return;
    }
    RdmaFrame* frame = PeekPointer(f);
    frame->Ref(); // the FIFO's reference, handed to the receiver on arrival
    d.lastTs = ts;
    const InFlight entry{ts, uid, frame};
    d.fifo.push_back(entry);
    if (d.fifo.size() == 1)
    {
        d.ScheduleHead(entry);
    }
}

RdmaChannel::Direction&
RdmaChannel::DirectionTo(uint32_t to)
{
    if (!m_dirs[to])
    {
        m_dirs[to] = Create<Direction>(this, PeekPointer(m_devices[to]));
    }
    return *m_dirs[to];
}

void
RdmaChannel::Arrive(Direction& d)
{
    static_assert(alignof(Direction) == 64 && sizeof(Direction) <= 128,
                  "a direction is aligned to a cache line and spans two at most");
    Ptr<RdmaFrame> f(d.head, false); // takes over the FIFO's reference
    d.fifo.pop_front();              // (its slot is not read: InFlight has no destructor)
    // The next frame's arrival keeps the uid it reserved when it was sent, so it may be
    // scheduled after this frame is received. (A frame sent on this direction during
    // Receive finds the FIFO empty or not, as here, and schedules itself only in the
    // first case.)
    const bool more = !d.fifo.empty();
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
RdmaChannel::Deliver(const Ptr<RdmaFrame>& f, RdmaNetDevice* dst, uint64_t txSteps)
{
    using ReceiveFrame = void (RdmaNetDevice::*)(const Ptr<RdmaFrame>&);
    const Time arrival = TimeStep(static_cast<int64_t>(txSteps)) + m_delay;
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   arrival,
                                   static_cast<ReceiveFrame>(&RdmaNetDevice::Receive),
                                   dst,
                                   f);
}

bool
RdmaChannel::KeepsFramesInFlight() const
{
    return true;
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
