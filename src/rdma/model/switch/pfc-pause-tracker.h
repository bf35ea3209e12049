/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PFC_PAUSE_TRACKER_H
#define RDMA_PFC_PAUSE_TRACKER_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rdma-net-device.h"
#include "ns3/simple-ref-count.h"

#include <array>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * When the pauses a switch's ports receive began, per (port, class): what a PFC watchdog
 * and the deadlock detector need, and nothing a run without them pays for. It listens to
 * the ports' "PfcRx" trace sources (connected on construction, once the ports exist).
 *
 * A pause "began" when a pause frame arrived at a port whose class was not paused; it
 * lasts, through refreshes, until a resume or the expiry of the last pause (the port's
 * IsPaused). The tracker never changes a port.
 */
class PfcPauseTracker : public SimpleRefCount<PfcPauseTracker>
{
  public:
    /// Track the pauses received by \p ports (a switch's ports, in port order).
    explicit PfcPauseTracker(const std::vector<Ptr<RdmaNetDevice>>& ports);

    /**
     * How long class \p priority of \p port has been paused without a break.
     * \return the time since its pause began, or zero if it is not paused now
     */
    Time PausedFor(uint32_t port, uint8_t priority) const;
    /**
     * How long since \p port last received a pause (not a resume) for \p priority.
     * \return that time, or Time::Max() if it never received one
     */
    Time SinceLastPause(uint32_t port, uint8_t priority) const;

  private:
    /// A PFC frame arrives at \p port (called before the port applies it).
    void OnPfcRx(uint32_t port, uint8_t priority, uint16_t quanta);

    struct PortPauses
    {
        std::array<int64_t, kRdmaNumPriorities> began; ///< ns; valid while paused
        std::array<int64_t, kRdmaNumPriorities> last;  ///< ns; -1: never
    };

    std::vector<Ptr<RdmaNetDevice>> m_ports;
    std::vector<PortPauses> m_pauses;
};

} // namespace ns3

#endif /* RDMA_PFC_PAUSE_TRACKER_H */
