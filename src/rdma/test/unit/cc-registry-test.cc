/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of CcRegistry::Resolve: every parameter of an algorithm as its controllers
 * will have it for a line rate (the user's value, else the controller's own after Init),
 * the way the scenario runner records them in config.json.
 */

#include "ns3/cc-registry.h"
#include "ns3/congestion-control.h"
#include "ns3/core-module.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;
using json = nlohmann::json;

namespace
{
constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
} // namespace

// Rule: the user's values are kept as given; the others are read back after Init, so a
// DCQCN parameter left at preset holds the preset's value for the line rate.
TEST(CcRegistryResolve, UserValuesWinOthersAreResolvedForTheLineRate)
{
    const CcRegistry::Resolved r =
        CcRegistry::Resolve("dcqcn", json{{"Preset", "Paper"}, {"RateAi", "80Mbps"}}, kLine);
    ASSERT_TRUE(r.controller);
    EXPECT_EQ(r.parameters["Preset"], "Paper");
    EXPECT_EQ(r.parameters["RateAi"], "80Mbps");
    EXPECT_EQ(r.parameters["RateIncreaseInterval"], "55us");
    EXPECT_EQ(r.parameters["RateHai"], "400000000bps");
    EXPECT_EQ(r.parameters["RateDecreaseInterval"], "0us");
    EXPECT_EQ(r.controller->GetCnpInterval(), MicroSeconds(50));

    // The nic preset's steps scale with the line rate (5 Mb/s x rate/25G).
    const CcRegistry::Resolved nic = CcRegistry::Resolve("dcqcn", json::object(), 25000000000ULL);
    EXPECT_EQ(nic.parameters["Preset"], "Nic");
    EXPECT_EQ(nic.parameters["RateAi"], "5000000bps");
    EXPECT_EQ(nic.parameters["RateHai"], "50000000bps");
    EXPECT_EQ(nic.controller->GetCnpInterval(), MicroSeconds(4));

    // A user's "preset" is recorded as the value it stands for.
    const CcRegistry::Resolved left =
        CcRegistry::Resolve("dcqcn", json{{"MinRate", "preset"}, {"G", 0.5}}, kLine);
    EXPECT_EQ(left.parameters["MinRate"], "1000000000bps");
    EXPECT_EQ(left.parameters["G"], "0.5");
}

// Rule: every algorithm resolves; every Attribute is listed; one that the controller does
// not resolve at Init (its default is not "preset") reads back as its default, so
// config.json records what --list-keys documents. Only DCQCN asks for a CNP spacing.
TEST(CcRegistryResolve, EveryAlgorithmEveryAttribute)
{
    for (const PluginRegistry::Plugin& a : PluginRegistry::CongestionControls().Plugins())
    {
        const CcRegistry::Resolved r = CcRegistry::Resolve(a.name, json::object(), kLine);
        ASSERT_TRUE(r.controller) << a.name;
        const auto attributes = PluginRegistry::CongestionControls().Attributes(a.tid);
        EXPECT_EQ(r.parameters.size(), attributes.size()) << a.name;
        for (const auto& info : attributes)
        {
            ASSERT_TRUE(r.parameters.contains(info.name)) << a.name << "." << info.name;
            const std::string def = PluginRegistry::DefaultString(info);
            if (def == "preset")
            {
                EXPECT_NE(r.parameters[info.name], "preset") << a.name << "." << info.name;
            }
            else
            {
                EXPECT_EQ(r.parameters[info.name], def) << a.name << "." << info.name;
            }
        }
        EXPECT_EQ(r.controller->GetCnpInterval().IsStrictlyPositive(), a.name == "dcqcn") << a.name;
    }
}

TEST(CcRegistryReactsToCnp, AsksTheController)
{
    // DCQCN cuts its rate on a CNP; the delay- and INT-based controllers and "none" do not
    // (analysis notes their marks and CNPs as ignored, from summary.json). Every
    // registered controller answers.
    for (const PluginRegistry::Plugin& a : PluginRegistry::CongestionControls().Plugins())
    {
        const bool reacts = CcRegistry::ReactsToCnp(a.name);
        if (a.name == "dcqcn" || a.name == "none" || a.name == "timely" || a.name == "hpcc")
        {
            EXPECT_EQ(reacts, a.name == "dcqcn") << a.name;
        }
    }
    Simulator::Destroy();
}
