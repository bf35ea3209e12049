/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A slow receiving host (nic.host_rx): 2 senders x 2 MB into host 0, which takes payload
 * at only 10 Gb/s. The fabric (100G) is not the bottleneck; the host is.
 *  - Whatever the controller, the host delivers at its rate and no faster: the last flow
 *    ends no sooner than 4 MB / 10 Gb/s = 3.2 ms.
 *  - Without congestion control the senders fill the host's queue at line rate: a packet
 *    waits there ms (the queue grows to about half of the 4 MB sent).
 *  - Swift's endpoint window reads the hold time echoed in the ACKs (CcAck::remoteDelay)
 *    and holds it at EndpointTarget, which the fabric window cannot see, while keeping
 *    the host busy (done within 5% of 3.2 ms). Two targets, so that the level follows
 *    the target rather than some other limit.
 */
#include "scenario-test-util.h"

#include "ns3/rdma-module.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{

constexpr double kHostGbps = 10;
constexpr double kBytes = 2e6;
const double kIdealEndNs = 2 * kBytes * 8 / kHostGbps; // 3.2 ms

json
SlowHost(const std::string& cc, double endpointTargetUs)
{
    return json{
        {"topology", {{"type", "star"}, {"hosts", 3}, {"host_rate_gbps", 100}}},
        {"cc",
         {{"algorithm", cc},
          {"swift", {{"EndpointTarget", std::to_string(endpointTargetUs) + "us"}}}}},
        {"nic", {{"host_rx", {{"rate_gbps", kHostGbps}, {"nodes", {0}}}}}},
        {"stop_time_ms", 20},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"senders", {1, 2}},
            {"qps_per_sender", 1},
            {"message_bytes", uint64_t(kBytes)}}}}},
        {"output", {{"progress", false}}},
    };
}

double
LastEndNs(const TempDir& dir, const std::string& name)
{
    double end = 0;
    for (const auto& row : ReadCsv(dir / (name + "/fct.csv")))
    {
        end = std::max(end, std::stod(row.at("end_ns")));
    }
    return end;
}

} // namespace

TEST(HostRx, WithoutCongestionControlTheHostQueueGrowsAndTheHostSetsThePace)
{
    TempDir dir;
    const json s = RunScenario(dir, "none", SlowHost("none", 10));
    ASSERT_EQ(s["flows_completed"], 2u);
    EXPECT_GE(LastEndNs(dir, "none"), kIdealEndNs);
    // Sent at 100G, taken at 10G: the queue ends near 90% of 4 MB, a wait of ms.
    EXPECT_GT(s["host_rx"]["max_delay_us"].get<double>(), 2000.0);
    EXPECT_EQ(s["host_rx"]["packets"].get<uint64_t>(), uint64_t(2 * kBytes / 1024) + 2);
}

TEST(HostRx, SwiftEndpointWindowHoldsTheHostDelayAtItsTarget)
{
    for (double target : {10.0, 40.0})
    {
        TempDir dir;
        const json s = RunScenario(dir, "swift", SlowHost("swift", target));
        ASSERT_EQ(s["flows_completed"], 2u);
        const double hold = s["host_rx"]["mean_delay_us"].get<double>();
        EXPECT_GE(hold, 0.8 * target) << "target " << target;
        EXPECT_LE(hold, 1.5 * target) << "target " << target;
        const double end = LastEndNs(dir, "swift");
        EXPECT_GE(end, kIdealEndNs);
        EXPECT_LE(end, 1.05 * kIdealEndNs) << "the host went idle: target " << target;
        EXPECT_EQ(s["drops"], 0u);
    }
}

TEST(HostRx, OffByDefaultAndNoHostModelNoHoldTime)
{
    TempDir dir;
    json sc = SlowHost("swift", 10);
    sc.erase("nic");
    const json s = RunScenario(dir, "fast", sc);
    EXPECT_FALSE(s.contains("host_rx"));
    // The 100G fabric sets the pace: both flows done in well under the slow host's time.
    EXPECT_LT(LastEndNs(dir, "fast"), 0.2 * kIdealEndNs);
}
