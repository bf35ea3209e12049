/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_SAMPLER_H
#define RDMA_QUEUE_SAMPLER_H

#include "ns3/periodic-sampler.h"
#include "ns3/rdma-topology.h"
#include "ns3/switch-mmu.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * queue.csv: every switch egress queue (port, class), `time_ns,node,port,prio,bytes`.
 * A row is written when the queue is non-empty or was at the previous sample, so files
 * stay small and a drained queue ends with a 0.
 */
class QueueSampler : public PeriodicSampler
{
  public:
    QueueSampler(const RdmaTopology& topo, std::ostream& out, Time interval);
    /// Mean over samples of the largest egress queue at that sample (bytes): the
    /// typical bottleneck queue.
    double GetMeanLargestQueue() const;
    /// Keep each sample's largest queue (GetLargestPerSample): a run over MPI ranks
    /// takes the mean of the ranks' largest, sample by sample.
    void KeepLargestPerSample();
    /// Each sample's largest egress queue (bytes), in order, if kept.
    const std::vector<uint64_t>& GetLargestPerSample() const;

  protected:
    void WriteHeader(std::ostream& out) override;
    void Sample(std::ostream& out, int64_t nowNs) override;

  private:
    /// A switch's egress queues, gathered once (WriteHeader): the fabric is built by then.
    struct SwitchQueues
    {
        uint32_t node;
        Ptr<const SwitchMmu> mmu;
        uint32_t ports;
    };

    const RdmaTopology& m_topo;
    std::vector<SwitchQueues> m_switches;
    std::vector<uint64_t> m_last;     ///< per (switch, port, class), flattened
    std::vector<uint64_t> m_lastPort; ///< per (switch, port): its classes' sum
    double m_largestSum = 0;
    uint64_t m_samples = 0;
    bool m_keepLargest = false;
    std::vector<uint64_t> m_largestPerSample;
};

} // namespace ns3

#endif /* RDMA_QUEUE_SAMPLER_H */
