/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Packet trimming (switch.trim.*) on a 16:1 incast of 2 MB flows into one 100G port with
 * a small static buffer share per egress queue: every frame the buffer refuses is
 * trimmed, none dropped; each trimmed packet is NACKed and resent once (selective
 * repeat), every byte is delivered exactly once, and bytes are conserved (the trimmed
 * payload counted as trimmed away). Without trimming the same run drops.
 */
#include "conservation-util.h"
#include "scenario-test-util.h"

#include <gtest/gtest.h>

using nlohmann::json;
using rdmatest::ExpectConserved;
using rdmatest::RunScenario;
using rdmatest::TempDir;

namespace
{
constexpr uint64_t kSenders = 16;
constexpr uint64_t kFlow = 2000000;
constexpr uint64_t kTotal = kSenders * kFlow;

json
TrimIncast(const std::string& cc, bool trim, const std::string& recovery = "selective_repeat")
{
    json s = {
        {"stop_time_ms", 100},
        {"topology", {{"type", "star"}, {"hosts", kSenders + 1}, {"host_rate_gbps", 100}}},
        {"cc", {{"algorithm", cc}}},
        {"nic", {{"loss_recovery", recovery}}},
        {"switch",
         {{"pfc", {{"enabled", false}}},
          {"buffer", {{"policy", "static"}, {"static_kb", 64}}},
          {"ecn", {{"kmin_kb", 10}, {"kmax_kb", 40}, {"pmax", 1}}},
          {"trim", {{"enabled", trim}}}}},
        {"traffic",
         {{"incast",
           {{"enabled", true}, {"receiver", 0}, {"qps_per_sender", 1}, {"message_bytes", kFlow}}}}},
        {"output", {{"progress", false}, {"queue_sample_us", 100}}},
    };
    return s;
}

/// The physical truths of a trimmed run.
void
ExpectTrimmedRun(const json& s, bool exactResends)
{
    EXPECT_EQ(s["flows_completed"], kSenders);
    EXPECT_EQ(s["bytes_sent"], kTotal);
    EXPECT_EQ(s["bytes_delivered"], kTotal) << "every byte delivered, once";
    EXPECT_EQ(s["drops"], 0u) << "all overflow trimmed";
    const uint64_t trims = s["trimmed_packets"];
    EXPECT_GT(trims, 0u) << "a 16:1 incast overflows a 64 KB queue";
    EXPECT_EQ(s["trimmed_packets_received"], trims) << "every trimmed header arrives";
    EXPECT_EQ(s["trims_by_reason"]["static_queue_limit"], trims);
    if (exactResends)
    {
        EXPECT_GE(s["nacks"].get<uint64_t>(), trims) << "each trimmed packet is NACKed";
        EXPECT_EQ(s["timeouts"], 0u);
        EXPECT_EQ(s["retransmitted_packets"], trims) << "each trimmed packet resent once";
    }
    EXPECT_EQ(s["conservation"]["trimmed_away"]["frames"], 0u);
    EXPECT_GT(s["conservation"]["trimmed_away"]["data_payload_bytes"].get<uint64_t>(), 0u);
    ExpectConserved(s);
}
} // namespace

TEST(Trim, NsccIncastTrimsInsteadOfDropping)
{
    TempDir dir;
    const json on = RunScenario(dir, "on", TrimIncast("nscc", true));
    ExpectTrimmedRun(on, true);
    const json off = RunScenario(dir, "off", TrimIncast("nscc", false));
    EXPECT_GT(off["drops"].get<uint64_t>(), 0u) << "the same run without trimming drops";
    EXPECT_EQ(off["trimmed_packets"], 0u);
    ExpectConserved(off);
}

TEST(Trim, DctcpIncastTrimsInsteadOfDropping)
{
    TempDir dir;
    const json on = RunScenario(dir, "on", TrimIncast("dctcp", true));
    ExpectTrimmedRun(on, true);
    const json off = RunScenario(dir, "off", TrimIncast("dctcp", false));
    EXPECT_GT(off["drops"].get<uint64_t>(), 0u);
    ExpectConserved(off);
}

TEST(Trim, GoBackNRecoversTrimmedPackets)
{
    // Go-back-N resends from the trimmed PSN (more than the trimmed packets).
    TempDir dir;
    const json s = RunScenario(dir, "gbn", TrimIncast("dctcp", true, "go_back_n"));
    ExpectTrimmedRun(s, false);
    EXPECT_GE(s["retransmitted_packets"].get<uint64_t>(), s["trimmed_packets"].get<uint64_t>());
}
