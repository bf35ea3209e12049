/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/leaf-spine-helper.h"
#include "ns3/scenario-access.h"
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
    std::vector<ScenarioKey> Keys() const override;
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    uint32_t HostCount(const nlohmann::json& scenario) const override;
    void Build(const nlohmann::json& scenario, RdmaTopology& topo) const override;
    FabricShape Shape(const nlohmann::json& scenario) const override;
};

using namespace scenario;

namespace
{
const StageRegistration<TopologyStage, LeafSpineTopologyStage> g_leafSpineStage(20);
} // namespace

std::vector<TopologyStage::Type>
LeafSpineTopologyStage::Types() const
{
    return {{"leaf_spine", "two-tier Clos"}};
}

std::vector<ScenarioKey>
LeafSpineTopologyStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"topology.leaves", T::INT, 2, 1, 10000, {}, "", "leaf_spine: number of leaf (ToR) switches."},
        {"topology.spines", T::INT, 2, 1, 10000, {}, "", "leaf_spine: number of spine switches."},
        {"topology.hosts_per_leaf", T::INT, 4, 1, 10000, {}, "", "leaf_spine: hosts under each leaf."},
        {"topology.links_per_spine", T::INT, 1, 1, 64, {}, "", "leaf_spine: parallel links between a leaf and a spine."},
    };
    // clang-format on
}

void
LeafSpineTopologyStage::Estimate(const nlohmann::json& s, SizeGuard::Estimate& e) const
{
    const double leaves = Int(s, "topology.leaves");
    const double spines = Int(s, "topology.spines");
    const double hosts = leaves * Int(s, "topology.hosts_per_leaf");
    e.AddFabric(hosts,
                leaves + spines,
                hosts + leaves * spines * Int(s, "topology.links_per_spine"),
                "topology.leaves");
}

uint32_t
LeafSpineTopologyStage::HostCount(const nlohmann::json& s) const
{
    return Int(s, "topology.leaves") * Int(s, "topology.hosts_per_leaf");
}

void
LeafSpineTopologyStage::Build(const nlohmann::json& s, RdmaTopology& topo) const
{
    LeafSpineHelper ls;
    ls.leaves = Int(s, "topology.leaves");
    ls.spines = Int(s, "topology.spines");
    ls.hostsPerLeaf = Int(s, "topology.hosts_per_leaf");
    ls.linksPerSpine = Int(s, "topology.links_per_spine");
    ls.hostRate = Gbps(Num(s, "topology.host_rate_gbps"));
    ls.hostDelay = Us(Num(s, "topology.host_delay_us"));
    ls.fabricRate = Gbps(Num(s, "topology.fabric_rate_gbps"));
    ls.fabricDelay = Us(Num(s, "topology.fabric_delay_us"));
    ls.Build(topo);
}

FabricShape
LeafSpineTopologyStage::Shape(const nlohmann::json& s) const
{
    const uint32_t perLeaf = Int(s, "topology.hosts_per_leaf");
    const double uplink = At(s, "topology.spines").get<double>() *
                          At(s, "topology.links_per_spine").get<double>() *
                          (Num(s, "topology.fabric_rate_gbps") * 1e9);
    return FabricShape::Uniform(Int(s, "topology.leaves") * perLeaf,
                                perLeaf,
                                Num(s, "topology.host_rate_gbps") * 1e9,
                                uplink);
}

} // namespace ns3
