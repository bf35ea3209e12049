/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ideal FCT is a lower bound (issue 13): no flow of any shipped scenario completes
 * faster than its ideal, i.e. every slowdown in fct.csv is at least 1. The ideal is the
 * message alone on its path at the links' full line rates, so a link slowed by a link
 * event (leaf-spine-128-degraded) must not raise it above what routing around it gives.
 */
#include "cli-util.h"

#include "ns3/scenario-runner.h"

#include <filesystem>
#include <gtest/gtest.h>

using rdmatest::ReadCsv;
using rdmatest::TempDir;

namespace
{
std::vector<std::string>
ShippedScenarios()
{
    std::vector<std::string> names;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(RDMA_SOURCE_DIR) + "/scenarios"))
    {
        if (e.path().extension() == ".json")
        {
            names.push_back(e.path().stem().string());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

class IdealFct : public testing::TestWithParam<std::string>
{
};
} // namespace

TEST_P(IdealFct, NoFlowOfTheShippedScenarioBeatsItsIdeal)
{
    const std::string file = std::string(RDMA_SOURCE_DIR) + "/scenarios/" + GetParam() + ".json";
    TempDir dir;
    ns3::ScenarioRunner runner(ns3::ScenarioRunner::Load(file, {}));
    runner.Run(dir / "out", true);
    const auto rows = ReadCsv(dir / "out/fct.csv");
    uint64_t checked = 0;
    for (const auto& row : rows)
    {
        const int64_t ideal = std::stoll(row.at("ideal_fct_ns"));
        if (ideal <= 0)
        {
            continue; // an empty message has no ideal
        }
        ++checked;
        EXPECT_GE(std::stoll(row.at("fct_ns")), ideal)
            << "flow " << row.at("flow_id") << " (" << row.at("src") << " -> " << row.at("dst")
            << ", " << row.at("size_bytes") << " B) beat its ideal";
        EXPECT_GE(std::stod(row.at("slowdown")), 1.0) << "flow " << row.at("flow_id");
    }
    if (GetParam() != "pfc-deadlock-ring" && checked == 0)
    {
        // A scenario of long-lived flows only (they outlast the run by design, as a peer
        // simulator's fairness run): each of them must have moved data.
        const auto unfinished = ReadCsv(dir / "out/unfinished.csv");
        EXPECT_GT(unfinished.size(), 0u) << "the scenario completes or runs flows";
        for (const auto& row : unfinished)
        {
            EXPECT_GT(std::stoull(row.at("acked_bytes")), 0u)
                << "flow " << row.at("flow_id") << " never delivered a byte";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shipped,
                         IdealFct,
                         testing::ValuesIn(ShippedScenarios()),
                         [](const testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });
