/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PFC deadlock and the PFC watchdog (issue 13), on the shipped ring
 * (scenarios/pfc-deadlock-ring.json: five switches in a ring, every host sending 20 MB
 * two hops clockwise, PFC on, no CC). Without a watchdog the ring's buffers fill into a
 * cycle of pauses and nothing more is delivered; the detector names the cycle, and the
 * cycle it names must be one: every queue paused by the next switch of the cycle. With
 * the watchdog (drop) the storm is broken, recovery resends what was dropped, and every
 * byte arrives. A fabric whose routes cannot form a cycle (up-down leaf-spine) pauses
 * heavily but has no deadlock, and looking for deadlocks changes nothing in a run.
 */
#include "cli-util.h"
#include "conservation-util.h"

#include "ns3/scenario-runner.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using nlohmann::json;
using rdmatest::CliResult;
using rdmatest::ExpectConserved;
using rdmatest::ReadCsv;
using rdmatest::ReadText;
using rdmatest::RunRdmaRun;
using rdmatest::RunScenario;
using rdmatest::TempDir;

namespace
{
const std::string kRing = std::string(RDMA_SOURCE_DIR) + "/scenarios/pfc-deadlock-ring.json";
constexpr uint64_t kRingBytes = 5 * 20000000ull; ///< five flows of 20 MB
constexpr uint32_t kRingSwitches[] = {5, 6, 7, 8, 9};

/// Run the shipped ring with \p overrides, in-process; the summary.
json
RunRing(const TempDir& dir, const std::vector<std::string>& overrides)
{
    ns3::ScenarioRunner runner(ns3::ScenarioRunner::Load(kRing, overrides));
    return runner.Run(dir / "ring", true);
}

/// Every hop's egress is paused by the next hop's switch, and the last by the first: a
/// cycle through all five ring switches, in class 3.
void
ExpectRingCycle(const json& deadlock)
{
    const json& cycle = deadlock["cycle"];
    ASSERT_EQ(cycle.size(), 5u) << deadlock.dump(2);
    EXPECT_EQ(deadlock["prio"], 3);
    std::set<uint32_t> nodes;
    for (std::size_t i = 0; i < cycle.size(); ++i)
    {
        const json& next = cycle[(i + 1) % cycle.size()];
        EXPECT_EQ(cycle[i]["peer_node"], next["node"]) << deadlock.dump(2);
        nodes.insert(cycle[i]["node"].get<uint32_t>());
    }
    EXPECT_EQ(nodes, std::set<uint32_t>(std::begin(kRingSwitches), std::end(kRingSwitches)));
}

/// Every storm detected on a (node, port, prio) is later restored, in order, in pfc.csv.
uint32_t
ExpectStormsPairedInPfcCsv(const std::string& pfcCsv)
{
    std::map<std::string, bool> stormed;
    uint32_t storms = 0;
    for (const auto& row : ReadCsv(pfcCsv))
    {
        const std::string queue = row.at("node") + "/" + row.at("port") + "/" + row.at("prio");
        if (row.at("event") == "storm_detected")
        {
            EXPECT_FALSE(stormed[queue]) << queue << " stormed twice";
            stormed[queue] = true;
            ++storms;
        }
        else if (row.at("event") == "storm_restored")
        {
            EXPECT_TRUE(stormed[queue]) << queue << " restored before it stormed";
            stormed[queue] = false;
        }
    }
    return storms;
}
} // namespace

TEST(PfcDeadlock, TheRingDeadlocksWithoutAWatchdogAndTheCycleIsNamed)
{
    TempDir dir;
    const CliResult r = RunRdmaRun(kRing + " --quiet --out " + (dir / "out"));
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("PFC deadlock at"), std::string::npos) << r.output;
    const json sum = json::parse(ReadText(dir / "out/summary.json"));
    ExpectConserved(sum);
    // Lossless: nothing dropped, yet delivery stopped for good.
    EXPECT_EQ(sum["drops"], 0);
    EXPECT_EQ(sum["flows_unfinished"], 5);
    EXPECT_LT(sum["bytes_delivered"].get<uint64_t>(), kRingBytes / 2);
    EXPECT_GT(sum["pfc_pause_frames"].get<uint64_t>(), 0u);
    ASSERT_GE(sum["pfc_deadlocks_found"].get<uint64_t>(), 1u) << sum.dump(2);
    ExpectRingCycle(sum["pfc_deadlocks"][0]);
    // Found after the queues stopped, and no earlier than the detection window.
    EXPECT_GE(sum["pfc_deadlocks"][0]["time_ns"].get<int64_t>(),
              sum["last_delivery_ns"].get<int64_t>()); // Its config.json (cc none: a controller
                                                       // without parameters) runs again, the same.
    const CliResult again =
        RunRdmaRun((dir / "out/config.json") + " --quiet --out " + (dir / "again"));
    ASSERT_EQ(again.code, 0) << again.output;
    EXPECT_EQ(ReadText(dir / "again/pfc.csv"), ReadText(dir / "out/pfc.csv"));
}

