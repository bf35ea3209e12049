/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Partitions (issue 13): a host or a whole leaf cut off from the fabric does not abort
 * the run. Frames for the unreachable side are dropped with the reason no_route, flows
 * stall, and when the link returns the routes are recomputed in both directions and loss
 * recovery delivers every byte, lossless and lossy. Cut off for good, the run ends at its
 * stop time and lists the stranded flows as unfinished.
 */
#include "conservation-util.h"

#include <gtest/gtest.h>

using nlohmann::json;
using rdmatest::ExpectConserved;
using rdmatest::ReadCsv;
using rdmatest::RunScenario;
using rdmatest::TempDir;

namespace
{
constexpr double kCutUs = 20;
constexpr double kRestoreUs = 400;

/// 2 leaves (nodes 8, 9) x 2 spines (10, 11) x 4 hosts; a permutation, so every host
/// (host 0 included) both sends and receives 300 KB across the spines.
json
Permutation(bool lossless, const json& linkEvents)
{
    return {
        {"stop_time_ms", 5},
        {"topology",
         {{"type", "leaf_spine"},
          {"leaves", 2},
          {"spines", 2},
          {"hosts_per_leaf", 4},
          {"link_events", linkEvents}}},
        {"switch", {{"pfc", {{"enabled", lossless}}}, {"buffer_mb", lossless ? 4 : 0.2}}},
        {"nic", {{"go_back_n", {{"RetransmissionTimeout", "100us"}}}}},
        {"traffic", {{"permutation", {{"enabled", true}, {"message_bytes", 300000}}}}},
        {"output", {{"progress", false}}},
    };
}

json
Event(double atUs, int a, int b, const char* action)
{
    return {{"at_us", atUs}, {"a", a}, {"b", b}, {"action", action}};
}

/// Every flow completed, every byte delivered, some frames dropped for want of a route,
/// and the flows of \p host (both directions) finished only after the link came back.
void
ExpectRecovered(const TempDir& dir, const std::string& name, const json& sum, int host)
{
    ExpectConserved(sum);
    EXPECT_TRUE(sum["all_flows_completed"].get<bool>()) << sum.dump(2);
    EXPECT_EQ(sum["bytes_sent"], sum["bytes_delivered"]);
    EXPECT_EQ(sum["flows_unfinished"], 0);
    EXPECT_GT(sum["drops_by_reason"]["no_route"].get<uint64_t>(), 0u)
        << "frames for the cut-off side must be dropped, named no_route";
    int touched = 0;
    for (const auto& row : ReadCsv(dir / (name + "/fct.csv")))
    {
        if (std::stoi(row.at("src")) == host || std::stoi(row.at("dst")) == host)
        {
            ++touched;
            EXPECT_GT(std::stod(row.at("end_ns")), kRestoreUs * 1000)
                << "flow " << row.at("flow_id") << " cannot finish while its host is cut off";
        }
    }
    EXPECT_EQ(touched, 2) << "the permutation has one flow from and one flow to the host";
}
} // namespace

TEST(Partition, HostCutOffAndRestoredDeliversEveryByteLosslessAndLossy)
{
    for (const bool lossless : {true, false})
    {
        SCOPED_TRACE(lossless ? "lossless" : "lossy");
        const json events = {Event(kCutUs, 0, 8, "down"), Event(kRestoreUs, 0, 8, "up")};
        TempDir dir;
        const json sum = RunScenario(dir, "cut", Permutation(lossless, events));
        ExpectRecovered(dir, "cut", sum, 0);
    }
}

TEST(Partition, LeafCutOffFromEverySpineAndRestoredDeliversEveryByte)
{
    for (const bool lossless : {true, false})
    {
        SCOPED_TRACE(lossless ? "lossless" : "lossy");
        const json events = {Event(kCutUs, 8, 10, "down"),
                             Event(kCutUs, 8, 11, "down"),
                             Event(kRestoreUs, 8, 10, "up"),
                             Event(kRestoreUs + 50, 8, 11, "up")};
        TempDir dir;
        const json sum = RunScenario(dir, "leaf", Permutation(lossless, events));
        ExpectConserved(sum);
        EXPECT_TRUE(sum["all_flows_completed"].get<bool>()) << sum.dump(2);
        EXPECT_EQ(sum["bytes_sent"], sum["bytes_delivered"]);
        EXPECT_GT(sum["drops_by_reason"]["no_route"].get<uint64_t>(), 0u);
    }
}

TEST(Partition, HostCutOffForGoodEndsAtStopTimeWithItsFlowsUnfinished)
{
    for (const bool lossless : {true, false})
    {
        SCOPED_TRACE(lossless ? "lossless" : "lossy");
        json s = Permutation(lossless, json::array({Event(kCutUs, 0, 8, "down")}));
        s["stop_time_ms"] = 2;
        TempDir dir;
        const json sum = RunScenario(dir, "cut", s);
        ExpectConserved(sum);
        EXPECT_FALSE(sum["all_flows_completed"].get<bool>());
        EXPECT_GT(sum["drops_by_reason"]["no_route"].get<uint64_t>(), 0u);
        // Exactly the two flows of host 0 are stranded; the six others complete.
        const auto unfinished = ReadCsv(dir / "cut/unfinished.csv");
        ASSERT_EQ(unfinished.size(), 2u);
        for (const auto& row : unfinished)
        {
            EXPECT_TRUE(row.at("src") == "0" || row.at("dst") == "0") << row.at("flow_id");
            EXPECT_LT(std::stoull(row.at("acked_bytes")), 300000u);
        }
        EXPECT_EQ(ReadCsv(dir / "cut/fct.csv").size(), 6u);
    }
}
