/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-stages.h"

#include "ns3/fabric-stage.h"
#include "ns3/output-description.h"
#include "ns3/topology-stage.h"
#include "ns3/traffic-stage.h"

namespace ns3
{

std::vector<ScenarioKey>
ScenarioStages::Keys()
{
    std::vector<ScenarioKey> all;
    const auto append = [&all](std::vector<ScenarioKey> more) {
        for (ScenarioKey& k : more)
        {
            all.push_back(std::move(k));
        }
    };
    append(TopologyStage::AllKeys());
    append(FabricStage().Keys());
    for (const auto& stage : TrafficStage::CreateAll())
    {
        append(stage->Keys());
    }
    append(OutputDescription().Keys());
    return all;
}

SizeGuard::Estimate
ScenarioStages::Estimate(const nlohmann::json& s)
{
    using Cost = SizeGuard::Cost;
    SizeGuard::Estimate e;
    e.qpKey = "traffic.incast.qps_per_sender";
    FabricStage().Estimate(s, e);
    TopologyStage::For(s).Estimate(s, e);
    for (const auto& stage : TrafficStage::CreateAll())
    {
        stage->Estimate(s, e);
    }
    e.memory.push_back({"QPs", e.qps * Cost::kPerQp, e.qpKey});
    e.memory.push_back(
        {"flows", e.flows * Cost::kPerFlow + e.traceRows * Cost::kPerTraceRow, e.qpKey});
    OutputDescription().Estimate(s, e);
    return e;
}

} // namespace ns3
