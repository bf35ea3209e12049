/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Observing a run does not change it: cc.csv samples every QP's rate every microsecond
 * (CongestionControl::PeekRate), and the flows finish at exactly the same times as in a
 * run that samples nothing, for every controller. Congestion is real in every case (a
 * 3:1 incast of 150 QPs, lossy for the RTT-probe controller), so the controllers' lazy
 * rules (DCQCN's timers, the RTT-probe controller's late decreases) all act.
 */
#include "scenario-test-util.h"

#include "ns3/rdma-module.h"

#include <gtest/gtest.h>
#include <set>

using nlohmann::json;
using namespace rdmatest;

namespace
{

struct Case
{
    std::string name;
    json cc;
    bool pfc;
};

void
PrintTo(const Case& c, std::ostream* os)
{
    *os << c.name;
}

json
Incast(const Case& c, bool sample)
{
    return json{
        {"topology", {{"type", "star"}, {"hosts", 4}, {"host_rate_gbps", 100}}},
        {"cc", c.cc},
        {"switch", {{"pfc", {{"enabled", c.pfc}}}, {"ecn", {{"enabled", c.pfc}}}}},
        {"stop_time_ms", 20},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"qps_per_sender", 50},
            {"message_bytes", 100000},
            {"jitter_us", 20}}}}},
        {"output", {{"progress", false}, {"cc_sample_us", sample ? 1 : 0}, {"cc_sample_qps", 150}}},
    };
}

class ObserverEffect : public ::testing::TestWithParam<Case>
{
};

TEST_P(ObserverEffect, SamplingEveryQpEveryMicrosecondLeavesFctUnchanged)
{
    const Case& c = GetParam();
    TempDir dir;
    const json quiet = RunScenario(dir, "quiet", Incast(c, false));
    const json watched = RunScenario(dir, "watched", Incast(c, true));
    ASSERT_EQ(quiet["flows_completed"], 150u);
    // The sampler did run: a row per QP per microsecond while the flows last.
    const auto rows = ReadCsv(dir / "watched/cc.csv");
    ASSERT_GT(rows.size(), 150u * 100u) << c.name;
    // The incast is congested: some rate left the line rate, or (Swift) a window moved.
    bool slowed = false;
    std::set<std::string> windows;
    for (const auto& r : rows)
    {
        slowed = slowed || std::stoull(r.at("rate_bps")) < 100'000'000'000ull;
        windows.insert(r.at("window_bytes"));
    }
    EXPECT_TRUE(slowed || windows.size() > 1) << c.name << ": the rules never acted";
    EXPECT_EQ(ReadText(dir / "quiet/fct.csv"), ReadText(dir / "watched/fct.csv")) << c.name;
    EXPECT_EQ(quiet["drops"], watched["drops"]) << c.name;
    EXPECT_EQ(quiet["pfc_pause_frames"], watched["pfc_pause_frames"]) << c.name;
}

TEST_P(ObserverEffect, SameScenarioTwiceInOneProcessGivesTheSameFlows)
{
    // The controllers' random draws (the RTT-probe controller's pacing jitter) come from
    // streams the run numbers itself, not from ns-3's process-wide counter.
    const Case& c = GetParam();
    TempDir dir;
    RunScenario(dir, "first", Incast(c, false));
    RunScenario(dir, "second", Incast(c, false));
    EXPECT_EQ(ReadText(dir / "first/fct.csv"), ReadText(dir / "second/fct.csv")) << c.name;
}

INSTANTIATE_TEST_SUITE_P(
    EveryController,
    ObserverEffect,
    ::testing::Values(
        Case{"dcqcn", json{{"algorithm", "dcqcn"}}, true},
        Case{"dcqcn_paper", json{{"algorithm", "dcqcn"}, {"dcqcn", {{"Preset", "Paper"}}}}, true},
        Case{"timely", json{{"algorithm", "timely"}}, true},
        Case{"swift", json{{"algorithm", "swift"}}, true},
        Case{"hpcc", json{{"algorithm", "hpcc"}}, true},
        Case{"hpcc_pint", json{{"algorithm", "hpcc-pint"}}, true},
        Case{"dctcp", json{{"algorithm", "dctcp"}}, true},
        Case{"nscc", json{{"algorithm", "nscc"}}, false},
        Case{"rtt_probe", json{{"algorithm", "rtt-probe"}}, false},
        Case{"rtt_probe_shared", json{{"algorithm", "rtt-probe-shared"}}, false},
        Case{"rtt_probe_nvidia", json{{"algorithm", "rtt-probe-nvidia"}}, false}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

} // namespace
