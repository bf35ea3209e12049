/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every drop and every ECN mark of a run carries a reason: summary.json's
 * drops_by_reason and marks_by_reason account for all of them, and the switches' Drop
 * and Mark trace sources report the same counts with the same names.
 */
#include "scenario-test-util.h"

#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{

json
SmallIncast(bool pfc)
{
    return json{
        {"topology", {{"type", "star"}, {"hosts", 4}, {"host_rate_gbps", 100}}},
        {"cc", {{"algorithm", "none"}}},
        {"switch", {{"pfc", {{"enabled", pfc}}}, {"buffer_mb", 0.2}}},
        {"nic", {{"go_back_n", {{"RetransmissionTimeout", "100us"}}}}},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"qps_per_sender", 2},
            {"message_bytes", 200000}}}}},
        {"output", {{"progress", false}}},
    };
}

uint64_t
Sum(const json& byReason)
{
    uint64_t n = 0;
    for (const auto& [name, count] : byReason.items())
    {
        n += count.get<uint64_t>();
    }
    return n;
}

} // namespace

TEST(DropReasons, LossyOverflowDropsAreAllNamedAndNoneIsHeadroom)
{
    TempDir dir;
    const json s = RunScenario(dir, "lossy", SmallIncast(false));
    const json& r = s["drops_by_reason"];
    ASSERT_GT(s["drops"].get<uint64_t>(), 0u);
    EXPECT_EQ(r["lossy_egress_threshold"].get<uint64_t>() + r["shared_buffer_full"].get<uint64_t>(),
              s["drops"].get<uint64_t>());
    EXPECT_EQ(r["headroom_overflow"], 0u) << "no lossless class without PFC";
    EXPECT_EQ(r["link_down"], 0u);
    EXPECT_EQ(r["no_route"], 0u);
    EXPECT_EQ(Sum(r), s["drops"].get<uint64_t>());
}

TEST(DropReasons, PfcRunHasNoDropOfAnyReasonAndEveryMarkIsNamed)
{
    TempDir dir;
    json sc = SmallIncast(true);
    sc["cc"]["algorithm"] = "dcqcn";
    sc["switch"]["buffer_mb"] = 16;
    const json s = RunScenario(dir, "pfc", sc);
    EXPECT_EQ(Sum(s["drops_by_reason"]), 0u);
    ASSERT_GT(s["ecn_marked_packets"].get<uint64_t>(), 0u);
    EXPECT_EQ(Sum(s["marks_by_reason"]), s["ecn_marked_packets"].get<uint64_t>());
}

TEST(DropReasons, ALinkDownLosesFramesNamedLinkDown)
{
    // 2 leaves x 2 spines x 4 hosts (hosts 0-7, leaves 8-9, spines 10-11): the hosts of
    // leaf 9 send to host 0 while leaf 9's link to spine 10 is down for 40 us; the
    // frames queued for it (4 x 100G into 2 x 100G of uplinks) are lost, the other spine
    // carries the rest.
    TempDir dir;
    json sc = SmallIncast(true);
    sc["topology"] = {{"type", "leaf_spine"},
                      {"leaves", 2},
                      {"spines", 2},
                      {"hosts_per_leaf", 4},
                      {"link_events",
                       json::array({{{"at_us", 90}, {"a", 9}, {"b", 10}, {"action", "down"}},
                                    {{"at_us", 130}, {"a", 9}, {"b", 10}, {"action", "up"}}})}};
    sc["traffic"]["incast"]["senders"] = {4, 5, 6, 7};
    sc["switch"]["buffer_mb"] = 16;
    const json s = RunScenario(dir, "cut", sc);
    const uint64_t linkDown = s["drops_by_reason"]["link_down"].get<uint64_t>();
    EXPECT_GT(linkDown, 0u);
    EXPECT_EQ(linkDown, s["link_down_drops"].get<uint64_t>());
    EXPECT_TRUE(s["all_flows_completed"].get<bool>()) << "the timeout recovers the losses";
    EXPECT_EQ(s["bytes_delivered"], s["bytes_sent"]);
}

TEST(DropReasons, TheTraceSourcesReportEachDropAndMarkWithItsReason)
{
    using namespace ns3;
    RdmaTopology topo;
    topo.SetMmuAttribute("PfcEnabled", BooleanValue(false));
    topo.SetMmuAttribute("BufferSize", UintegerValue(150000));
    topo.SetMmuAttribute("Kmin", UintegerValue(5000));
    topo.SetMmuAttribute("Kmax", UintegerValue(20000));
    StarHelper star;
    star.hosts = 4;
    star.Build(topo);
    topo.Finalize();
    std::map<std::string, uint64_t> drops;
    std::map<std::string, uint64_t> marks;
    Ptr<RdmaSwitch> sw = topo.GetSwitch(topo.GetSwitches()[0]);
    sw->TraceConnectWithoutContext("Drop",
                                   MakeBoundCallback(
                                       +[](std::map<std::string, uint64_t>* m,
                                           Ptr<const Packet>,
                                           uint32_t,
                                           uint32_t,
                                           const char* reason) { ++(*m)[reason]; },
                                       &drops));
    sw->TraceConnectWithoutContext("Mark",
                                   MakeBoundCallback(
                                       +[](std::map<std::string, uint64_t>* m,
                                           Ptr<const Packet>,
                                           uint32_t,
                                           const char* reason) { ++(*m)[reason]; },
                                       &marks));
    TrafficDriver driver(topo);
    for (uint32_t src = 1; src < 4; ++src)
    {
        FlowSpec f;
        f.src = src;
        f.dst = 0;
        f.bytes = 300000;
        driver.AddFlow(f);
    }
    driver.Start();
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    uint64_t statDrops = 0;
    uint64_t statMarks = 0;
    uint64_t statThreshold = 0;
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        const RdmaSwitch::PortStats& ps = sw->GetPortStats(p);
        statDrops += ps.drops;
        statMarks += ps.ecnMarked;
        statThreshold +=
            ps.dropsByReason[static_cast<std::size_t>(DropReason::LOSSY_EGRESS_THRESHOLD)];
    }
    Simulator::Destroy();
    ASSERT_GT(statDrops, 0u);
    ASSERT_GT(statMarks, 0u);
    uint64_t tracedDrops = 0;
    for (const auto& [reason, n] : drops)
    {
        tracedDrops += n;
    }
    uint64_t tracedMarks = 0;
    for (const auto& [reason, n] : marks)
    {
        tracedMarks += n;
    }
    EXPECT_EQ(tracedDrops, statDrops);
    EXPECT_EQ(drops["lossy_egress_threshold"], statThreshold);
    EXPECT_EQ(tracedMarks, statMarks);
    EXPECT_EQ(marks["ecn_above_kmax"] + marks["ecn_probabilistic"], statMarks);
}
