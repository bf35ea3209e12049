/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Incast groups that join and leave, mixed with background CDF traffic and the latency
 * probe: a group runs exactly while it is in, the receiver's link stays full (and never
 * carries more than its line rate), and 200 QPs joining -- whose DCQCN floor alone
 * (200 x MinRate 1 Gb/s) exceeds the 100G port by 100 Gb/s -- build a queue that the
 * probe waits behind.
 */
#include "cli-util.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{
const double lineBytesPerNs = 100.0 / 8; // the receiver's link, wire bytes

/// What the flows of the run's fct.csv show.
struct FlowsSeen
{
    int groupA = 0;
    int groupB = 0;
    double intoReceiver = 0;  ///< payload bytes of the flows into host 0
    double probeAtLeave = -1; ///< latency of the probe in flight at 400 us
};

/// Reads \p fct, checking each incast flow's start and end against its group's join
/// and leave (the leavers drain within the largest queue's time, \p maxQueue bytes).
FlowsSeen
ReadFlows(const std::filesystem::path& fct, double maxQueue)
{
    FlowsSeen seen;
    for (const auto& row : ReadCsv(fct))
    {
        const double start = std::stod(row.at("start_ns"));
        const double end = std::stod(row.at("end_ns"));
        if (row.at("dst") == "0")
        {
            seen.intoReceiver += std::stod(row.at("size_bytes"));
        }
        if (row.at("kind") == "incast")
        {
            const int src = std::stoi(row.at("src"));
            if (src <= 2)
            {
                ++seen.groupA;
                EXPECT_EQ(start, 0);
                EXPECT_GE(end, 600e3);
            }
            else
            {
                ++seen.groupB;
                // In from its join until its leave; then only what it had sent remains,
                // behind at most the FIFO queue: done within its drain time (+ slack for
                // the ACK's way back).
                EXPECT_EQ(start, 200e3);
                EXPECT_GE(end, 400e3);
                EXPECT_LT(end, 400e3 + maxQueue / lineBytesPerNs + 20e3);
            }
        }
        if (row.at("kind") == "probe" && start <= 400e3 && end > 400e3)
        {
            seen.probeAtLeave = end - start;
        }
    }
    return seen;
}
} // namespace

TEST(IncastDynamics, GroupsJoinAndLeaveOverBackgroundTraffic)
{
    TempDir dir;
    // Group A: hosts 1-2 x 4 QPs into host 0 for the whole 0..600 us; group B: hosts
    // 3-6 x 50 QPs join at 200 us and leave at 400 us.
    WriteText(dir / "groups.csv",
              "receiver,senders,qps_per_sender,join_us,leave_us\n"
              "0,1-2,4,0,600\n"
              "0,3-6,50,200,400\n");
    WriteText(dir / "bg.cdf", "1000 0\n20000 100\n");
    const json scenario = {
        {"topology", {{"type", "star"}, {"hosts", 8}}},
        {"cc", {{"algorithm", "dcqcn"}, {"dcqcn", {{"MinRate", "1Gbps"}}}}},
        {"stop_time_ms", 5},
        {"traffic",
         {{"incast_groups_csv", "groups.csv"},
          {"cdf", {{"enabled", true}, {"file", "bg.cdf"}, {"load", 0.05}, {"duration_us", 600}}},
          {"probe", {{"enabled", true}, {"src", 7}, {"dst", 0}, {"interval_us", 5}}}}},
        {"output", {{"progress", false}, {"port_sample_us", 0}, {"cc_sample_us", 0}}},
    };
    const json s = RunScenario(dir, "dyn", scenario);
    EXPECT_EQ(s["incast_groups"], 2);
    EXPECT_EQ(s["flows_completed"], s["flows_total"]);
    EXPECT_EQ(s["bytes_sent"], s["bytes_delivered"]);

    // Without pauses, every QP of group B sends at least at DCQCN's floor while it is in:
    // the receiver's queue grows by at least (200 x 1 - 100) Gb/s over the 200 us, i.e.
    // 2.5 MB (2 MB allowing for payload vs. wire bytes).
    ASSERT_EQ(s["pfc_pause_frames"], 0u);
    const double maxQueue = s["max_queue_bytes"].get<double>();
    EXPECT_GT(maxQueue, 2.0e6);

    const FlowsSeen seen = ReadFlows(dir / "dyn/fct.csv", maxQueue);
    EXPECT_EQ(seen.groupA, 8);
    EXPECT_EQ(seen.groupB, 200);
    // The receiver's link is the bottleneck from the start: it carries its payload line
    // rate (100G x 1024 / 1106) for the 600 us group A is in, and never more.
    const double payloadBytesPerNs = lineBytesPerNs * 1024 / 1106;
    EXPECT_GT(seen.intoReceiver, 0.95 * payloadBytesPerNs * 600e3);
    EXPECT_LE(seen.intoReceiver, payloadBytesPerNs * s["sim_time_s"].get<double>() * 1e9);
    // The probe in flight when group B leaves was posted at some t in [200, 400] us (the
    // probe is closed loop and posts every 5 us otherwise); it waited at least the queue
    // it found, >= (t - 200 us) x 100 Gb/s at 100 Gb/s, and lasted past 400 us: at least
    // max(t - 200, 400 - t) >= 100 us (90 us allowing for payload vs. wire bytes).
    ASSERT_GT(seen.probeAtLeave, 0) << "a probe is in flight at 400 us";
    EXPECT_GT(seen.probeAtLeave, 90e3);
    EXPECT_GT(s["probe_latency_p99_ns"].get<double>(), 90e3);
}

TEST(IncastDynamics, BadGroupListIsRefused)
{
    TempDir dir;
    WriteText(dir / "groups.csv",
              "receiver,senders,qps_per_sender,join_us,leave_us\n"
              "0,1-2,4,0,600\n"
              "0,3-9,50,200,400\n");
    const json scenario = {
        {"topology", {{"type", "star"}, {"hosts", 8}}},
        {"traffic", {{"incast_groups_csv", "groups.csv"}}},
    };
    WriteText(dir / "s.json", scenario.dump());
    ExpectRefused(dir, dir / "s.json", {"groups.csv:3", "senders", "'9'"});
}
