/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_STAR_TOPOLOGY_STAGE_H
#define RDMA_STAR_TOPOLOGY_STAGE_H

#include "ns3/topology-stage.h"

namespace ns3
{

/**
 * \ingroup rdma
 * topology.type "star": topology.hosts hosts on one switch, each link at
 * topology.host_rate_gbps with topology.host_delay_us (StarHelper).
 */
class StarTopologyStage : public TopologyStage
{
  public:
    std::vector<Type> Types() const override;
    std::vector<ScenarioSchema::Key> Keys() const override;
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    uint32_t HostCount(const nlohmann::json& scenario) const override;
    void Build(const nlohmann::json& scenario, RdmaTopology& topo) const override;
};

} // namespace ns3

#endif /* RDMA_STAR_TOPOLOGY_STAGE_H */
