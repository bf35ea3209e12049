/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * traffic.htsim_cm end to end: htsim's shipped 16-node incast matrix runs on a k = 4
 * fat-tree (htsim's 16-node fabric shape) with every connection a flow that delivers all
 * its bytes, and a bad matrix is refused before any output with file:line.
 */
#include "cli-util.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{
const std::string kMatrices =
    std::string(RDMA_SOURCE_DIR) + "/scenarios/htsim/connection_matrices/";

json
FatTree16(const std::string& cm)
{
    return json{
        {"topology", {{"type", "fat_tree"}, {"fat_tree", {{"k", 4}}}, {"host_rate_gbps", 100}}},
        {"switch", {{"pfc", {{"enabled", true}}}}},
        {"cc", {{"algorithm", "nscc"}}},
        {"stop_time_ms", 50},
        {"traffic", {{"htsim_cm", cm}}},
        {"output", {{"progress", false}, {"port_sample_us", 0}, {"cc_sample_us", 0}}},
    };
}
} // namespace

TEST(HtsimCm, TheSuitesIncastMatrixRunsEveryConnectionToTheEnd)
{
    TempDir dir;
    const json s = RunScenario(dir, "incast", FatTree16(kMatrices + "incast.cm"));
    const auto rows = ReadCsv(dir / "incast/fct.csv");
    // incast.cm: 15 connections of 2,000,000 bytes, hosts 0-14 into host 15, all at 0.
    ASSERT_EQ(rows.size(), 15u);
    for (const auto& r : rows)
    {
        EXPECT_EQ(r.at("dst"), "15");
        EXPECT_EQ(r.at("size_bytes"), "2000000");
        EXPECT_EQ(r.at("start_ns"), "0");
        EXPECT_EQ(r.at("kind"), "flow");
    }
    EXPECT_TRUE(s["all_flows_completed"].get<bool>());
    EXPECT_EQ(s["bytes_delivered"].get<uint64_t>(), 15u * 2000000u);
    EXPECT_EQ(s["drops"].get<uint64_t>(), 0u); // PFC: lossless
    // 30 MB through host 15's 100G link take at least 30e6 * 8 / 100e9 s = 2.4 ms.
    double last = 0;
    for (const auto& r : rows)
    {
        last = std::max(last, std::stod(r.at("end_ns")));
    }
    EXPECT_GE(last, 2.4e6);
}

TEST(HtsimCm, ABadMatrixIsRefusedBeforeAnyOutput)
{
    TempDir dir;
    WriteText(dir / "m.cm", "Nodes 16\nConnections 1\n0->16 start 0 size 100\n");
    json s = FatTree16("m.cm");
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"m.cm:3", "dst", "16"});
    WriteText(dir / "m.cm", "Nodes 16\nConnections 1\n0->1 id 1 msg start 0 size 100\n");
    ExpectRefused(dir, dir / "s.json", {"m.cm:3", "msg"});
    s["traffic"]["htsim_cm"] = "missing.cm";
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"traffic.htsim_cm", "missing.cm"});
}
