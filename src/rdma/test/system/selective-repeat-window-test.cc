/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Regression: selective repeat under a window-based controller. The window counts every
 * PSN in [sndUna, sndNxt), lost ones too, so a full window held the holes' resends back;
 * the cumulative ACK could not move without them, and the timeout (which resends by the
 * same scan) resent nothing either: an 8:1 incast of long flows into a 0.25 MB lossy
 * buffer finished 0 to 3 of its 8 flows in 100 ms with thousands of timeouts, while
 * go-back-N (which rewinds sndNxt) finished. Resending a hole now ignores the window and
 * the in-flight cap: the packet it replaces is no longer in flight.
 */
#include "scenario-test-util.h"

#include <gtest/gtest.h>

using nlohmann::json;
using rdmatest::RunScenario;
using rdmatest::TempDir;

namespace
{
constexpr uint64_t kFlow = 4194304;

json
LossyIncast(const std::string& cc)
{
    return json{
        {"stop_time_ms", 100},
        {"topology", {{"type", "star"}, {"hosts", 9}, {"host_rate_gbps", 100}}},
        {"cc", {{"algorithm", cc}}},
        {"nic", {{"loss_recovery", "selective_repeat"}}},
        {"switch", {{"pfc", {{"enabled", false}}}, {"buffer_mb", 0.25}}},
        {"traffic",
         {{"incast",
           {{"enabled", true}, {"receiver", 0}, {"qps_per_sender", 1}, {"message_bytes", kFlow}}}}},
        {"output", {{"progress", false}, {"queue_sample_us", 100}}},
    };
}
} // namespace

TEST(SelectiveRepeatWindow, WindowControllersRecoverLossesWithoutStalling)
{
    TempDir dir;
    for (const char* cc : {"dctcp", "nscc", "hpcc", "swift"})
    {
        const json s = RunScenario(dir, cc, LossyIncast(cc));
        EXPECT_GT(s["drops"].get<uint64_t>(), 0u) << cc << ": the buffer overflows";
        EXPECT_EQ(s["flows_completed"], 8u) << cc;
        EXPECT_EQ(s["bytes_delivered"], 8 * kFlow) << cc;
        EXPECT_GT(s["retransmitted_packets"].get<uint64_t>(), 0u) << cc;
        // The holes are resent on the NACKs: timeouts are rare (were thousands).
        EXPECT_LT(s["timeouts"].get<uint64_t>(), 100u) << cc;
    }
}
