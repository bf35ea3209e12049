/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fabrics beside star and leaf-spine: the fat-tree helper (its longest path is three
 * times a star's when every link is the same), a topology file that describes the
 * leaf-spine helper's fabric runs exactly like it, the HPCC simulator's topology.txt and
 * flow.txt run unchanged, and malformed files are refused with file:line.
 */
#include "cli-util.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{
const std::string kTopologies = std::string(RDMA_SOURCE_DIR) + "/scenarios/topologies/";

json
ProbeOnly(const json& topology, uint32_t src, uint32_t dst)
{
    return json{
        {"topology", topology},
        {"stop_time_ms", 0.1},
        {"traffic",
         {{"probe", {{"enabled", true}, {"src", src}, {"dst", dst}, {"interval_us", 20}}}}},
        {"output", {{"progress", false}, {"port_sample_us", 0}, {"cc_sample_us", 0}}},
    };
}

double
MaxSlowdown(const std::string& fct)
{
    double worst = 0;
    for (const auto& row : ReadCsv(fct))
    {
        worst = std::max(worst, std::stod(row.at("slowdown")));
    }
    return worst;
}
} // namespace

TEST(FatTree, LongestPathIsThreeStarPaths)
{
    // k = 4: 16 hosts, 8 ToRs, 8 aggregation switches, 4 cores. Across pods a packet
    // crosses 6 links, a star's 2: with identical links the base RTT is 3 times larger.
    TempDir dir;
    const json star = RunScenario(dir, "star", ProbeOnly({{"type", "star"}, {"hosts", 2}}, 1, 0));
    const json ft =
        RunScenario(dir, "ft", ProbeOnly({{"type", "fat_tree"}, {"fat_tree", {{"k", 4}}}}, 15, 0));
    EXPECT_NEAR(ft["base_rtt_us"].get<double>(), 3 * star["base_rtt_us"].get<double>(), 1e-6);
    EXPECT_GT(ft["probes_completed"].get<int>(), 3);
    EXPECT_NEAR(MaxSlowdown(dir / "ft/fct.csv"), 1.0, 0.001) << "an idle fabric: ideal latency";
    // 16 host links + 8 x 2 ToR-aggregation + 8 x 2 aggregation-core links, two rows each.
    const auto links = ReadCsv(dir / "ft/links.csv");
    EXPECT_EQ(links.size(), 2u * (16 + 16 + 16));
    std::map<std::string, int> kinds;
    for (const auto& row : links)
    {
        kinds[row.at("node_kind")] += 1;
    }
    EXPECT_EQ(kinds["host"], 16);
    EXPECT_EQ(kinds["tor"], 16 + 16); // 2 hosts + 2 aggregation ports each
    EXPECT_EQ(kinds["agg"], 16 + 16); // 2 ToRs + 2 cores each
    EXPECT_EQ(kinds["core"], 16);     // 4 pods each
}

TEST(TopologyFiles, FileDescribingTheLeafSpineRunsLikeTheHelper)
{
    // scenarios/topologies/leaf-spine-2x2.topo is the helper's 2 x 2 x 2 fabric (hosts,
    // then leaves, then spines, links in the same order): every flow ends at the same time.
    TempDir dir;
    WriteText(dir / "flows.csv",
              "src,dst,bytes,start_ns\n0,2,200000,0\n1,3,300000,0\n3,0,100000,5000\n2,1,50000,0\n");
    json scenario = {
        {"traffic", {{"flows_csv", dir / "flows.csv"}}},
        {"output", {{"progress", false}, {"port_sample_us", 0}, {"cc_sample_us", 0}}},
    };
    scenario["topology"] = {{"type", "leaf_spine"},
                            {"leaves", 2},
                            {"spines", 2},
                            {"hosts_per_leaf", 2},
                            {"fabric_rate_gbps", 400}};
    RunScenario(dir, "helper", scenario);
    scenario["topology"] = {{"type", "file"}, {"file", kTopologies + "leaf-spine-2x2.topo"}};
    const json s = RunScenario(dir, "file", scenario);
    EXPECT_EQ(s["flows_completed"], 4);
    EXPECT_EQ(ReadText(dir / "file/fct.csv"), ReadText(dir / "helper/fct.csv"));
    EXPECT_EQ(ReadText(dir / "file/links.csv"), ReadText(dir / "helper/links.csv"));
}

