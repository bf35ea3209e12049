/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * 7:1 incast on one 100G switch: PFC makes it lossless, DCQCN keeps the queue lower,
 * and without PFC go-back-N and the timeout still deliver every byte.
 */
#include "scenario-test-util.h"

#include <gtest/gtest.h>

using nlohmann::json;
using rdmatest::RunScenario;
using rdmatest::TempDir;

namespace
{
// 7 senders x 4 QPs x 1 MB into host 0: 28 MB, about 2.4 ms at the receiver's line rate.
constexpr uint64_t kQps = 4;
constexpr uint64_t kMessage = 1000000;
constexpr uint64_t kTotal = 7 * kQps * kMessage;

json
Incast(const std::string& cc, bool pfc)
{
    return json{
        {"topology", {{"type", "star"}, {"hosts", 8}, {"host_rate_gbps", 100}}},
        {"cc", {{"algorithm", cc}}},
        {"switch", {{"pfc", {{"enabled", pfc}}}}},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"qps_per_sender", kQps},
            {"message_bytes", kMessage}}}}},
        {"output", {{"progress", false}}},
    };
}
} // namespace

TEST(Incast, PfcWithoutCcIsLossless)
{
    TempDir dir;
    const json s = RunScenario(dir, "none", Incast("none", true));
    EXPECT_EQ(s["flows_completed"], 7 * kQps);
    EXPECT_EQ(s["drops"], 0u);
    EXPECT_GT(s["pfc_pause_frames"].get<uint64_t>(), 0u) << "7:1 at line rate must pause";
    EXPECT_EQ(s["bytes_sent"], kTotal);
    EXPECT_EQ(s["bytes_delivered"], kTotal);
    EXPECT_EQ(s["retransmitted_packets"], 0u);
    // The receiver link is the bottleneck and stays busy: goodput near the payload
    // line rate (100G x 1024/1106), allowing for the start and the drain.
    const double payloadGbps = 100.0 * 1024 / 1106;
    EXPECT_GT(s["goodput_gbps"].get<double>(), 0.95 * payloadGbps);
    EXPECT_LE(s["goodput_gbps"].get<double>(), payloadGbps * 1.0001);
}

TEST(Incast, DcqcnKeepsTheQueueLower)
{
    TempDir dir;
    const json none = RunScenario(dir, "none", Incast("none", true));
    const json dcqcn = RunScenario(dir, "dcqcn", Incast("dcqcn", true));
    EXPECT_EQ(dcqcn["flows_completed"], 7 * kQps);
    EXPECT_EQ(dcqcn["drops"], 0u);
    EXPECT_EQ(dcqcn["bytes_delivered"], kTotal);
    EXPECT_GT(dcqcn["cnps"].get<uint64_t>(), 0u);
    EXPECT_LT(dcqcn["max_queue_bytes"].get<uint64_t>(), none["max_queue_bytes"].get<uint64_t>());
    EXPECT_LT(dcqcn["pfc_pause_frames"].get<uint64_t>(), none["pfc_pause_frames"].get<uint64_t>());
}

