/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * htsim's fabrics (topology.type htsim_topo and htsim_default): a topology file's tiers
 * give every switch the ports its radixes and bundles say, at the tier's speed and
 * latency; an oversubscribed leaf-spine has the ratio its file declares; htsim's default
 * fabric for a matrix of 16 nodes is the k = 4 fat-tree, and its 128-node file that
 * "is supposed to match the default" does; bad files are refused with file:line.
 */
#include "cli-util.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using nlohmann::json;
using namespace rdmatest;

namespace
{
const std::string kHtsim = std::string(RDMA_SOURCE_DIR) + "/scenarios/htsim/";

json
ProbeOnly(const json& topology, uint32_t src, uint32_t dst)
{
    return json{
        {"topology", topology},
        {"stop_time_ms", 0.05},
        {"traffic",
         {{"probe", {{"enabled", true}, {"src", src}, {"dst", dst}, {"interval_us", 20}}}}},
        {"output", {{"progress", false}, {"port_sample_us", 0}, {"cc_sample_us", 0}}},
    };
}

/// Per node of \p kind: how many ports lead to nodes of each kind, and at which rates.
struct Ports
{
    std::map<std::string, std::map<std::string, int>> count; ///< node -> peer kind -> ports
    std::map<std::string, std::set<std::string>> rate;       ///< "kind-peer" -> rate_bps
    std::map<std::string, std::set<std::string>> delay;      ///< "kind-peer" -> delay_ns
};

Ports
ReadPorts(const std::string& linksCsv, const std::string& kind)
{
    Ports p;
    for (const auto& row : ReadCsv(linksCsv))
    {
        const std::string pair = row.at("node_kind") + "-" + row.at("peer_kind");
        p.rate[pair].insert(row.at("rate_bps"));
        p.delay[pair].insert(row.at("delay_ns"));
        if (row.at("node_kind") == kind)
        {
            p.count[row.at("node")][row.at("peer_kind")] += 1;
        }
    }
    return p;
}

/// Every node of \p kind in \p p has \p n ports to nodes of \p peer.
void
ExpectEveryNodeHas(const Ports& p, const std::string& peer, int n, size_t nodes)
{
    EXPECT_EQ(p.count.size(), nodes);
    for (const auto& [node, peers] : p.count)
    {
        EXPECT_EQ(peers.count(peer) ? peers.at(peer) : 0, n) << "node " << node << " to " << peer;
    }
}
} // namespace

TEST(HtsimTopology, TiersGiveEverySwitchItsRadixesBundlesAndSpeeds)
{
    // test.topo: 8 nodes in pods of 4, 3 tiers. Tier 0 (ToR): 200G down, Radix_Down 2,
    // Radix_Up 2; tier 1 (aggregation): 200G down, Radix_Down 2, Radix_Up 4; tier 2
    // (core): 100G down, Radix_Down 4, Bundle 2 (two links to each aggregation switch).
    TempDir dir;
    const json s =
        RunScenario(dir,
                    "t",
                    ProbeOnly({{"type", "htsim_topo"},
                               {"htsim_topo", {{"file", kHtsim + "topologies/test.topo"}}}},
                              7,
                              0));
    EXPECT_GT(s["probes_completed"].get<int>(), 0) << "every host reaches every other";
    const std::string links = dir / "t/links.csv";
    const Ports tors = ReadPorts(links, "tor");
    // 8 hosts / Radix_Down 2: 4 ToRs, each 2 hosts below and Radix_Up 2 uplinks.
    ExpectEveryNodeHas(tors, "host", 2, 4);
    ExpectEveryNodeHas(tors, "agg", 2, 4);
    // 8 ToR uplinks of 200G over aggregation switches of Radix_Down 2: 4 of them, each
    // with Radix_Up 4 = 2 cores x Bundle 2 uplinks.
    const Ports aggs = ReadPorts(links, "agg");
    ExpectEveryNodeHas(aggs, "tor", 2, 4);
    ExpectEveryNodeHas(aggs, "core", 4, 4);
    // 16 aggregation uplinks of 100G (twice 8 of 200G) over cores of Radix_Down 4.
    const Ports cores = ReadPorts(links, "core");
    ExpectEveryNodeHas(cores, "agg", 4, 4);
    EXPECT_EQ(tors.rate.at("host-tor"), std::set<std::string>{"200000000000"});
    EXPECT_EQ(tors.rate.at("tor-agg"), std::set<std::string>{"200000000000"});
    EXPECT_EQ(tors.rate.at("agg-core"), std::set<std::string>{"100000000000"});
    for (const auto& [pair, delays] : tors.delay)
    {
        EXPECT_EQ(delays, std::set<std::string>{"1000"}) << pair << ": Downlink_Latency_ns 1000";
    }
}

