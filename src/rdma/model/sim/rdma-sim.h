/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SIM_H
#define RDMA_SIM_H

#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An event that is never cancelled: it is only ever scheduled under a reserved uid
 * (RdmaSim::ScheduleReserved), which makes no EventId for it, so nothing can cancel it.
 * The module's event core runs it directly, without EventImpl::Invoke's log check and
 * cancel test (a link's next arrival, a port's end of transmission). Under any other
 * simulator implementation it is an ordinary EventImpl.
 */
class DirectEvent : public EventImpl
{
  public:
    /// Run it: what Invoke() does for an event that is not cancelled.
    void Fire()
    {
        Notify();
    }

  private:
    friend class FabricLayout; ///< gives it its role (FabricLayout::Setup)

    /// What the core loads ahead of it (FabricLayout::Role): set by FabricLayout::Setup
    /// when a run begins; 0 (nothing) for an event it does not know. It sits in
    /// EventImpl's padding, so it costs no byte.
    uint8_t m_role = 0;
    /// What the core reads for it beside the event (FabricLayout::Setup): the NIC of an
    /// arrival at a NIC, the core's table entry of a switch or of a port, or null.
    const void* m_roleOwner = nullptr;
};

/**
 * \ingroup rdma
 * \brief The state of the module's event core (the fast core, ns3::RdmaSimulatorImpl)
 * that the model reads at every frame: the running event's key, the next uid and the
 * time resolution. The core owns one and keeps it current; RdmaSim reads it inline.
 */
struct RdmaSimClock
{
    uint32_t nextUid;        ///< the uid the next scheduled event gets
    uint32_t currentUid;     ///< the uid of the event running now
    uint64_t currentTs;      ///< the time stamp of the event running now (time steps)
    uint32_t currentContext; ///< the context of the event running now
    /// Picoseconds per time step (0 if the resolution is finer than 1 ps).
    uint64_t psPerStep;
    /// Time steps per nanosecond (from psPerStep; 0 if not a whole number of them).
    uint64_t stepsPerNs;
    /// Whether the running loop loads the ports' hot fields ahead of their events (as
    /// decided when Run began; the core's own, FabricLayout).
    bool loadingPorts;
    /// Under RdmaSimulatorImpl's TieOrder ByNode, per field (a node's context + 1; the
    /// last field: every other context), the next sequence number; null under Fifo.
    uint32_t* fieldSeq;
    uint32_t seqBits;   ///< ByNode: the low bits of a uid, its field's sequence number
    uint32_t lastField; ///< ByNode: the field of contexts that are not nodes

    /**
     * The uid of an event scheduled now for context \p context: its place among the
     * events of its time stamp. Fifo: the next of one counter (events of an instant run
     * in the order they were scheduled). ByNode: the field of \p context above that
     * field's next sequence number (an instant's events run by node, then in the order
     * they were scheduled for it), which only what is scheduled for that node changes.
     */
    uint32_t TakeUid(uint32_t context)
    {
        if (__builtin_expect(fieldSeq == nullptr, 1))
        {
            return nextUid++;
        }
        const uint32_t field = context < lastField ? context + 1 : lastField;
        const uint32_t seq = fieldSeq[field]++ & ((uint32_t(1) << seqBits) - 1);
        return (field << seqBits) | seq;
    }
};

/**
 * \ingroup rdma
 * \brief The model's one door to the event core: the time, and scheduling under a uid
 * reserved earlier, whatever the simulator implementation.
 *
 * Under the module's fast core (ns3::RdmaSimulatorImpl, `simulator.scheduler` `rdma`)
 * every function reads the core's state inline (RdmaSimClock: one load of a static
 * pointer, then the field), as a direct call to the core did: the NIC asks for the time
 * several times per frame. Under any other SimulatorImpl (ns-3's DefaultSimulatorImpl,
 * the MPI DistributedSimulatorImpl) the clock functions answer through ns3::Simulator,
 * with the same values; the functions marked "fast core only" must not be called then
 * (the model asks IsFastCore() first).
 *
 * Scheduling under a reserved uid (ScheduleReserved) pushes into the core's event wheel,
 * so it is in rdma-sim-schedule.h: only the files that schedule that way compile the
 * wheel.
 */
