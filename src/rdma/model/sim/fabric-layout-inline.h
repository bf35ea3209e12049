/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FABRIC_LAYOUT_INLINE_H
#define RDMA_FABRIC_LAYOUT_INLINE_H

#include "ns3/fabric-layout.h"
#include "ns3/prefetch-budget.h"
#include "ns3/prefetch.h"
#include "ns3/qp-scheduler.h"
#include "ns3/rdma-channel-direction.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"
#include "ns3/switch-mmu.h"

namespace ns3
{

/**
 * FabricLayout's per-event part: what a link's arrival and a port's end of transmission
 * read, found from the model's objects (their friend FabricLayout), inline in the core's
 * scheduling (rdma-sim-schedule.h) and loop (rdma-simulator-step.h).
 */
class FabricLayout::Inline
{
  public:
    using Direction = RdmaChannel::Direction;
    using TxEnd = RdmaNetDevice::TxEndEvent;

    /// The queue pair a frame with header \p h will read first at \p nic (its receive
    /// QP for DATA, its send QP for an answer), or null.
    static const void* QpOf(const RdmaNic& nic, const RdmaHeader& h)
    {
        switch (h.type)
        {
        case RdmaPacketType::DATA:
            return h.dstQpn < nic.m_recvQps.size() ? &nic.m_recvQps[h.dstQpn] : nullptr;
        case RdmaPacketType::ACK:
        case RdmaPacketType::NACK:
        case RdmaPacketType::CNP:
        case RdmaPacketType::PROBE_RESP:
            return h.dstQpn < nic.m_sendQps.size() ? &nic.m_sendQps[h.dstQpn] : nullptr;
        default:
            return nullptr;
        }
    }

    /// The frame SelectNext would take now at \p dev (pauses and the round robin ignored:
    /// a wrong guess only loads a line for nothing), and \p slot: where its queue holds
    /// it. \p dev must have a frame queued (m_nonEmpty).
    static const RdmaFrame* QueuedNext(const RdmaNetDevice& dev, const void** slot)
    {
        const uint32_t ready = dev.m_nonEmpty;
        const uint32_t c = ((ready >> dev.m_strictPriority) & 1) != 0 ? dev.m_strictPriority
                                                                      : __builtin_ctz(ready);
        *slot = &dev.m_queues[c].front();
        return dev.m_queues[c].front();
    }

    /// Start loading \p qp's controller, limiter, peer group and, when \p pulling (a data
    /// packet is made next, not an acknowledgement taken), its oldest message: each last
    /// touched about a round trip ago, together rather than one after another.
    static void SendState(const RdmaNic& nic, const SendQueuePair& qp, bool pulling)
    {
        const char* cc = reinterpret_cast<const char*>(PeekPointer(qp.cc));
        PrefetchLines(cc, kCcFirstLines);
        for (uint32_t line = kCcFirstLines; line < s_ccLines; ++line)
        {
            PrefetchLine(cc + 64 * line);
        }
        PrefetchLine(&nic.m_limiters[qp.limiter]);
        if (nic.m_trackPeerRates && qp.peers != nullptr)
        {
            // Its destination's group, whose rate sum each new packet's rate updates (a
            // hash-map node of its own; at 1,024 GPUs a NIC has a thousand of them).
            PrefetchLine(qp.peers);
        }
        if (pulling && !qp.messages.empty())
        {
            // (An acknowledgement reads frontLastPsn instead, unless it completes a message.)
            PrefetchLine(&qp.messages.front());
        }
    }

    /// Start loading what a switch reads to admit a frame of class \p prio from
    /// \p inPort (the buffer's ingress counters).
    static void Ingress(const RdmaSwitch& sw, uint32_t inPort, uint8_t prio)
    {
        const SwitchMmu& mmu = *sw.m_mmu;
        PrefetchLine(&mmu.m_ingressShared[inPort][prio]);
        PrefetchLine(&mmu.m_headroomUsed[inPort][prio]);
    }

    /// Start loading what a switch reads to queue a frame of class \p prio on
    /// \p outPort (the buffer's egress counters), and the port's hot fields if \p ports.
    static void Egress(const RdmaSwitch& sw, uint32_t outPort, uint8_t prio, bool ports)
    {
        if (ports)
        {
            PrefetchLines(sw.m_ports[outPort]->HotData(), RdmaNetDevice::kHotLines);
        }
        const SwitchMmu& mmu = *sw.m_mmu;
        PrefetchLine(&mmu.m_egress[outPort][prio]);
        PrefetchLine(&mmu.m_egressPort[outPort]);
    }

    /// A link's arrival at a switch (\p entry) is next: its frame \p f is loaded; the
    /// buffer's counters and, if its destination has one route, the egress port and the
    /// link direction it sends on (which an idle port writes at once).
    static void SwitchArrival(const SwitchEntry& entry,
                              uint32_t inPort,
                              const RdmaFrame& f,
                              bool ports)
    {
        const RdmaSwitch& sw = *entry.sw;
        const RdmaHeader& h = f.header;
        Ingress(sw, inPort, h.priority);
        const std::vector<uint32_t>* candidates = nullptr;
        const uint32_t outPort = sw.m_routes.Route(h.dst, &candidates);
        if (outPort != RouteTable::kNotSingle)
        {
            // (Several routes: the load balancer decides, maybe on state of its own.)
            Egress(sw, outPort, h.priority, ports);
            if (outPort < entry.out.size() && entry.out[outPort] != nullptr)
            {
                PrefetchLines(entry.out[outPort], PrefetchBudget::kFourthHintLines);
            }
        }
    }