TEST(HtsimTopology, AnOversubscribedLeafSpineHasTheRatioItsFileDeclares)
{
    // leaf_spine_tiny.topo: 32 nodes, 2 tiers, ToR Radix_Down 8, Radix_Up 2,
    // Oversubscribed 4, every link 100G.
    TempDir dir;
    RunScenario(dir,
                "t",
                ProbeOnly({{"type", "htsim_topo"},
                           {"htsim_topo", {{"file", kHtsim + "topologies/leaf_spine_tiny.topo"}}}},
                          31,
                          0));
    const Ports leaves = ReadPorts(dir / "t/links.csv", "leaf");
    ExpectEveryNodeHas(leaves, "host", 8, 4);
    ExpectEveryNodeHas(leaves, "spine", 2, 4);
    const Ports spines = ReadPorts(dir / "t/links.csv", "spine");
    ExpectEveryNodeHas(spines, "leaf", 4, 2);
    // Every link at 100G: 8 down, 2 up, 4:1.
    EXPECT_EQ(leaves.rate.at("host-leaf"), std::set<std::string>{"100000000000"});
    EXPECT_EQ(leaves.rate.at("leaf-spine"), std::set<std::string>{"100000000000"});
}

TEST(HtsimTopology, TheDefaultFabricOfASixteenNodeMatrixIsTheFourAryFatTree)
{
    // htsim without -topo: 3 tiers, k with k^3 / 4 = the matrix's Nodes (16: k = 4),
    // 100G and 1 us everywhere: the fat_tree helper's k = 4.
    TempDir dir;
    json htsim = ProbeOnly({{"type", "htsim_default"}}, 15, 0);
    htsim["traffic"]["htsim_cm"] = kHtsim + "connection_matrices/one.cm";
    RunScenario(dir, "htsim", htsim);
    json ft = ProbeOnly({{"type", "fat_tree"}, {"fat_tree", {{"k", 4}}}}, 15, 0);
    ft["traffic"]["htsim_cm"] = kHtsim + "connection_matrices/one.cm";
    RunScenario(dir, "ft", ft);
    EXPECT_EQ(ReadText(dir / "htsim/links.csv"), ReadText(dir / "ft/links.csv"));
    EXPECT_EQ(ReadText(dir / "htsim/fct.csv"), ReadText(dir / "ft/fct.csv"));
}

TEST(HtsimTopology, HtsimsFileThatMatchesItsDefaultBuildsTheSameFabric)
{
    // fat_tree_128_1os.topo "is supposed to match the default auto-generated topology"
    // of 128 nodes (k = 8).
    TempDir dir;
    RunScenario(dir,
                "file",
                ProbeOnly({{"type", "htsim_topo"},
                           {"htsim_topo", {{"file", kHtsim + "topologies/fat_tree_128_1os.topo"}}}},
                          127,
                          0));
    RunScenario(
        dir,
        "default",
        ProbeOnly({{"type", "htsim_default"}, {"htsim_default", {{"nodes", 128}}}}, 127, 0));
    EXPECT_EQ(ReadText(dir / "file/links.csv"), ReadText(dir / "default/links.csv"));
}

TEST(HtsimTopology, BadInputIsRefusedWithFileLineAndValue)
{
    TempDir dir;
    const std::string good = "Nodes 8\nTiers 2\nPodsize 8\n\nTier 0\nDownlink_speed_Gbps 100\n"
                             "Radix_Down 4\nRadix_Up 2\nOversubscribed 2\n"
                             "Downlink_Latency_ns 1000\n\nTier 1\nDownlink_speed_Gbps 100\n"
                             "Radix_Down 2\nDownlink_Latency_ns 1000\n";
    json s = ProbeOnly({{"type", "htsim_topo"}, {"htsim_topo", {{"file", "t.topo"}}}}, 1, 0);
    WriteText(dir / "s.json", s.dump());
    WriteText(dir / "t.topo", good);
    const json ok = RunScenario(dir, "ok", s);
    EXPECT_GT(ok["probes_completed"].get<int>(), 0);

    WriteText(dir / "t.topo", good + "Colour blue\n");
    ExpectRefused(dir, dir / "s.json", {"t.topo:16", "Colour", "unknown attribute"});
    WriteText(dir / "t.topo", good + "Queue_Down 100000\n");
    ExpectRefused(dir, dir / "s.json", {"t.topo:16", "Queue_Down", "100000"});
    WriteText(dir / "t.topo", good + "Switch_Latency_ns 50\n");
    ExpectRefused(dir, dir / "s.json", {"t.topo:16", "Switch_Latency_ns", "50"});
    std::string bad = good;
    bad.replace(bad.find("Radix_Up 2"), 10, "Radix_Up 3");
    WriteText(dir / "t.topo", bad);
    ExpectRefused(dir, dir / "s.json", {"t.topo:8", "Radix_Up 3"});
    bad = good;
    bad.replace(bad.find("Radix_Down 4"), 12, "Radix_Down x");
    WriteText(dir / "t.topo", bad);
    ExpectRefused(dir, dir / "s.json", {"t.topo:7", "Radix_Down", "'x'"});

    s["topology"]["htsim_topo"]["file"] = "none.topo";
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"topology.htsim_topo.file", "none.topo", "no such file"});

    s = ProbeOnly({{"type", "htsim_default"}, {"htsim_default", {{"nodes", 20}}}}, 1, 0);
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"topology.htsim_default.nodes", "20"});
}
