/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Byte conservation in every run (summary.json "conservation"): every frame a NIC sent
 * was received by a NIC, dropped for a named reason, or is still in a switch queue or on
 * a wire at the end; lossless and lossy, with and without links going down mid-run. The
 * drops the ledger sees in the trace sources are the ones the switches count.
 */
#include "conservation-util.h"

#include <gtest/gtest.h>

using nlohmann::json;
using rdmatest::ExpectConserved;
using rdmatest::RunScenario;
using rdmatest::TempDir;

namespace
{
/// 2 leaves x 2 spines x 4 hosts; hosts 4-7 (leaf 1) send 4 QPs x 300 KB to host 0.
json
LeafSpine(bool lossless)
{
    return {
        {"stop_time_ms", 20},
        {"topology", {{"type", "leaf_spine"}, {"leaves", 2}, {"spines", 2}, {"hosts_per_leaf", 4}}},
        {"switch", {{"pfc", {{"enabled", lossless}}}, {"buffer_mb", lossless ? 4 : 0.2}}},
        {"nic", {{"go_back_n", {{"RetransmissionTimeout", "200us"}}}}},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"senders", {4, 5, 6, 7}},
            {"qps_per_sender", 4},
            {"message_bytes", 300000}}}}},
        {"output", {{"progress", false}}},
    };
}

} // namespace

TEST(Conservation, LosslessIncastBalancesWithNothingDropped)
{
    TempDir dir;
    const json sum = RunScenario(dir, "lossless", LeafSpine(true));
    ExpectConserved(sum);
    EXPECT_TRUE(sum["all_flows_completed"].get<bool>());
    EXPECT_EQ(sum["conservation"]["dropped"]["frames"], 0);
    EXPECT_EQ(sum["bytes_sent"], sum["bytes_delivered"]);
}

TEST(Conservation, LossyIncastBalancesWithItsDrops)
{
    TempDir dir;
    const json sum = RunScenario(dir, "lossy", LeafSpine(false));
    ExpectConserved(sum);
    EXPECT_GT(sum["conservation"]["dropped"]["frames"].get<uint64_t>(), 0u)
        << "a 0.2 MB lossy buffer under a 16-QP incast drops";
    EXPECT_GT(sum["retransmitted_packets"].get<uint64_t>(), 0u);
}

TEST(Conservation, LinkDownAndUpMidRunBalancesLosslessAndLossy)
{
    for (const bool lossless : {true, false})
    {
        json s = LeafSpine(lossless);
        // Leaf 0 (node 8) to spine 0 (node 10) down at 100 us, back at 600 us.
        s["topology"]["link_events"] = {
            {{"at_us", 100}, {"a", 8}, {"b", 10}, {"action", "down"}},
            {{"at_us", 600}, {"a", 8}, {"b", 10}, {"action", "up"}},
        };
        TempDir dir;
        const json sum = RunScenario(dir, lossless ? "lossless" : "lossy", s);
        SCOPED_TRACE(lossless ? "lossless" : "lossy");
        ExpectConserved(sum);
        EXPECT_GT(sum["conservation"]["dropped_by_reason"]["link_down"]["frames"].get<uint64_t>(),
                  0u)
            << "frames in flight on the link as it goes down are lost";
    }
}

TEST(Conservation, StoppedRunCountsWhatIsStillInFlight)
{
    json s = LeafSpine(true);
    s["stop_time_ms"] = 0.05;
    TempDir dir;
    const json sum = RunScenario(dir, "stopped", s);
    ExpectConserved(sum);
    EXPECT_FALSE(sum["all_flows_completed"].get<bool>());
    const json& c = sum["conservation"];
    EXPECT_GT(c["in_flight"]["switch_queues"]["frames"].get<uint64_t>() +
                  c["in_flight"]["wires"]["frames"].get<uint64_t>(),
              0u)
        << "stopped mid-incast, frames are in the fabric: " << c.dump(2);
}

TEST(Conservation, StoppedWhilePausesAreOnTheWiresBalances)
{
    // PFC frames on the wires at the stop are not in the ledger (it counts non-PFC
    // frames): the wires' own count must leave them out too. Several stop times, so that
    // some catch pause frames in flight.
    json s = LeafSpine(true);
    s["cc"]["algorithm"] = "none";
    s["switch"]["buffer_mb"] = 0.5;
    uint64_t pauses = 0;
    for (double stopUs : {40.0, 47.0, 53.0, 61.0, 68.0, 75.0, 83.0, 91.0})
    {
        s["stop_time_ms"] = stopUs / 1000;
        TempDir dir;
        const json sum = RunScenario(dir, "stopped", s);
        pauses += sum["pfc_pause_frames"].get<uint64_t>();
        SCOPED_TRACE("stop at " + std::to_string(stopUs) + " us");
        ExpectConserved(sum);
    }
    EXPECT_GT(pauses, 0u) << "the runs must pause, or the test shows nothing";
}
