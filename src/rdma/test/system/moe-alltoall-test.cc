/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * MoE all-to-all on a leaf-spine, end to end: no flow starts before the groups it waits
 * for have completed on its sending host (recomputed from fct.csv), each flow starts
 * exactly when its last dependency (plus gap) allows, the all-to-all takes at least the
 * busiest NIC's bytes at line rate, collectives.csv agrees with fct.csv, and the trace
 * the generator writes, replayed, gives the same flows. Waiting on deliveries, a GPU
 * starts no later than the acknowledgements would let it and no sooner than the data it
 * waits for can have arrived, losses and out-of-order placement included.
 */
#include "cli-util.h"

#include <gtest/gtest.h>
#include <set>

using nlohmann::json;
using namespace rdmatest;

namespace
{
json
MoeScenario()
{
    // 16 GPUs = 4 nodes x 4, 64 experts, top-4, H = 1024, 2 layers x 2 micro-batches with
    // compute gaps, on 4 leaves x 4 hosts.
    return json{
        {"topology", {{"type", "leaf_spine"}, {"leaves", 4}, {"spines", 2}, {"hosts_per_leaf", 4}}},
        {"traffic",
         {{"moe",
           {{"enabled", true},
            {"preset", "deepseek_v3"},
            {"ranks", 16},
            {"gpus_per_node", 4},
            {"tokens_per_rank", 96},
            {"hidden_size", 1024},
            {"experts", 64},
            {"top_k", 4},
            {"max_nodes", 0},
            {"exchange", "flat"},
            {"layers", 2},
            {"micro_batches", 2},
            {"expert_compute_us", 4},
            {"layer_compute_us", 2}}}}},
        {"output", {{"progress", false}, {"port_sample_us", 0}, {"cc_sample_us", 0}}},
    };
}

struct Flow
{
    uint32_t src; ///< host
    uint32_t dst;
    std::string group;
    std::vector<std::string> waits;
    int64_t gap;
    int64_t release;
    double bytes;
    int64_t start;
    int64_t end;
};

/// Trace rows joined with their fct.csv rows (the run holds only these flows, so the
/// run's flow ids are the trace's).
std::vector<Flow>
Join(const std::string& dir, const std::vector<uint32_t>& rankHosts)
{
    std::vector<Flow> flows;
    for (const auto& row : ReadCsv(dir + "/moe-trace.csv"))
    {
        Flow f;
        f.src = rankHosts.at(std::stoul(row.at("src")));
        f.dst = rankHosts.at(std::stoul(row.at("dst")));
        f.group = row.at("phase") + ":" + row.at("layer");
        std::istringstream w(row.at("wait_groups"));
        std::string item;
        while (std::getline(w, item, ';'))
        {
            f.waits.push_back(item);
        }
        f.gap = std::stoll(row.at("gap_ns"));
        f.release = std::stoll(row.at("release_ns"));
        f.bytes = std::stod(row.at("bytes"));
        flows.push_back(f);
    }
    for (const auto& row : ReadCsv(dir + "/fct.csv"))
    {
        Flow& f = flows.at(std::stoul(row.at("flow_id")));
        EXPECT_EQ(row.at("kind"), "collective");
        EXPECT_EQ(std::stoul(row.at("src")), f.src);
        EXPECT_EQ(std::stoul(row.at("dst")), f.dst);
        EXPECT_EQ(std::stod(row.at("size_bytes")), f.bytes);
        f.start = std::stoll(row.at("start_ns"));
        f.end = std::stoll(row.at("end_ns"));
    }
    return flows;
}
} // namespace

TEST(MoeAllToAll, NoFlowStartsBeforeItsGroupsComplete)
{
    TempDir dir;
    const json s = RunScenario(dir, "moe", MoeScenario());
    ASSERT_TRUE(s["collective_completed"].get<bool>());
    EXPECT_EQ(s["collective_groups"], 8); // 2 phases x 2 layers x 2 micro-batches
    const std::vector<uint32_t> rankHosts = s["moe_rank_hosts"].get<std::vector<uint32_t>>();
    const std::vector<Flow> flows = Join(dir / "moe", rankHosts);
    ASSERT_EQ(flows.size(), s["collective_flows"].get<size_t>());

    // Completion of each group on each host: its last flow sent or received there.
    std::map<std::pair<std::string, uint32_t>, int64_t> done;
    for (const Flow& f : flows)
    {
        for (uint32_t h : {f.src, f.dst})
        {
            auto& t = done[{f.group, h}];
            t = std::max(t, f.end);
        }
    }
    size_t dependent = 0;
    for (const Flow& f : flows)
    {
        int64_t ready = 0;
        for (const std::string& g : f.waits)
        {
            const auto it = done.find({g, f.src});
            ASSERT_NE(it, done.end()) << "every GPU takes part in every phase here";
            ready = std::max(ready, it->second);
        }
        const int64_t earliest = f.waits.empty() ? f.release : std::max(f.release, ready + f.gap);
        EXPECT_GE(f.start, earliest) << f.group << " " << f.src << "->" << f.dst;
        // ... and it is not held back either: posted exactly then.
        EXPECT_EQ(f.start, earliest) << f.group << " " << f.src << "->" << f.dst;
        dependent += !f.waits.empty();
    }
    EXPECT_GT(dependent, flows.size() / 2);

    // collectives.csv: per group, first post to last completion, flows and bytes.
    std::map<std::string, std::tuple<int64_t, int64_t, size_t, double>> groups;
    for (const Flow& f : flows)
    {
        auto [it, added] = groups.emplace(f.group, std::make_tuple(f.start, f.end, 0, 0.0));
        auto& [start, end, n, bytes] = it->second;
        start = std::min(start, f.start);
        end = std::max(end, f.end);
        n += 1;
        bytes += f.bytes;
    }
    int64_t first = INT64_MAX;
    int64_t last = 0;
    for (const auto& row : ReadCsv(dir / "moe/collectives.csv"))
    {
        const auto& [start, end, n, bytes] = groups.at(row.at("phase") + ":" + row.at("layer"));
        EXPECT_EQ(std::stoll(row.at("start_ns")), start);
        EXPECT_EQ(std::stoll(row.at("end_ns")), end);
        EXPECT_EQ(std::stoll(row.at("duration_ns")), end - start);
        EXPECT_EQ(std::stoul(row.at("flows")), n);
        EXPECT_EQ(std::stod(row.at("bytes")), bytes);
        first = std::min(first, start);
        last = std::max(last, end);
    }
    EXPECT_EQ(s["collective_time_ns"].get<int64_t>(), last - first);

    // A lower bound from physics: within one group, the busiest host must push its bytes
    // through its 100G link (1106 wire bytes per 1024 payload bytes).
    std::map<std::pair<std::string, uint32_t>, double> sent;
    for (const Flow& f : flows)
    {
        sent[{f.group, f.src}] += f.bytes;
    }
    for (const auto& [key, bytes] : sent)
    {
        const auto& [start, end, n, total] = groups.at(key.first);
        EXPECT_GE(double(end - start), bytes * 1106 / 1024 * 8 / 100)
            << key.first << " host " << key.second;
    }
}

/// Waiting on deliveries (traffic.collective_wait delivered), in \p scenario: every flow
/// starts after what its host sent in the waited groups is acknowledged, after what it
/// received can have arrived (start + bytes at line rate), and no later than all of
/// it is acknowledged; the receiver's view makes some start sooner than that. Returns
/// the run's summary.
json
ExpectStartsOnDelivery(json scenario, const std::string& name)
{
    TempDir dir;
    scenario["traffic"]["collective_wait"] = "delivered";
    const json s = RunScenario(dir, name, scenario);
    EXPECT_TRUE(s["collective_completed"].get<bool>());
    if (!s["collective_completed"].get<bool>())
    {
        return s;
    }
    EXPECT_EQ(s["bytes_delivered"], s["bytes_sent"]);
    const std::vector<Flow> flows =
        Join(dir / name, s["moe_rank_hosts"].get<std::vector<uint32_t>>());
    std::map<std::pair<std::string, uint32_t>, int64_t> sent;     // last sent acknowledged
    std::map<std::pair<std::string, uint32_t>, int64_t> acked;    // last received acknowledged
    std::map<std::pair<std::string, uint32_t>, double> arrivable; // last received can arrive
    for (const Flow& f : flows)
    {
        sent[{f.group, f.src}] = std::max(sent[{f.group, f.src}], f.end);
        acked[{f.group, f.dst}] = std::max(acked[{f.group, f.dst}], f.end);
        // 1106 wire bytes per 1024 payload bytes at 100 Gb/s, and two 1 us hops.
        const double arrive = f.start + f.bytes * 1106 / 1024 * 8 / 100 + 2000;
        arrivable[{f.group, f.dst}] = std::max(arrivable[{f.group, f.dst}], arrive);
    }
    size_t sooner = 0;
    for (const Flow& f : flows)
    {
        if (f.waits.empty())
        {
            continue;
        }
        double lower = 0;
        int64_t upper = 0;
        for (const std::string& g : f.waits)
        {
            lower = std::max({lower, double(sent[{g, f.src}]), arrivable[{g, f.src}]});
            upper = std::max({upper, sent[{g, f.src}], acked[{g, f.src}]});
        }
        EXPECT_GE(f.start, lower + f.gap) << f.group << " " << f.src << "->" << f.dst;
        EXPECT_LE(f.start, std::max(f.release, upper + f.gap)) << f.group << " " << f.src;
        sooner += f.start < std::max(f.release, upper + f.gap);
    }
    EXPECT_GT(sooner, 0U);
    return s;
}

