/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Sender-side load balancing (nic.load_balancer) over plain per-switch ECMP, on a k = 4
 * fat-tree (16 hosts at 100G, full bisection) with Ultra Ethernet's transport: NSCC,
 * selective repeat, packet trimming, PFC off. A permutation (every host sends 2 MB to
 * another host, each host receiving one) collides under per-QP ECMP, where two flows
 * hashed onto one uplink share it; spraying each QP over 64 entropies (oblivious, REPS) spreads
 * every flow over every path and ends within 1.6 x a message time at line rate. With one core link
 * at 10% of its rate, REPS and bitmap, which stop using entropies whose packets came back marked or
 * trimmed, finish sooner than oblivious spraying, which keeps sending a share of every flow through
 * the slow link. Every byte is delivered in every run.
 */
#include "scenario-test-util.h"

#include <gtest/gtest.h>

using nlohmann::json;
using rdmatest::RunScenario;
using rdmatest::TempDir;

namespace
{
constexpr uint64_t kHosts = 16;
constexpr uint64_t kMessage = 2000000;
/// A data frame of 1024 payload bytes is 1086 bytes on the wire (rdma-wire.h).
constexpr double kWirePerPayload = 1086.0 / 1024.0;
constexpr double kLineRateBps = 100e9;

json
FatTreePermutation(const std::string& balancer, bool degraded)
{
    json s = {
        {"stop_time_ms", 50},
        {"topology",
         {{"type", "fat_tree"},
          {"fat_tree", {{"k", 4}}},
          {"host_rate_gbps", 100},
          {"fabric_rate_gbps", 100}}},
        {"routing", {{"load_balancer", "ecmp"}}},
        {"cc", {{"algorithm", "nscc"}}},
        // Direct placement answers in-order progress only: enough to measure how well a
        // blind spread does. Policies that learn from feedback need an answer per packet,
        // which selective repeat gives (its report of an out-of-order packet echoes that
        // packet's entropy too); NSCC takes a packet off its window per such report,
        // which slows sprayed flows, so the healthy fabric runs with direct placement.
        {"nic",
         {{"loss_recovery", degraded ? "selective_repeat" : "direct_placement"},
          {"load_balancer", balancer}}},
        {"switch",
         {{"pfc", {{"enabled", false}}},
          {"buffer", {{"policy", "static"}, {"static_kb", 128}}},
          {"ecn", {{"kmin_kb", 5}, {"kmax_kb", 20}, {"pmax", 1}}},
          {"trim", {{"enabled", true}}}}},
        {"traffic", {{"permutation", {{"enabled", true}, {"message_bytes", kMessage}}}}},
        {"output", {{"progress", false}}},
    };
    if (degraded)
    {
        // A core link at 10% of its rate, as htsim's -failed does (node ids as in
        // links.csv: 16 hosts, 8 ToRs, 8 aggregation switches, then the 4 cores; the
        // first aggregation switch's link to the first core).
        s["topology"]["link_events"] = {
            {{"at_us", 0}, {"a", 24}, {"b", 32}, {"action", "rate"}, {"rate_gbps", 10}}};
    }
    return s;
}

/// The run's summary, after checking that every byte was delivered.
json
RunPermutation(const std::string& balancer, bool degraded = false)
{
    TempDir dir;
    const json s = RunScenario(dir, balancer, FatTreePermutation(balancer, degraded));
    EXPECT_EQ(s["flows_completed"], kHosts) << balancer;
    EXPECT_EQ(s["bytes_sent"], kHosts * kMessage) << balancer;
    EXPECT_EQ(s["bytes_delivered"], kHosts * kMessage) << balancer << ": every byte, once";
    return s;
}

/// When the last byte arrived (us).
double
FinishUs(const json& summary)
{
    return summary["last_delivery_ns"].get<double>() / 1000.0;
}

} // namespace

TEST(PathSelection, SprayingBeatsPerQpEcmpOnAPermutation)
{
    // The fastest a 2 MB message can go at 100G (its frames' wire bytes at line rate).
    const double idealUs = kMessage * kWirePerPayload * 8 / kLineRateBps * 1e6;
    const double ecmp = FinishUs(RunPermutation("per_qp"));
    for (const char* balancer : {"oblivious", "reps"})
    {
        const double spray = FinishUs(RunPermutation(balancer));
        // Full bisection: spread over every path, no link carries more than line rate,
        // so the permutation ends close to one message time (plus RTTs and NSCC's start).
        EXPECT_LT(spray, 1.6 * idealUs) << balancer << " " << spray << " us, ideal " << idealUs;
        // Per-QP ECMP puts two of 16 flows on one uplink somewhere (8 ToRs, each
        // hashing its 2 flows onto 2 uplinks), and those two share 100G.
        EXPECT_LT(spray, 0.7 * ecmp) << balancer << " " << spray << " us, ECMP " << ecmp << " us";
    }
}

TEST(PathSelection, AvoidingADegradedLinkFinishesSooner)
{
    // Oblivious spraying sends a quarter of each pod-0 flow through the 10G link, whose
    // queue holds back the window of every such flow. Its queue marks (ECN from 5 KiB)
    // and trims: REPS stops reusing those entropies, bitmap skips them for a while.
    const double oblivious = FinishUs(RunPermutation("oblivious", true));
    for (const char* balancer : {"reps", "bitmap"})
    {
        const double avoiding = FinishUs(RunPermutation(balancer, true));
        EXPECT_LT(avoiding, 0.95 * oblivious)
            << balancer << " " << avoiding << " us, oblivious " << oblivious << " us";
    }
}
