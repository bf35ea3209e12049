/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Adding a traffic source is one file and its test: a source defined here, and
 * registered nowhere else, owns scenario keys (traffic.example.*) that validate and are
 * listed, its size estimate is guarded before anything is built, and its flows run.
 * (In the plugin test binary, so that the source exists in no other test's registry.)
 */
#include "../../src/rdma/test/system/scenario-test-util.h"

#include "ns3/rdma-module.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace ns3;
using namespace rdmatest;

namespace
{

/// A traffic source in one file: traffic.example.flows messages of 1,000 bytes from
/// host 1 to host 0 at time 0.
class ExampleSource : public TrafficStage
{
  public:
    std::vector<ScenarioKey> Keys() const override
    {
        using T = ScenarioKey::Type;
        return {{"traffic.example.enabled", T::BOOL, false, 0, 0, {}, "", "A test's source."},
                {"traffic.example.flows", T::INT, 1, 1, 1e12, {}, "", "Its messages."}};
    }

    void Estimate(const json& s, SizeGuard::Estimate& e) const override
    {
        if (Enabled(s))
        {
            const double n = scenario::Num(s, "traffic.example.flows");
            e.AddFlows(n, n, "traffic.example.flows");
        }
    }

    bool Enabled(const json& s) const override
    {
        return scenario::Bool(s, "traffic.example.enabled");
    }

    void AddTraffic(const json& s,
                    RdmaTopology& /* topo */,
                    TrafficDriver& driver,
                    int64_t& /* stream */) override
    {
        for (int64_t i = 0; i < scenario::Int(s, "traffic.example.flows"); ++i)
        {
            FlowSpec f;
            f.src = 1;
            f.dst = 0;
            f.bytes = 1000;
            driver.AddFlow(f);
        }
    }
};

// After every shipped source, so that it changes no flow id of theirs.
const StageRegistration<TrafficStage, ExampleSource> g_exampleSource(1000);
} // namespace

namespace
{
json
Example(int64_t flows)
{
    return {
        {"topology", {{"type", "star"}, {"hosts", 4}}},
        {"traffic", {{"example", {{"enabled", true}, {"flows", flows}}}}},
        {"output", {{"progress", false}}},
    };
}
} // namespace

TEST(NewStage, ItsKeysAreScenarioKeys)
{
    ASSERT_NE(ScenarioSchema::Find("traffic.example.flows"), nullptr);
    EXPECT_NE(ScenarioSchema::Markdown().find("`traffic.example.enabled`"), std::string::npos);
}

TEST(NewStage, ItsEstimateIsGuardedAndItsFlowsRun)
{
    TempDir dir;
    // Too many of its messages: refused by the size guard, naming its key.
    WriteText(dir / "huge.json", Example(1000000000).dump());
    SizeGuard::Limits limits;
    limits.maxMemoryBytes = 1e9;
    try
    {
        ScenarioRunner::Load(dir / "huge.json", {}, &limits);
        ADD_FAILURE() << "not refused";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("'traffic.example.flows' (now 1000000000)"),
                  std::string::npos)
            << e.what();
    }
    // Three of them: a run of three flows, all completed.
    const json s = RunScenario(dir, "three", Example(3));
    EXPECT_EQ(s["flows_total"], 3);
    EXPECT_TRUE(s["all_flows_completed"].get<bool>());
}
