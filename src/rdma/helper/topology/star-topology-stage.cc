/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-access.h"
#include "ns3/star-helper.h"
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
    std::vector<ScenarioKey> Keys() const override;
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    uint32_t HostCount(const nlohmann::json& scenario) const override;
    void Build(const nlohmann::json& scenario, RdmaTopology& topo) const override;
    FabricShape Shape(const nlohmann::json& scenario) const override;
};

using namespace scenario;

namespace
{
// The first type of topology.type, its default.
const StageRegistration<TopologyStage, StarTopologyStage> g_starStage(10);
} // namespace

std::vector<TopologyStage::Type>
StarTopologyStage::Types() const
{
    return {{"star", "hosts on one switch"}};
}

std::vector<ScenarioKey>
StarTopologyStage::Keys() const
{
    return {
        {"topology.hosts", ScenarioKey::Type::INT, 8, 2, 100000, {}, "", "star: number of hosts."}};
}

void
StarTopologyStage::Estimate(const nlohmann::json& s, SizeGuard::Estimate& e) const
{
    const double hosts = Int(s, "topology.hosts");
    e.AddFabric(hosts, 1, hosts, "topology.hosts");
}

uint32_t
StarTopologyStage::HostCount(const nlohmann::json& s) const
{
    return Int(s, "topology.hosts");
}

void
StarTopologyStage::Build(const nlohmann::json& s, RdmaTopology& topo) const
{
    StarHelper star;
    star.hosts = Int(s, "topology.hosts");
    star.hostRate = Gbps(Num(s, "topology.host_rate_gbps"));
    star.hostDelay = Us(Num(s, "topology.host_delay_us"));
    star.Build(topo);
}

FabricShape
StarTopologyStage::Shape(const nlohmann::json& s) const
{
    const uint32_t hosts = Int(s, "topology.hosts");
    return FabricShape::Uniform(hosts, hosts, Num(s, "topology.host_rate_gbps") * 1e9, 0);
}

} // namespace ns3
