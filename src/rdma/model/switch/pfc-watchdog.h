/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PFC_WATCHDOG_H
#define RDMA_PFC_WATCHDOG_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class RdmaSwitch;

/**
 * \ingroup rdma
 * A switch's PFC watchdog, as switch vendors and SONiC ship it ("PFC storm" detection).
 *
 * Every PollInterval it looks at each lossless egress queue of its switch. A queue that
 * holds frames and has been paused by its peer without a break for at least
 * DetectionTime is declared *stormed*, and the Action applies to it:
 * - Drop: its frames are discarded and every frame routed to it is dropped, each counted
 *   with the drop reason pfc_watchdog (the buffer they held is released, so the switch's
 *   own pauses upstream can end);
 * - Forward: the port ignores its peer's pauses for that class and sends (the peer's
 *   headroom, then its drop counters, take the excess).
 *
 * A stormed queue is restored when its port has received no pause for that class for
 * RestorationTime. Every detection and restoration fires the "Storm" trace (rdma-run
 * writes them to pfc.csv). Unlike SONiC, the drop action does not also drop what arrives
 * from the stormed peer: the egress side is enough to break a pause cycle.
 */
class PfcWatchdog : public Object
{
  public:
    /// What a stormed queue does.
    enum Action
    {
        DROP,    ///< discard its frames and everything routed to it
        FORWARD, ///< ignore the peer's pauses
    };

    /// Storm detected (true) or restored (false) on egress \p port, class \p priority.
    using StormTracedCallback = void (*)(uint32_t port, uint8_t priority, bool stormed);

    static TypeId GetTypeId();
    PfcWatchdog();

    /**
     * Watch the lossless classes (bit c of \p lossless) of every port of \p sw. Call once
     * the switch has all its ports; polling starts with Start.
     */
    void Install(Ptr<RdmaSwitch> sw, uint8_t lossless);
    /// Start polling (the simulator clock has started).
    void Start();

    /// Whether egress (\p port, \p priority) is stormed now.
    bool IsStormed(uint32_t port, uint8_t priority) const;
    /// Storms detected so far.
    uint64_t GetStormsDetected() const;
    /// Storms restored so far.
    uint64_t GetStormsRestored() const;

  protected:
    void DoDispose() override;

  private:
    void Poll();
    /// Declare (\p stormed) or restore egress (\p port, \p priority): apply or undo the
    /// action, count it, trace it.
    void SetStormed(uint32_t port, uint8_t priority, bool stormed);

    Time m_detect;
    Time m_restore;
    Time m_poll;
    Action m_action;
    RdmaSwitch* m_switch; ///< owns this watchdog
    uint8_t m_lossless;
    std::vector<uint8_t> m_stormed; ///< per port: bit c, class c stormed
    uint64_t m_detected;
    uint64_t m_restored;
    EventId m_pollEvent;
    TracedCallback<uint32_t, uint8_t, bool> m_stormTrace;
};

} // namespace ns3

#endif /* RDMA_PFC_WATCHDOG_H */
