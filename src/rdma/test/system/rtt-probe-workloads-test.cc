/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RTT-probe beyond its defining incast (issue 59), on shipped scenarios with the
 * defaults, PFC and ECN off:
 *  - an MoE training all-to-all (DeepSeek-V3 layer on the 8 x 8 x 8 leaf-spine) and a
 *    decode layer complete within 10% of the same layer without congestion control,
 *    which the line rate alone limits: an idle fabric is filled;
 *  - WebSearch flows beside the 7 x 1,000 incast: the flows over 256 KB reach a median
 *    slowdown of at most 3.5 and a p99 of at most 20 (they share their senders' links
 *    with 1,000 incast QPs each, and their increase follows their own RTT).
 */
#include "cli-util.h" // a repository test: it runs rdma-run (not in an ns-3 tree)
#include "rtt-probe-incast-util.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using nlohmann::json;
using namespace rdmatest;
using namespace rdmatest::incast;

namespace
{

json
Moe(const std::string& algorithm, const std::string& scenario = "moe-deepseek-leaf-spine.json")
{
    json s = json::parse(ReadText(kScenarios + scenario));
    s["cc"] = {{"algorithm", algorithm}};
    s["switch"]["pfc"]["enabled"] = false;
    s["switch"]["ecn"]["enabled"] = false;
    s["output"]["progress"] = false;
    return s;
}

} // namespace

TEST(RttProbeWorkloads, MoeAllToAllCompletesWithinTenPercentOfNoControl)
{
    TempDir dir;
    const json none = RunScenario(dir, "none", Moe("none"));
    const json probe = RunScenario(dir, "probe", Moe("rtt-probe"));
    ASSERT_TRUE(none["collective_completed"].get<bool>());
    ASSERT_TRUE(probe["collective_completed"].get<bool>());
    EXPECT_EQ(probe["drops"], 0u);
    EXPECT_EQ(probe["bytes_delivered"], probe["collective_bytes"]);
    EXPECT_LE(probe["collective_time_ns"].get<double>(),
              1.1 * none["collective_time_ns"].get<double>());
}

TEST(RttProbeWorkloads, MoeDecodeLayerCompletesWithinTenPercentOfNoControl)
{
    // The decode layer: one small message per token and expert, each on a QP that has
    // been idle, so every message starts again (a start window, not a stale rate).
    TempDir dir;
    const json none = RunScenario(dir, "none", Moe("none", "moe-decode-leaf-spine.json"));
    const json probe = RunScenario(dir, "probe", Moe("rtt-probe", "moe-decode-leaf-spine.json"));
    ASSERT_TRUE(none["collective_completed"].get<bool>());
    ASSERT_TRUE(probe["collective_completed"].get<bool>());
    EXPECT_EQ(probe["drops"], 0u);
    EXPECT_LE(probe["collective_time_ns"].get<double>(),
              1.1 * none["collective_time_ns"].get<double>());
}

TEST(RttProbeWorkloads, LargeWebSearchFlowsBesideTheIncastKeepTheirSlowdown)
{
    TempDir dir;
    json sc = json::parse(ReadText(kScenarios + "rtt-probe-incast-cdf-mix.json"));
    sc["traffic"]["cdf"]["file"] = kScenarios + "workloads/websearch.cdf";
    sc["output"]["progress"] = false;
    const json s = RunScenario(dir, "mix", sc);
    EXPECT_EQ(s["drops"], 0u);
    std::vector<double> large;
    for (const auto& r : ReadCsv(dir / "mix/fct.csv"))
    {
        if (r.at("kind") == "cdf" && std::stod(r.at("size_bytes")) > 256e3)
        {
            large.push_back(std::stod(r.at("slowdown")));
        }
    }
    ASSERT_GE(large.size(), 50u);
    EXPECT_LE(Quantile(large, 0.5), 3.5);
    EXPECT_LE(Quantile(large, 0.99), 20);
}