class RdmaSim
{
  public:
    /// \return whether the fast core (ns3::RdmaSimulatorImpl) is the simulator
    ///         implementation in use; false under any other SimulatorImpl (and before
    ///         the fast core is made)
    static bool IsFastCore()
    {
        return s_clock != nullptr;
    }

    /**
     * Simulator::Now(), the same value.
     * \return under the fast core: the running event's time stamp, read from the core
     *         directly (Simulator::Now() goes through the simulator singleton, its log
     *         checks and a virtual call); under any other SimulatorImpl: Simulator::Now()
     */
    static Time Now()
    {
        return s_clock != nullptr ? TimeStep(static_cast<int64_t>(s_clock->currentTs))
                                  : Simulator::Now();
    }

    /**
     * Now() in picoseconds.
     * \return under the fast core, where a step is a whole number of picoseconds: the
     *         running event's time stamp times that number, without building a Time;
     *         otherwise (a finer resolution, or any other SimulatorImpl):
     *         Simulator::Now().GetPicoSeconds()
     */
    static uint64_t NowPs()
    {
        if (s_clock != nullptr && s_clock->psPerStep != 0)
        {
            return s_clock->currentTs * s_clock->psPerStep;
        }
        return static_cast<uint64_t>(Simulator::Now().GetPicoSeconds());
    }

    /**
     * \p ns nanoseconds in time steps, NanoSeconds(ns).GetTimeStep().
     * \return under the fast core, where a nanosecond is a whole number of steps: a
     *         multiplication, without building a Time (a port converts every frame's
     *         serialization time); otherwise (any other SimulatorImpl too): the same
     *         value through NanoSeconds
     */
    static uint64_t NsToSteps(uint64_t ns)
    {
        if (s_clock != nullptr && s_clock->stepsPerNs != 0)
        {
            return ns * s_clock->stepsPerNs;
        }
        return static_cast<uint64_t>(NanoSeconds(ns).GetTimeStep());
    }

    /// \name Fast core only (IsFastCore() must be true)
    /// @{

    /// \return the time stamp of the event running now, in ns-3 time steps
    static uint64_t NowTs()
    {
        return s_clock->currentTs;
    }

    /// \return the uid of the event running now
    static uint32_t CurrentUid()
    {
        return s_clock->currentUid;
    }

    /// \return the context of the event running now (Simulator::GetContext(), inline: a
    ///         port's events read it at every frame)
    static uint32_t CurrentContext()
    {
        return s_clock->currentContext;
    }

    /**
     * Take the uid that the next scheduled event would get, for ScheduleReserved (the
     * event's place in the order of events that share its time stamp).
     * \return that uid; the next scheduled event gets the one after it
     */
    static uint32_t ReserveUid()
    {
        return s_clock->TakeUid(s_clock->currentContext);
    }

    /// \return whether the events of an instant run by the node they are for, then in
    ///         their order for it (RdmaSimulatorImpl's TieOrder ByNode): the same order
    ///         over any number of ranks
    static bool OrdersByNode()
    {
        return s_clock != nullptr && s_clock->fieldSeq != nullptr;
    }

    /**
     * Schedule \p event at the absolute time stamp \p ts (not before NowTs()) under the
     * uid \p uid from ReserveUid (each used once), with context \p context. Takes over
     * one reference of \p event. A DirectEvent (known from \p E) is run by
     * DirectEvent::Fire. Defined in rdma-sim-schedule.h, which a file that calls it (or
     * instantiates a MemberEvent's ScheduleIn) includes: it inlines the core's
     * ScheduleReserved, the same code as calling the core directly.
     */
    template <class E>
    static void ScheduleReserved(uint64_t ts, uint32_t uid, uint32_t context, E* event);

    /// @}

  private:
    friend class RdmaSimulatorImpl; ///< sets s_clock while it is the implementation in use

    static RdmaSimClock* s_clock; ///< the fast core's state while it is in use, else null
};

} // namespace ns3

#endif /* RDMA_SIM_H */