TEST(MoeAllToAll, WaitingOnDeliveriesStartsOnArrival)
{
    ExpectStartsOnDelivery(MoeScenario(), "delivered");
}

TEST(MoeAllToAll, WaitingOnDeliveriesSurvivesLossAndReordering)
{
    // Lossy, with selective repeat: a message's last packet can be placed before a lost
    // one is retransmitted, and the message is delivered only once that one arrives.
    json scenario = MoeScenario();
    scenario["switch"] = {{"pfc", {{"enabled", false}}}, {"buffer_mb", 0.05}};
    scenario["nic"] = {{"loss_recovery", "selective_repeat"}};
    scenario["traffic"]["moe"]["micro_batches"] = 1;
    const json s = ExpectStartsOnDelivery(scenario, "lossy");
    EXPECT_GT(s["drops"].get<uint64_t>(), 0U);
    EXPECT_GT(s["retransmitted_packets"].get<uint64_t>(), 0U);
}

TEST(MoeAllToAll, GeneratedTraceReplaysToTheSameFlows)
{
    TempDir dir;
    const json s = RunScenario(dir, "gen", MoeScenario());
    json replay = MoeScenario();
    replay["traffic"].erase("moe");
    replay["traffic"]["trace"] = {{"csv", dir / "gen/moe-trace.csv"},
                                  {"rank_hosts", s["moe_rank_hosts"]}};
    const json r = RunScenario(dir, "replay", replay);
    EXPECT_EQ(r["collective_flows"], s["collective_flows"]);
    const std::string fct = ReadText(dir / "gen/fct.csv");
    EXPECT_GT(std::count(fct.begin(), fct.end(), '\n'), 100);
    EXPECT_EQ(ReadText(dir / "replay/fct.csv"), fct);
    EXPECT_EQ(ReadText(dir / "replay/collectives.csv"), ReadText(dir / "gen/collectives.csv"));
}

TEST(MoeAllToAll, RailPlacementKeepsHierarchicalTrafficUnderOneToR)
{
    // Rail-aligned: local rank i of every node under leaf i. A hierarchical exchange only
    // joins GPUs of the same local rank, so no byte crosses a spine.
    TempDir dir;
    json scenario = MoeScenario();
    scenario["traffic"]["moe"]["exchange"] = "hierarchical";
    scenario["traffic"]["moe"]["placement"] = "rail";
    scenario["traffic"]["moe"]["micro_batches"] = 1;
    const json s = RunScenario(dir, "rail", scenario);
    const std::vector<uint32_t> rankHosts = s["moe_rank_hosts"].get<std::vector<uint32_t>>();
    for (uint32_t r = 0; r < 16; ++r)
    {
        EXPECT_EQ(rankHosts[r] / 4, r % 4) << "local rank r % 4 under leaf r % 4";
    }
    for (const auto& row : ReadCsv(dir / "rail/fct.csv"))
    {
        EXPECT_EQ(std::stoul(row.at("src")) / 4, std::stoul(row.at("dst")) / 4);
    }
}

TEST(MoeAllToAll, BadInputIsRefused)
{
    TempDir dir;
    json s = MoeScenario();
    s["traffic"]["moe"]["experts"] = 60;
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"s.json", "traffic.moe", "experts (60)"});

    s = MoeScenario();
    s["traffic"]["moe"]["ranks"] = 32;
    s["traffic"]["moe"]["experts"] = 64;
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"traffic.moe.placement", "32 ranks"});

    WriteText(dir / "t.csv",
              "flow_id,release_ns,src,dst,bytes,phase,layer,wait_groups,gap_ns,prio\n"
              "0,0,0,1,1000,dispatch,0,,0,\n"
              "1,0,1,0,1000,combine,0,dispatch:0,-5,\n");
    s = MoeScenario();
    s["traffic"].erase("moe");
    s["traffic"]["trace"] = {{"csv", "t.csv"}};
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"t.csv:3", "gap_ns", "-5"});
}
