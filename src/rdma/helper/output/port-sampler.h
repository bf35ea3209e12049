/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PORT_SAMPLER_H
#define RDMA_PORT_SAMPLER_H

#include "ns3/periodic-sampler.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-topology.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * ports.csv: cumulative bytes sent by every port (hosts and switches) that has sent
 * anything, `time_ns,node,port,tx_bytes`; throughput and link utilization are the
 * differences between samples.
 */
class PortSampler : public PeriodicSampler
{
  public:
    PortSampler(const RdmaTopology& topo, std::ostream& out, Time interval);

  protected:
    void WriteHeader(std::ostream& out) override;
    void Sample(std::ostream& out, int64_t nowNs) override;

  private:
    /// A port, gathered once (WriteHeader): hosts' first, then every switch's in order.
    struct Port
    {
        uint32_t node;
        uint32_t port;
        Ptr<const RdmaNetDevice> device;
    };

    const RdmaTopology& m_topo;
    std::vector<Port> m_ports;
};

} // namespace ns3

#endif /* RDMA_PORT_SAMPLER_H */