TEST(Incast, LossyGoBackNAndTimeoutDeliverEverything)
{
    // 2:1 without congestion control into a 100 KB buffer: the queue overflows, the
    // receiver NACKs each hole, senders go back; a lost tail is recovered by the timeout.
    TempDir dir;
    json scenario = Incast("none", false);
    scenario["switch"]["buffer_mb"] = 0.1;
    scenario["traffic"]["incast"]["senders"] = {1, 2};
    scenario["traffic"]["incast"]["qps_per_sender"] = 1;
    scenario["nic"] = {{"go_back_n", {{"RetransmissionTimeout", "100us"}}}};
    const json s = RunScenario(dir, "lossy", scenario);
    const uint64_t total = 2 * kMessage;
    EXPECT_GT(s["drops"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["pfc_pause_frames"], 0u);
    EXPECT_GT(s["nacks"].get<uint64_t>() + s["timeouts"].get<uint64_t>(), 0u);
    EXPECT_GT(s["retransmitted_packets"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["flows_completed"], 2u);
    EXPECT_EQ(s["bytes_sent"], total);
    EXPECT_EQ(s["bytes_delivered"], total);
    EXPECT_LE(s["max_queue_bytes"].get<uint64_t>(), 100u * 1024u);
}

TEST(Incast, LossyDcqcnDeliversEverything)
{
    // 7:1 lossy RoCE with DCQCN, ECN marking well below the drop threshold (about half
    // of the 1 MB buffer for one congested port): few drops, all recovered.
    TempDir dir;
    json scenario = Incast("dcqcn", false);
    scenario["switch"]["buffer_mb"] = 1;
    scenario["switch"]["ecn"] = {{"kmin_kb", 40}, {"kmax_kb", 200}};
    const json s = RunScenario(dir, "lossy-dcqcn", scenario);
    EXPECT_EQ(s["pfc_pause_frames"], 0u);
    EXPECT_EQ(s["flows_completed"], 7 * kQps);
    EXPECT_EQ(s["bytes_sent"], kTotal);
    EXPECT_EQ(s["bytes_delivered"], kTotal);
    EXPECT_LE(s["max_queue_bytes"].get<uint64_t>(), 1024u * 1024u);
}

TEST(Incast, LossySelectiveRepeatBeatsGoBackN)
{
    // IRN's result: without PFC, selective repeat recovers losses far faster than
    // go-back-N, which resends everything after each hole. Same 7:1 lossy incast.
    TempDir dir;
    json scenario = Incast("dcqcn", false);
    scenario["switch"]["buffer_mb"] = 1;
    const json gbn = RunScenario(dir, "gbn", scenario);
    scenario["nic"] = {{"loss_recovery", "selective_repeat"}};
    const json sr = RunScenario(dir, "sr", scenario);
    for (const json* s : {&gbn, &sr})
    {
        EXPECT_EQ((*s)["flows_completed"], 7 * kQps);
        EXPECT_EQ((*s)["bytes_sent"], kTotal);
        EXPECT_EQ((*s)["bytes_delivered"], kTotal);
        EXPECT_GT((*s)["drops"].get<uint64_t>(), 0u);
    }
    // Selective repeat resends only holes: fewer retransmissions than go-back-N, and an
    // earlier finish.
    EXPECT_LT(sr["retransmitted_packets"].get<uint64_t>(),
              gbn["retransmitted_packets"].get<uint64_t>());
    EXPECT_LT(sr["sim_time_s"].get<double>(), gbn["sim_time_s"].get<double>());
}

TEST(Incast, UntilTimeFlowsStopAndDeliverEverything)
{
    // "Until T" QPs send without end and are truncated at T = 1 ms: they complete soon
    // after, the receiver link ran at its payload line rate meanwhile, and every byte
    // sent is delivered.
    TempDir dir;
    json scenario = Incast("dcqcn", true);
    scenario["traffic"]["incast"]["until_ms"] = 1;
    const json s = RunScenario(dir, "until", scenario);
    EXPECT_EQ(s["flows_completed"], 7 * kQps);
    EXPECT_EQ(s["bytes_sent"], s["bytes_delivered"]);
    const double payloadGbps = 100.0 * 1024 / 1106;
    // About 1 ms at the payload line rate (the tail drains the queue after T).
    const double delivered = s["bytes_delivered"].get<double>();
    EXPECT_GT(delivered, 0.9 * payloadGbps * 1e9 / 8 * 1e-3);
    EXPECT_LT(s["sim_time_s"].get<double>(), 0.1) << "flows must end after T, not at the stop time";
}

TEST(Probe, IdlePathLatencyIsTheBaseRtt)
{
    // Alone on the fabric, a 1 KB probe completes in exactly its ideal time: one packet
    // store-and-forwarded over two links and its ACK back (slowdown 1).
    TempDir dir;
    const json scenario = {
        {"topology", {{"type", "leaf_spine"}, {"leaves", 2}, {"spines", 2}, {"hosts_per_leaf", 2}}},
        {"stop_time_ms", 0.5},
        {"traffic", {{"probe", {{"enabled", true}, {"src", 3}, {"dst", 0}, {"interval_us", 20}}}}},
        {"output", {{"progress", false}}},
    };
    const json s = RunScenario(dir, "probe", scenario);
    EXPECT_GE(s["probes_completed"].get<uint64_t>(), 20u);
    const std::string fct = rdmatest::ReadText(dir / "probe/fct.csv");
    std::istringstream lines(fct);
    std::string line;
    std::getline(lines, line); // header
    int rows = 0;
    while (std::getline(lines, line))
    {
        const double slowdown = std::stod(line.substr(line.rfind(',') + 1));
        EXPECT_NEAR(slowdown, 1.0, 0.001) << line;
        ++rows;
    }
    EXPECT_GE(rows, 20);
}
