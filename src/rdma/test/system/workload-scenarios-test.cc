/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The shipped workload scenarios are valid: each loads (schema, cross-key checks) and
 * reads its files (CDFs, group lists, topology files) without error.
 */
#include "scenario-test-util.h"

#include <gtest/gtest.h>

TEST(WorkloadScenarios, ShippedScenariosLoad)
{
    for (const char* name : {"cdf-websearch-leaf-spine.json",
                             "incast-dynamics.json",
                             "moe-deepseek-leaf-spine.json",
                             "moe-decode-leaf-spine.json",
                             "fat-tree-websearch.json",
                             "hpcc-fat-tree-320.json"})
    {
        const std::string file = std::string(RDMA_SOURCE_DIR) + "/scenarios/" + name;
        try
        {
            ns3::ScenarioRunner runner(ns3::ScenarioRunner::Load(file, {}));
            runner.Prepare();
        }
        catch (const ns3::ScenarioError& e)
        {
            ADD_FAILURE() << name << ": " << e.what();
        }
    }
}
