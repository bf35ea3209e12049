/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Stages that describe themselves: every scenario key has one owner among the stages,
 * topology.type offers the registered topologies, and each topology stage's size
 * estimate (from its keys alone, before anything is built) counts exactly the hosts,
 * switches and links its fabric has once built, for every shipped scenario. A fabric too
 * large to build is still counted, and refused by rdma-run before any other check. (A
 * stage defined in a test alone: test/plugin/new-stage-test.cc.)
 */
#include "cli-util.h"

#include "ns3/rdma-module.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <set>

using namespace ns3;
using nlohmann::json;
namespace fs = std::filesystem;

namespace
{
const std::string kScenarios = std::string(RDMA_SOURCE_DIR) + "/scenarios/";
} // namespace

TEST(StageDescription, EveryKeyHasOneOwnerAndTopologyTypesAreTheStages)
{
    std::set<std::string> paths;
    for (const ScenarioSchema::Key& k : ScenarioSchema::Keys())
    {
        EXPECT_TRUE(paths.insert(k.path).second) << "key '" << k.path << "' declared twice";
    }
    std::vector<std::string> types;
    for (const auto& stage : TopologyStage::All())
    {
        for (const TopologyStage::Type& t : stage->Types())
        {
            types.push_back(t.name);
        }
        for (const ScenarioSchema::Key& k : stage->Keys())
        {
            EXPECT_EQ(k.path.rfind("topology.", 0), 0u) << k.path;
        }
    }
    ASSERT_NE(ScenarioSchema::Find("topology.type"), nullptr);
    EXPECT_EQ(ScenarioSchema::Find("topology.type")->choices, types);
    const auto traffic = TrafficStage::CreateAll();
    EXPECT_GE(traffic.size(), 8u);
    for (const auto& stage : traffic)
    {
        EXPECT_FALSE(stage->Keys().empty()) << "a traffic source owns its keys";
        for (const ScenarioSchema::Key& k : stage->Keys())
        {
            EXPECT_EQ(k.path.rfind("traffic.", 0), 0u) << k.path;
        }
    }
}

TEST(StageDescription, TopologyEstimatesCountWhatIsBuilt)
{
    // Every shipped scenario, and every registered topology type among them.
    std::set<std::string> seen;
    for (const auto& entry : fs::directory_iterator(kScenarios))
    {
        if (entry.path().extension() != ".json")
        {
            continue;
        }
        const json s = ScenarioRunner::Load(entry.path().string(), {});
        const SizeGuard::Estimate e = ScenarioStages::Estimate(s);
        RdmaTopology topo;
        TopologyStage::For(s).Build(s, topo);
        const std::string name = entry.path().filename().string();
        EXPECT_EQ(e.hosts, double(topo.GetHosts().size())) << name;
        EXPECT_EQ(e.switches, double(topo.GetSwitches().size())) << name;
        EXPECT_EQ(e.links, double(topo.GetNLinks())) << name;
        EXPECT_EQ(e.hosts, double(ScenarioRunner::HostCount(s))) << name;
        EXPECT_GT(e.flows, 0) << name;
        seen.insert(s["topology"]["type"].get<std::string>());
        Simulator::Destroy();
    }
    for (const std::string& type : ScenarioSchema::Find("topology.type")->choices)
    {
        EXPECT_EQ(seen.count(type), 1u) << "no shipped scenario builds topology.type " << type;
    }
}

TEST(StageDescription, AFabricTooLargeToBuildIsStillCounted)
{
    // Resolved but not checked: the estimate needs the keys only.
    json s = ScenarioSchema::Validate(
        json::parse(R"({"topology": {"type": "fat_tree", "fat_tree": {"k": 1000}},
                        "traffic": {"permutation": {"enabled": true}}})"),
        "huge.json");
    ScenarioRunner::Resolve(s, "huge.json");
    const SizeGuard::Estimate e = ScenarioStages::Estimate(s);
    EXPECT_EQ(e.hosts, 250e6);                  // k^3 / 4
    EXPECT_EQ(e.switches, 1000 * 1000 + 250e3); // k pods of k ToRs and aggs, k^2 / 4 cores
    EXPECT_EQ(e.flows, 250e6);                  // a permutation message per host
    EXPECT_GT(e.MemoryBytes(), 1e15);
    // A topology file that cannot be read counts as empty (Check reports it).
    scenario::Set(s, "topology.type", "file");
    scenario::Set(s, "topology.file", "/nonexistent/x.topo");
    EXPECT_EQ(ScenarioStages::Estimate(s).hosts, 0);
}

TEST(StageDescription, AHugeFatTreeIsRefusedBeforeTheStagesChecks)
{
    // traffic.cdf.warmup_us at the duration fails CdfStage::Check; the size refusal comes
    // first, so no stage walked the 250 million hosts.
    rdmatest::TempDir dir;
    rdmatest::ExpectRefused(dir,
                            kScenarios + "fat-tree-websearch.json --set topology.fat_tree.k=1000" +
                                " --set traffic.cdf.warmup_us=2000",
                            {"fat-tree-websearch.json",
                             "'topology.fat_tree.k' (now 1000)",
                             "250000000 hosts",
                             "--max-memory-gb"});
}
