/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/topology-stage.h"

#include "ns3/leaf-spine-topology-stage.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-topology.h"
#include "ns3/star-topology-stage.h"

namespace ns3
{

const std::vector<std::unique_ptr<TopologyStage>>&
TopologyStage::All()
{
    static const std::vector<std::unique_ptr<TopologyStage>> stages = []() {
        std::vector<std::unique_ptr<TopologyStage>> v;
        v.push_back(std::make_unique<StarTopologyStage>());
        v.push_back(std::make_unique<LeafSpineTopologyStage>());
        v.push_back(std::make_unique<ScenarioTopology>());
        return v;
    }();
    return stages;
}

const TopologyStage&
TopologyStage::For(const nlohmann::json& s)
{
    for (const auto& stage : All())
    {
        if (stage->Handles(s))
        {
            return *stage;
        }
    }
    throw ScenarioError("key 'topology.type' has invalid value " +
                        scenario::At(s, "topology.type").dump() + " (no stage builds it)");
}

} // namespace ns3
