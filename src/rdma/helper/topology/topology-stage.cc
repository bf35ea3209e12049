/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/topology-stage.h"

#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"

namespace ns3
{

FabricShape
FabricShape::Uniform(uint32_t hosts, uint32_t perRack, double hostBitRate, double uplinkBitRate)
{
    FabricShape shape;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        shape.rackOf.push_back(h / perRack);
        shape.hostBitRate.push_back(hostBitRate);
    }
    shape.rackUplinkBitRate.assign(hosts / perRack, uplinkBitRate);
    return shape;
}

std::vector<int64_t>
TopologyStage::HostIndexOfFileNode(const nlohmann::json& /* scenario */) const
{
    return {};
}

bool
TopologyStage::Handles(const nlohmann::json& s) const
{
    const std::string type = scenario::Str(s, "topology.type");
    for (const Type& t : Types())
    {
        if (t.name == type)
        {
            return true;
        }
    }
    return false;
}

const std::vector<std::unique_ptr<TopologyStage>>&
TopologyStage::All()
{
    static const std::vector<std::unique_ptr<TopologyStage>> stages =
        StageList<TopologyStage>::Create();
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

FabricShape
TopologyStage::ShapeOf(const nlohmann::json& s)
{
    return For(s).Shape(s);
}

std::vector<ScenarioKey>
TopologyStage::CommonKeys()
{
    using T = ScenarioKey::Type;
    std::vector<std::string> types;
    std::string doc;
    for (const auto& stage : All())
    {
        for (const Type& t : stage->Types())
        {
            types.push_back(t.name);
            doc += (doc.empty() ? "" : "; ") + t.name + ": " + t.doc;
        }
    }
    // clang-format off
    return {
        {"topology.type", T::CHOICE, types.empty() ? "" : types.front(), 0, 0, types, "", doc + "."},
        {"topology.host_rate_gbps", T::NUMBER, 100, 1e-3, 1e5, {}, "Gb/s", "Host link rate (any value)."},
        {"topology.host_delay_us", T::NUMBER, 1, 0, 1e6, {}, "us", "Host link propagation delay."},
        {"topology.fabric_rate_gbps", T::NUMBER, 100, 1e-3, 1e5, {}, "Gb/s", "leaf_spine, fat_tree: rate of the links between switches."},
        {"topology.fabric_delay_us", T::NUMBER, 1, 0, 1e6, {}, "us", "leaf_spine, fat_tree: delay of the links between switches."},
    };
    // clang-format on
}

std::vector<ScenarioKey>
TopologyStage::AllKeys()
{
    std::vector<ScenarioKey> keys = CommonKeys();
    for (const auto& stage : All())
    {
        for (ScenarioKey& k : stage->Keys())
        {
            keys.push_back(std::move(k));
        }
    }
    return keys;
}

template class StageList<TopologyStage>;

} // namespace ns3
