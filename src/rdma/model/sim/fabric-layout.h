/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FABRIC_LAYOUT_H
#define RDMA_FABRIC_LAYOUT_H

#include "ns3/event-hints.h"
#include "ns3/object.h"
#include "ns3/rdma-sim.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaHeader;
class RdmaNetDevice;
class RdmaNic;
class RdmaSwitch;

/**
 * \ingroup rdma
 * \brief The fast core's knowledge of the fabric's layout: what each link's and port's
 * events will read, so that the core loads it into the cache ahead of them. The model
 * knows nothing of it: its events and objects are the same without it, and under any
 * other simulator implementation it is never used.
 *
 * When a run begins, Setup walks the nodes and gives every link's arrival event and
 * every port's end of transmission a role (DirectEvent's, by whether the node behind
 * the port is a NIC, a switch or neither), and measures the ports and the controllers.
 * From then on the core asks HintsFor when such an event is scheduled (its first reads:
 * the frame, the port's hot fields, the queue pair a frame is for, the link's FIFO) and
 * Warm when it becomes the next event (what those point to: the QP's controller and
 * limiter, a switch's buffer counters and egress port). Both only read, and only the
 * loads come of them: a wrong guess costs a load, never a result. An event made after
 * Setup (a link's first use mid-run) has no role, and runs without loads ahead.
 *
 * It reads the model's objects through their friend declarations (RdmaChannel,
 * RdmaNetDevice, RdmaNic, QpScheduler, RdmaSwitch, SwitchMmu); the inline part, the one
 * the core runs per event, is fabric-layout-inline.h.
 */
class FabricLayout
{
  public:
    /// What a DirectEvent is to the core (DirectEvent::m_role).
    enum Role : uint8_t
    {
        NONE = 0,       ///< unknown: nothing loaded ahead
        ARRIVAL_NIC,    ///< a link's next arrival, at a NIC's port
        ARRIVAL_SWITCH, ///< a link's next arrival, at a switch's port
        ARRIVAL_PORT,   ///< a link's next arrival, at a port with no known owner
        TX_END_NIC,     ///< a NIC port's end of transmission
        TX_END_SWITCH,  ///< a switch port's end of transmission
        TX_END_PORT,    ///< the end of transmission of a port with no known owner
    };

    /// Give the links' and ports' events their roles and measure the ports and the
    /// controllers, as the fabric is now (the core calls it as each run begins).
    static void Setup();

    /// \return the bytes of the ports' hot fields (RdmaNetDevice::HotData, a whole
    ///         number of lines each), of every port on a node now
    static int64_t PortBytes();

    /// \return the lines of a port's hot fields (RdmaNetDevice::kHotLines)
    static uint32_t PortLines();

    /// Most lines of a controller loaded ahead of a pull or an acknowledgement, from the
    /// line where the object starts: a bound on a speed aid, not on a controller (a
    /// larger one is loaded ahead up to it, the rest on demand). The heap aligns an
    /// object to 16 bytes, so up to 48 bytes into a line; and ns3::Object's size depends
    /// on the release (32 bytes to 3.41, 56 from 3.42): 7 or 8 lines.
    static constexpr uint32_t kCcStateBytes = 368;
    static constexpr uint32_t kCcMostLines = (48 + sizeof(Object) + kCcStateBytes + 63) / 64;
    /// Of those, the lines always loaded (unrolled, no branch); DCQCN's 216 bytes span 4
    /// lines, or 5 from 48 bytes into one.
    static constexpr uint32_t kCcFirstLines = 4;

    /**
     * The cache lines controller \p cc spans, from the one it starts in to the one its
     * last byte is in, by its TypeId's registered size; at most kCcMostLines (all of
     * them for an object whose size is not registered).
     */
    static uint32_t ControllerLines(const Object& cc);

    /// \return the lines loaded ahead of every QP's controller: the most that the
    ///         controllers measured at Setup span (ControllerLines), or kCcMostLines if
    ///         there were none
    static uint32_t CcLines()
    {
        return s_ccLines;
    }

    /// \return the role Setup gave port \p dev's end of transmission
    static Role RoleOfTxEnd(const RdmaNetDevice& dev);
    /// \return the role Setup gave the arrivals of frames at port \p dev (NONE if its
    ///         link has no direction to it yet)
    static Role RoleOfArrivalAt(const RdmaNetDevice& dev);
    /// \return the queue pair a frame with header \p h reads first at \p nic (its receive
    ///         QP for DATA, its send QP for an answer), or null: an arrival's third hint
    static const void* QpOf(const RdmaNic& nic, const RdmaHeader& h);

    /// The role Setup gave \p e.
    static Role RoleOf(const DirectEvent& e)
    {
        return static_cast<Role>(e.m_role);
    }

    // Inline, in fabric-layout-inline.h: per event.

    /// What \p e will read first, as things are now (it is being scheduled).
    static void HintsFor(const DirectEvent& e, EventHints* hints);

    /**
     * \p e is the next event (while the one before it runs), its hints loaded one event
     * ago, the fourth \p fourth: start loading what they point to. \p ports: the run
     * loads ports' hot fields ahead (RdmaSimClock::loadingPorts). Changes nothing.
     */
    static void Warm(const DirectEvent& e, const void* fourth, bool ports);

  private:
    class Inline; ///< the per-event reads (fabric-layout-inline.h)

    /// The core's table entry of a port (its end of transmission's m_roleOwner).
    struct PortEntry
    {
        const void* owner = nullptr; ///< the NIC or switch behind it, or null
        const void* link = nullptr;  ///< the link direction it sends on, or null
    };

    /// The core's table entry of a switch (its ports' arrivals' m_roleOwner).
    struct SwitchEntry
    {
        const RdmaSwitch* sw = nullptr;
        std::vector<const void*> out; ///< by port: the link direction it sends on, or null
    };

    static std::vector<PortEntry> s_ports;      ///< Setup's, one per port
    static std::vector<SwitchEntry> s_switches; ///< Setup's, one per switch

    static uint32_t s_ccLines; ///< CcLines
};

} // namespace ns3

#endif /* RDMA_FABRIC_LAYOUT_H */
