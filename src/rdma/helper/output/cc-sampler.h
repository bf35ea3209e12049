/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_SAMPLER_H
#define RDMA_CC_SAMPLER_H

#include "ns3/periodic-sampler.h"
#include "ns3/rdma-topology.h"

#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * cc.csv: congestion-control state of chosen QPs,
 * `time_ns,node,qp,rate_bps,window_bytes,acked_bytes` (window 0 = none; acked bytes
 * cumulative, so per-QP throughput is their difference between samples).
 */
class CcSampler : public PeriodicSampler
{
  public:
    /// \p qps: (host node id, requester QP number) pairs to sample.
    CcSampler(const RdmaTopology& topo,
              std::vector<std::pair<uint32_t, uint32_t>> qps,
              std::ostream& out,
              Time interval);

  protected:
    void WriteHeader(std::ostream& out) override;
    void Sample(std::ostream& out, int64_t nowNs) override;

  private:
    const RdmaTopology& m_topo;
    std::vector<std::pair<uint32_t, uint32_t>> m_qps;
};

} // namespace ns3

#endif /* RDMA_CC_SAMPLER_H */