    /// The link's next frame after the head: its slot was loaded with the event (the
    /// fourth hint), so its header starts loading now, for the arrival to find its QP
    /// when it schedules that frame.
    static void NextInFifo(const Direction& d)
    {
        if (d.fifo.size() > 1)
        {
            PrefetchLine(d.fifo[1].frame);
        }
    }
};

inline void
FabricLayout::HintsFor(const DirectEvent& e, EventHints* hints)
{
    using I = Inline;
    const Role role = RoleOf(e);
    if (role == NONE)
    {
        return;
    }
    if (role <= ARRIVAL_PORT)
    {
        const auto& d = static_cast<const I::Direction&>(e);
        hints->first = d.head;
        hints->second = d.to->HotData();
        if (role == ARRIVAL_NIC)
        {
            // (Found now, from the frame's header: the frame was loaded for it one event
            // ago when it was not the link's only one, NextInFifo.)
            hints->third = I::QpOf(*static_cast<const RdmaNic*>(e.m_roleOwner), d.head->header);
        }
        if (d.fifo.size() > 1)
        {
            hints->fourth = &d.fifo[1];
        }
        return;
    }
    const RdmaNetDevice& dev = *static_cast<const I::TxEnd&>(e).GetObject();
    const auto& port = *static_cast<const PortEntry*>(e.m_roleOwner);
    hints->second = dev.HotData();
    if (dev.m_nonEmpty != 0)
    {
        hints->first = I::QueuedNext(dev, &hints->third);
    }
    else if (role == TX_END_NIC && dev.m_ownerPulls)
    {
        // Nothing queued: the NIC makes its next frame when pulled.
        const auto& nic = *static_cast<const RdmaNic*>(port.owner);
        hints->third = nic.m_scheduler.HotData();
        uint32_t qpn;
        if (nic.m_scheduler.PeekLikelyNext(qpn))
        {
            hints->first = &nic.m_sendQps[qpn];
        }
    }
    // The link's direction, which the next transmission writes (its FIFO).
    hints->fourth = port.link;
}

// (Not inlined: a call, as the virtual warm-up per event was; inlined, it made GCC leave
// the queue's Pop out of the warming loop.)
__attribute__((noinline)) inline void
FabricLayout::Warm(const DirectEvent& e, const void* fourth, bool ports)
{
    using I = Inline;
    switch (RoleOf(e))
    {
    case NONE:
        return;
    case ARRIVAL_NIC: {
        // An acknowledgement's QP (loaded one event ago with the frame, by its number in
        // the table as it is now: the table may have grown and moved since the hint).
        const auto& d = static_cast<const I::Direction&>(e);
        const auto& nic = *static_cast<const RdmaNic*>(e.m_roleOwner);
        const RdmaHeader& h = d.head->header;
        if ((h.type == RdmaPacketType::ACK || h.type == RdmaPacketType::NACK) &&
            h.dstQpn < nic.m_sendQps.size())
        {
            I::SendState(nic, nic.m_sendQps[h.dstQpn], false);
        }
        I::NextInFifo(d);
        return;
    }
    case ARRIVAL_SWITCH: {
        const auto& d = static_cast<const I::Direction&>(e);
        I::SwitchArrival(*static_cast<const SwitchEntry*>(e.m_roleOwner),
                         d.to->m_ownerPort,
                         *d.head,
                         ports);
        I::NextInFifo(d);
        return;
    }
    case ARRIVAL_PORT:
        I::NextInFifo(static_cast<const I::Direction&>(e));
        return;
    default:
        break;
    }
    const RdmaNetDevice& dev = *static_cast<const I::TxEnd&>(e).GetObject();
    const auto& port = *static_cast<const PortEntry*>(e.m_roleOwner);
    if (dev.m_nonEmpty != 0)
    {
        // A frame queued since the event was scheduled (an answer, in the strict class)
        // may go first: its hint named another.
        const void* slot = nullptr;
        const RdmaFrame* f = I::QueuedNext(dev, &slot);
        PrefetchLines(f, RdmaFrame::kLines);
        if (RoleOf(e) == TX_END_SWITCH)
        {
            // The buffer's counters that the frame's dequeue updates (the frame was
            // loaded one event ago, or was queued since).
            const auto& sw = *static_cast<const RdmaSwitch*>(port.owner);
            I::Egress(sw, dev.m_ownerPort, f->header.priority, false);
            I::Ingress(sw, f->meta & ~RdmaSwitch::kMetaInt, f->header.priority);
        }
    }
    else if (RoleOf(e) == TX_END_NIC && dev.m_ownerPulls)
    {
        // The QP that Pull would serve first (loaded one event ago): its controller,
        // limiter, oldest message and peer group; and the ready ring's next line.
        const auto& nic = *static_cast<const RdmaNic*>(port.owner);
        uint32_t qpn;
        if (nic.m_scheduler.PeekReady(qpn))
        {
            I::SendState(nic, nic.m_sendQps[qpn], true);
        }
        constexpr size_t kAhead = 64 / sizeof(uint32_t);
        if (nic.m_scheduler.m_ready.size() > kAhead)
        {
            PrefetchLine(&nic.m_scheduler.m_ready[kAhead]);
        }
    }
    if (fourth != nullptr)
    {
        // The FIFO slot the next frame sent here will take (loaded with the event: the
        // link's direction), to be written.
        PrefetchLineForWrite(static_cast<const I::Direction*>(fourth)->fifo.NextSlotHint());
    }
}

} // namespace ns3

#endif /* RDMA_FABRIC_LAYOUT_INLINE_H */