TEST(TopologyFiles, HpccTopologyAndFlowFilesRunUnchanged)
{
    // HPCC numbering with the switch in the middle: hosts are nodes 0, 1, 3, 4 (host
    // indices 0..3), node 2 the switch. flow.txt: start times in seconds, a trailing note
    // after the announced flows (the HPCC sample file has one) is ignored.
    TempDir dir;
    WriteText(dir / "topology.txt",
              "5 1 4\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n"
              "3 2 100Gbps 1000ns 0\n4 2 100Gbps 1000ns 0\n");
    WriteText(dir / "flow.txt",
              "2\n0 3 3 100 100000 0.000002\n4 1 3 100 50000 0.00001\n\n"
              "First line: # of flows\nsrc0 dst0 3 dst_port0 size0 start_time0\n");
    const json scenario = {
        {"topology", {{"type", "hpcc_file"}, {"file", "topology.txt"}}},
        {"traffic", {{"hpcc_flow_file", "flow.txt"}}},
        {"output", {{"progress", false}, {"port_sample_us", 0}, {"cc_sample_us", 0}}},
    };
    const json s = RunScenario(dir, "hpcc", scenario);
    EXPECT_EQ(s["flows_completed"], 2);
    const auto rows = ReadCsv(dir / "hpcc/fct.csv");
    ASSERT_EQ(rows.size(), 2u);
    std::map<std::string, std::map<std::string, std::string>> byStart;
    for (const auto& row : rows)
    {
        byStart[row.at("start_ns")] = row;
    }
    // Node 3 is host 2, node 4 host 3; lone flows on disjoint paths: slowdown 1.
    EXPECT_EQ(byStart.at("2000").at("src"), "0");
    EXPECT_EQ(byStart.at("2000").at("dst"), "2");
    EXPECT_EQ(byStart.at("2000").at("size_bytes"), "100000");
    EXPECT_EQ(byStart.at("10000").at("src"), "3");
    EXPECT_EQ(byStart.at("10000").at("dst"), "1");
    // (Multi-packet messages finish within a few ns of their ideal time.)
    EXPECT_NEAR(MaxSlowdown(dir / "hpcc/fct.csv"), 1.0, 0.005);
}

TEST(TopologyFiles, HpccPaperFatTreeEqualsTheHelper)
{
    // The 320-host fabric of the HPCC paper, as a topology.txt and as the fat-tree helper:
    // the same hosts and the same longest base RTT.
    TempDir dir;
    const json file = RunScenario(
        dir,
        "file",
        ProbeOnly({{"type", "hpcc_file"}, {"file", kTopologies + "hpcc-fat-tree-320.txt"}},
                  319,
                  0));
    const json helper = RunScenario(dir,
                                    "helper",
                                    ProbeOnly({{"type", "fat_tree"},
                                               {"fabric_rate_gbps", 400},
                                               {"fat_tree",
                                                {{"pods", 5},
                                                 {"tors_per_pod", 4},
                                                 {"aggs_per_pod", 4},
                                                 {"hosts_per_tor", 16},
                                                 {"cores", 16}}}},
                                              319,
                                              0));
    EXPECT_DOUBLE_EQ(file["base_rtt_us"].get<double>(), helper["base_rtt_us"].get<double>());
    EXPECT_EQ(ReadCsv(dir / "file/links.csv").size(), 2u * 480);
    EXPECT_EQ(ReadCsv(dir / "helper/links.csv").size(), 2u * 480);
    EXPECT_NEAR(MaxSlowdown(dir / "file/fct.csv"), 1.0, 0.001);
}

