/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/star-topology-stage.h"

#include "ns3/scenario-access.h"
#include "ns3/star-helper.h"

namespace ns3
{

using namespace scenario;

bool
StarTopologyStage::Handles(const nlohmann::json& s) const
{
    return Str(s, "topology.type") == "star";
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

} // namespace ns3