TEST(PfcDeadlock, TheWatchdogInDropModeBreaksItAndEveryByteArrives)
{
    // Go-back-N, and selective repeat without its in-flight cap (with IRN's cap the ring
    // never fills enough to deadlock).
    for (const std::vector<std::string>& recovery :
         {std::vector<std::string>{"nic.loss_recovery=go_back_n"},
          std::vector<std::string>{"nic.loss_recovery=selective_repeat",
                                   "nic.inflight_cap_packets=0"}})
    {
        SCOPED_TRACE(recovery[0]);
        std::vector<std::string> o = recovery;
        o.push_back("switch.pfc.watchdog.enabled=true");
        o.push_back("switch.pfc.watchdog.action=drop");
        TempDir dir;
        const json sum = RunRing(dir, o);
        ExpectConserved(sum);
        EXPECT_TRUE(sum["all_flows_completed"].get<bool>()) << sum.dump(2);
        EXPECT_EQ(sum["bytes_delivered"].get<uint64_t>(), kRingBytes);
        // The watchdog, and only it, dropped frames; the deadlock was still reported.
        const json& by = sum["drops_by_reason"];
        EXPECT_GT(by["pfc_watchdog"].get<uint64_t>(), 0u);
        EXPECT_EQ(sum["drops"], by["pfc_watchdog"]);
        EXPECT_GE(sum["pfc_deadlocks_found"].get<uint64_t>(), 1u);
        EXPECT_GT(sum["retransmitted_packets"].get<uint64_t>(), 0u);
        const uint32_t storms = ExpectStormsPairedInPfcCsv(dir / "ring/pfc.csv");
        EXPECT_GT(storms, 0u);
        EXPECT_EQ(sum["pfc_watchdog"]["storms_detected"], storms);
    }
}

TEST(PfcDeadlock, TheWatchdogInForwardModeIgnoresThePausesAndEveryByteArrives)
{
    TempDir dir;
    const json sum =
        RunRing(dir, {"switch.pfc.watchdog.enabled=true", "switch.pfc.watchdog.action=forward"});
    ExpectConserved(sum);
    EXPECT_TRUE(sum["all_flows_completed"].get<bool>()) << sum.dump(2);
    EXPECT_EQ(sum["bytes_delivered"].get<uint64_t>(), kRingBytes);
    EXPECT_EQ(sum["drops_by_reason"]["pfc_watchdog"], 0) << "forward never drops itself";
    EXPECT_GT(ExpectStormsPairedInPfcCsv(dir / "ring/pfc.csv"), 0u);
}

TEST(PfcDeadlock, AnUpDownFabricPausesHardButHasNoDeadlock)
{
    // 2 x 2 leaf-spine, 8:1 incast at line rate with no CC: pauses everywhere, but its
    // routes (up to a spine, down to a leaf) cannot close a cycle.
    const json s = {
        {"stop_time_ms", 20},
        {"topology", {{"type", "leaf_spine"}, {"leaves", 2}, {"spines", 2}, {"hosts_per_leaf", 4}}},
        {"switch", {{"buffer_mb", 0.5}, {"pfc", {{"deadlock_detection", {{"window_us", 20}}}}}}},
        {"cc", {{"algorithm", "none"}}},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"senders", {1, 2, 3, 4, 5, 6, 7}},
            {"qps_per_sender", 4},
            {"message_bytes", 500000}}}}},
        {"output", {{"progress", false}}},
    };
    TempDir dir;
    const json sum = RunScenario(dir, "incast", s);
    EXPECT_TRUE(sum["all_flows_completed"].get<bool>());
    EXPECT_GT(sum["pfc_pause_frames"].get<uint64_t>(), 100u) << "the test must pause hard";
    EXPECT_TRUE(sum["pfc_deadlock_detection"].get<bool>());
    EXPECT_EQ(sum["pfc_deadlocks_found"], 0) << sum["pfc_deadlocks"].dump(2);
}

TEST(PfcDeadlock, LookingForDeadlocksChangesNothingInTheRun)
{
    std::string fct[2];
    std::string pfc[2];
    for (const bool on : {false, true})
    {
        TempDir dir;
        RunRing(dir,
                {"switch.pfc.deadlock_detection.enabled=" + std::string(on ? "true" : "false"),
                 "stop_time_ms=3"});
        fct[on] = ReadText(dir / "ring/fct.csv") + ReadText(dir / "ring/unfinished.csv");
        pfc[on] = ReadText(dir / "ring/pfc.csv");
    }
    EXPECT_EQ(fct[0], fct[1]);
    EXPECT_EQ(pfc[0], pfc[1]);
    EXPECT_GT(pfc[0].size(), 1000u) << "the ring pauses";
}