TEST(TopologyFiles, BadInputIsRefused)
{
    TempDir dir;
    WriteText(dir / "t.topo",
              "hosts 2\nswitches 1\nlink h0 s0 100Gbps 1us\nlink h1 s0 100Gbps 1 us\n");
    json s = ProbeOnly({{"type", "file"}, {"file", "t.topo"}}, 1, 0);
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"t.topo:4"});

    s = ProbeOnly({{"type", "file"}, {"file", "none.topo"}}, 1, 0);
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"topology.file", "none.topo", "no such file"});

    s = ProbeOnly({{"type", "fat_tree"}, {"fat_tree", {{"aggs_per_pod", 3}, {"cores", 4}}}}, 1, 0);
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"topology.fat_tree.cores", "aggs_per_pod"});

    s = ProbeOnly({{"type", "fat_tree"}, {"fat_tree", {{"k", 3}}}}, 1, 0);
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"topology.fat_tree.k", "even"});

    WriteText(dir / "topology.txt", "3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n");
    WriteText(dir / "flow.txt", "2\n0 1 3 100 1000 0\n1 2 3 100 1000 0\n");
    s = ProbeOnly({{"type", "hpcc_file"}, {"file", "topology.txt"}}, 1, 0);
    s["traffic"]["hpcc_flow_file"] = "flow.txt";
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"flow.txt:3", "switch"});
}

TEST(TopologyFiles, HpccFlowsConvertToAReplayableTrace)
{
    // hpcc-flows-to-trace turns flow.txt into a trace; replayed, it gives the flows the
    // run reading flow.txt directly gives (same hosts, sizes, starts, completion times).
    const std::string converter =
        (std::filesystem::path(RDMA_RUN_BINARY).parent_path() / "hpcc-flows-to-trace").string();
    if (!std::filesystem::exists(converter))
    {
        GTEST_SKIP() << "examples not built";
    }
    TempDir dir;
    WriteText(dir / "topology.txt",
              "5 1 4\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n"
              "3 2 100Gbps 1000ns 0\n4 2 100Gbps 1000ns 0\n");
    WriteText(dir / "flow.txt",
              "4\n0 3 3 100 100000 0.000002\n4 3 3 100 50000 0.000003\n"
              "1 0 3 100 70000 0.000001\n3 4 3 100 20000 0.00001\n");
    ASSERT_EQ(std::system((converter + " " + dir / "flow.txt" + " " + dir / "topology.txt" + " > " +
                           dir / "trace.csv")
                              .c_str()),
              0);
    json scenario = {
        {"topology", {{"type", "hpcc_file"}, {"file", "topology.txt"}}},
        {"traffic", {{"hpcc_flow_file", "flow.txt"}}},
        {"output", {{"progress", false}, {"port_sample_us", 0}, {"cc_sample_us", 0}}},
    };
    RunScenario(dir, "direct", scenario);
    scenario["traffic"] = {{"trace", {{"csv", "trace.csv"}}}};
    RunScenario(dir, "replay", scenario);
    const auto direct = ReadCsv(dir / "direct/fct.csv");
    const auto replay = ReadCsv(dir / "replay/fct.csv");
    ASSERT_EQ(direct.size(), 4u);
    ASSERT_EQ(replay.size(), 4u);
    for (size_t i = 0; i < direct.size(); ++i)
    {
        for (const char* column :
             {"flow_id", "src", "dst", "prio", "size_bytes", "start_ns", "end_ns"})
        {
            EXPECT_EQ(direct[i].at(column), replay[i].at(column)) << column << " of row " << i;
        }
        EXPECT_EQ(direct[i].at("kind"), "flow");
        EXPECT_EQ(replay[i].at("kind"), "collective");
    }
}
