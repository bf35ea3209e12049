/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/leaf-spine-topology-stage.h"

#include "ns3/leaf-spine-helper.h"
#include "ns3/scenario-access.h"

namespace ns3
{

using namespace scenario;

bool
LeafSpineTopologyStage::Handles(const nlohmann::json& s) const
{
    return Str(s, "topology.type") == "leaf_spine";
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

} // namespace ns3
