/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ABM_BUFFER_POLICY_H
#define RDMA_ABM_BUFFER_POLICY_H

#include "ns3/buffer-policy.h"
#include "ns3/nstime.h"
#include "ns3/rdma-wire.h"

#include <array>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Active Buffer Management (V. Addanki, M. Apostolaki, M. Ghobadi, S. Schmid and
 * L. Vanbever, "ABM: Active Buffer Management in Datacenters", SIGCOMM 2022),
 * switch.buffer.policy abm. Egress queue i of class p may hold
 *
 *     T_i^p(t) = alpha / n_p(t) x (B - Q(t)) x mu_i^p(t) / b
 *
 * with B - Q(t) the shared pool's free bytes, n_p(t) the number of congested queues of
 * class p in the switch (at least 1), b the port's line rate and mu_i^p(t) the queue's
 * drain rate. A queue is congested while it holds at least CongestedBytes. Its drain
 * rate is measured over windows of UpdateInterval (about one RTT) while it is congested;
 * a queue that is not congested, or has not yet been congested for a whole window,
 * drains at line rate (mu / b = 1). The measured mu / b is kept within
 * [MinDrainRate, 1]. So a burst that arrives at an idle port gets a threshold that
 * other congested classes and the ports they slow down cannot shrink, while the queues
 * that drain slowly (and that hold the buffer for long) get less of it. Its drops are
 * ABM_THRESHOLD.
 */
class AbmBufferPolicy : public BufferPolicy
{
  public:
    static TypeId GetTypeId();
    AbmBufferPolicy();

    void SetPortCount(uint32_t ports) override;
    void ConfigurePort(uint32_t port, uint64_t bitRate) override;
    double GetThreshold(uint32_t outPort, uint8_t priority, uint64_t freeBytes) override;
    DropReason GetDropReason() const override;
    bool TracksQueues() const override;
    void Enqueued(uint32_t outPort, uint8_t priority, uint64_t queueBytes) override;
    void Dequeued(uint32_t outPort, uint8_t priority, uint32_t bytes, uint64_t queueBytes) override;
    std::string GetName() const override;

    /// n_p: the congested queues of class \p priority (0 if none).
    uint32_t GetCongestedQueues(uint8_t priority) const;
    /// mu / b of queue (\p port, \p priority) as the threshold uses it now, in (0, 1].
    double GetNormalizedDrainRate(uint32_t port, uint8_t priority);

  private:
    /// One egress queue's congestion and drain-rate state.
    struct Queue
    {
        bool congested = false;
        bool measured = false;  ///< a whole window measured since it became congested
        double drainRate = 1.0; ///< last measured mu / b
        uint64_t windowStartPs = 0;
        uint64_t windowBytes = 0; ///< bytes dequeued in the current window
    };

    /// Track the congested state of (\p port, \p priority) at \p queueBytes.
    void UpdateCongestion(uint32_t port, uint8_t priority, uint64_t queueBytes);
    /// Close the queue's window if UpdateInterval has passed (measure mu).
    void RollWindow(uint32_t port, uint8_t priority);

    double m_alpha;
    Time m_updateInterval;
    uint64_t m_congestedBytes;
    double m_minDrainRate;

    std::vector<std::array<Queue, kRdmaNumPriorities>> m_queues;
    std::vector<uint64_t> m_bitRate; ///< per port, bit/s (0 = not configured: mu / b = 1)
    std::array<uint32_t, kRdmaNumPriorities> m_congested{};
};

} // namespace ns3

#endif /* RDMA_ABM_BUFFER_POLICY_H */
