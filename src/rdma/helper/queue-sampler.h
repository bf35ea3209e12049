/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_SAMPLER_H
#define RDMA_QUEUE_SAMPLER_H

#include "ns3/event-id.h"
#include "ns3/rdma-topology.h"

#include <ostream>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Samples every switch egress queue (port, class) periodically and writes
 * `time_ns,node,port,prio,bytes` rows. A row is written when the queue is non-empty or
 * was at the previous sample, so files stay small and a drained queue ends with a 0.
 */
class QueueSampler
{
  public:
    QueueSampler(const RdmaTopology& topo, std::ostream& out, Time interval);
    /// Write the header and start sampling at time 0.
    void Start();
    void Stop();
    /// Largest sampled queue (bytes).
    uint64_t GetMaxSampled() const;

  private:
    void Sample();

    const RdmaTopology& m_topo;
    std::ostream& m_out;
    Time m_interval;
    EventId m_event;
    std::vector<uint64_t> m_last; ///< per (switch, port, class), flattened
    uint64_t m_maxSampled;
};

} // namespace ns3

#endif /* RDMA_QUEUE_SAMPLER_H */
