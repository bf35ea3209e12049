/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LEAF_SPINE_TOPOLOGY_STAGE_H
#define RDMA_LEAF_SPINE_TOPOLOGY_STAGE_H

#include "ns3/topology-stage.h"

namespace ns3
{

/**
 * \ingroup rdma
 * topology.type "leaf_spine": a two-tier Clos of topology.leaves leaves and
 * topology.spines spines, topology.hosts_per_leaf hosts under each leaf and
 * topology.links_per_spine parallel links between a leaf and a spine (LeafSpineHelper).
 */
class LeafSpineTopologyStage : public TopologyStage
{
  public:
    std::vector<Type> Types() const override;
    std::vector<ScenarioSchema::Key> Keys() const override;
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    uint32_t HostCount(const nlohmann::json& scenario) const override;
    void Build(const nlohmann::json& scenario, RdmaTopology& topo) const override;
};

} // namespace ns3

#endif /* RDMA_LEAF_SPINE_TOPOLOGY_STAGE_H */
