/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Adding a class to a pluggable family is one class and one test file: a load balancer
 * defined here, and registered nowhere else, is a choice of routing.load_balancer, its
 * Attribute is a scenario key (routing.test_only.Bias) listed by --list-keys (Markdown
 * and JSON), and a scenario that chooses it runs with the value it sets. (Its own test
 * binary, so that the class exists in no other test's registry.)
 */
#include "../../src/rdma/test/system/scenario-test-util.h"

#include "ns3/rdma-module.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>

using nlohmann::json;
using namespace ns3;
using namespace rdmatest;

namespace
{

/// The Bias of the last TestOnlyLoadBalancer that chose a port (0: none did).
uint32_t g_biasSeen = 0;

/// Always the first candidate; remembers its Bias when it chooses.
class TestOnlyLoadBalancer : public LoadBalancer
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::TestOnlyLoadBalancer")
                .SetParent<LoadBalancer>()
                .SetGroupName("Rdma")
                .AddConstructor<TestOnlyLoadBalancer>()
                .AddAttribute("Bias",
                              "A parameter only this test knows (dimensionless, default 1).",
                              UintegerValue(1),
                              MakeUintegerAccessor(&TestOnlyLoadBalancer::m_bias),
                              MakeUintegerChecker<uint32_t>());
        return tid;
    }

    uint32_t SelectPort(const RdmaHeader& /* h */, const std::vector<uint32_t>& candidates) override
    {
        g_biasSeen = m_bias;
        return candidates.front();
    }

    std::string GetName() const override
    {
        return "test_only";
    }

  private:
    uint32_t m_bias = 1;
};

NS_OBJECT_ENSURE_REGISTERED(TestOnlyLoadBalancer);

} // namespace

TEST(NewPluggableClass, IsAChoiceAndItsAttributeAKeyInTheReference)
{
    const ScenarioSchema::Key* choice = ScenarioSchema::Find("routing.load_balancer");
    ASSERT_NE(choice, nullptr);
    EXPECT_NE(std::find(choice->choices.begin(), choice->choices.end(), "test_only"),
              choice->choices.end());
    EXPECT_NE(ScenarioSchema::Markdown().find("`routing.test_only.Bias`"), std::string::npos);
    bool listed = false;
    const json keys = ScenarioSchema::KeysJson();
    for (const json& k : keys["keys"])
    {
        if (k["path"] == "routing.test_only.Bias")
        {
            listed = true;
            EXPECT_EQ(k["kind"], "routing");
            EXPECT_EQ(k["default"], "1");
        }
    }
    EXPECT_TRUE(listed) << "--list-keys --json";
}

TEST(NewPluggableClass, AScenarioChoosesItAndSetsItsParameter)
{
    TempDir dir;
    const json scenario = {
        {"topology", {{"type", "leaf_spine"}, {"leaves", 2}, {"spines", 2}, {"hosts_per_leaf", 2}}},
        {"routing", {{"load_balancer", "test_only"}, {"test_only", {{"Bias", 7}}}}},
        {"traffic", {{"permutation", {{"enabled", true}, {"message_bytes", 10000}}}}},
        {"output", {{"progress", false}}},
    };
    const json s = RunScenario(dir, "new-class", scenario);
    EXPECT_TRUE(s["all_flows_completed"].get<bool>());
    EXPECT_EQ(s["bytes_delivered"], s["bytes_sent"]);
    EXPECT_EQ(g_biasSeen, 7u) << "the scenario's value reached the balancer";
    const json config = json::parse(ReadText(dir / "new-class/config.json"));
    EXPECT_EQ(config["routing"]["test_only"]["Bias"], "7");
}
