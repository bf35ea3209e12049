/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PFC_DEADLOCK_DETECTOR_H
#define RDMA_PFC_DEADLOCK_DETECTOR_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <set>
#include <unordered_map>
#include <vector>

namespace ns3
{

class RdmaNetDevice;
class RdmaSwitch;

/**
 * \ingroup rdma
 * Finds PFC deadlocks: cycles of switch egress queues, each paused by the next switch
 * of the cycle, waiting on each other (a cyclic buffer dependency that has formed).
 *
 * Every Interval, the *blocked* queues are those holding frames whose port has been
 * paused by its peer without a break for at least Window (and obeys the pause). Queue
 * (S, p, c) waits for (D, p', c) when p's peer is port q of switch D and D's egress p'
 * holds a frame that came in on q: that frame, stuck, keeps D's ingress q above its
 * pause threshold. A cycle of waits is a deadlock; each is reported once while it
 * lasts (again if it forms anew), with the "Deadlock" trace.
 */
class PfcDeadlockDetector : public Object
{
  public:
    /// One queue of a cycle: switch node, egress port, and the peer switch and its port.
    struct Hop
    {
        uint32_t node;
        uint32_t port;
        uint32_t peerNode;
        uint32_t peerPort;
    };

    /// A deadlock: when it was found, its class, and its queues in wait order.
    struct Deadlock
    {
        Time at;
        uint8_t priority;
        std::vector<Hop> cycle;
    };

    using DeadlockTracedCallback = void (*)(const Deadlock& deadlock);

    static TypeId GetTypeId();
    PfcDeadlockDetector();

    /// Watch the lossless classes (bit c of \p lossless) of \p sw (all its ports added).
    void AddSwitch(Ptr<RdmaSwitch> sw, uint8_t lossless);
    /// Start looking (the simulator clock has started).
    void Start();
    /// Look now; returns the cycles found that were not already known.
    std::vector<Deadlock> Check();
    /// Every deadlock reported so far, in the order found.
    const std::vector<Deadlock>& GetDeadlocks() const;

  protected:
    void DoDispose() override;

  private:
    /// A blocked queue: switch index (in m_switches), port, class.
    struct Queue
    {
        uint32_t sw;
        uint32_t port;
        uint8_t priority;
    };

    void Poll();
    /// The blocked queues (their indices in \p index, by Key) that \p q waits for.
    std::vector<uint32_t> WaitsFor(const std::unordered_map<uint64_t, uint32_t>& index,
                                   const Queue& q) const;
    static uint64_t Key(uint32_t sw, uint32_t port, uint8_t priority);

    Time m_window;
    Time m_interval;
    std::vector<Ptr<RdmaSwitch>> m_switches;
    std::vector<uint8_t> m_lossless;
    /// Each switch port's device -> (switch index, port).
    std::unordered_map<const RdmaNetDevice*, std::pair<uint32_t, uint32_t>> m_portOf;
    /// The cycles (queue keys, rotated to start at the smallest) of the last look.
    std::set<std::vector<uint64_t>> m_active;
    std::vector<Deadlock> m_found;
    EventId m_pollEvent;
    TracedCallback<const Deadlock&> m_deadlockTrace;
};

} // namespace ns3

#endif /* RDMA_PFC_DEADLOCK_DETECTOR_H */
