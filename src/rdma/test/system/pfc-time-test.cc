/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * pfc_time.csv, the time each port was paused by PFC and its number of pauses: nothing
 * without PFC; under an incast with PFC, the senders' ports are paused, never the
 * receiver's, each for at most the run minus the time its own bytes needed on the wire,
 * and the pauses they count are the pauses the switches sent (summary.json); a run over
 * one rank (rdma-run --ranks 1, the merge of a run over ranks) writes the same file.
 */
#include "cli-util.h"

#include <gtest/gtest.h>
#include <set>

using nlohmann::json;
using rdmatest::ReadCsv;
using rdmatest::ReadText;
using rdmatest::RunRdmaRun;
using rdmatest::RunScenario;
using rdmatest::TempDir;
using rdmatest::WriteText;

namespace
{
/// The CLI tests' small incast (2 QPs from each of hosts 1-3 into host 0 of a 4-host
/// star, and a probe), with PFC on or off, an uncontrolled sender (no CC) and a switch
/// buffer of 0.3 MB that the incast fills.
json
Incast(bool pfc)
{
    json s = rdmatest::kSmall;
    s["switch"]["pfc"]["enabled"] = pfc;
    s["switch"]["buffer_mb"] = 0.3;
    s["cc"]["algorithm"] = "none";
    return s;
}

uint64_t
U(const std::map<std::string, std::string>& row, const std::string& column)
{
    return std::stoull(row.at(column));
}

/// The pauses of pfc_time.csv in \p dir, checked against the run's summary \p sum: every
/// row a class paused at least once, for at most the run; the pauses that began at the
/// ports are the pauses the switches began (summary pfc_pause_episodes), but for those
/// still on their way at the end (one class is used: at most one per port, a row of
/// links.csv). \return their sum
uint64_t
CheckPauses(const std::string& dir, const json& sum)
{
    const auto rows = ReadCsv(dir + "/pfc_time.csv");
    const double runNs = sum["sim_time_s"].get<double>() * 1e9;
    uint64_t pauses = 0;
    for (const auto& row : rows)
    {
        EXPECT_GE(U(row, "pauses"), 1u);
        EXPECT_GT(U(row, "paused_ns"), 0u);
        EXPECT_LE(double(U(row, "paused_ns")), runNs) << "paused longer than the run";
        pauses += U(row, "pauses");
    }
    const uint64_t sent = sum["pfc_pause_episodes"].get<uint64_t>();
    EXPECT_LE(pauses, sent) << "a port counted a pause no switch began";
    const uint64_t ports = ReadCsv(dir + "/links.csv").size();
    EXPECT_GE(pauses + ports, sent) << "pauses the switches began were not counted";
    return pauses;
}
} // namespace

TEST(PfcTime, NothingIsPausedWithoutPfc)
{
    TempDir dir;
    const json sum = RunScenario(dir, "lossy", Incast(false));
    EXPECT_EQ(sum["pfc_pause_frames"], 0u);
    // The file is written, with its header and no row.
    EXPECT_EQ(ReadText(dir / "lossy/pfc_time.csv"), "node,port,prio,paused_ns,pauses\n");
}

TEST(PfcTime, AnIncastPausesTheSendersForAtMostWhatTheirBytesLeave)
{
    TempDir dir;
    const json sum = RunScenario(dir, "pfc", Incast(true));
    ASSERT_TRUE(sum["all_flows_completed"].get<bool>());
    ASSERT_GT(sum["pfc_pause_episodes"].get<uint64_t>(), 0u) << "3:1 at line rate must pause";
    EXPECT_GT(CheckPauses(dir / "pfc", sum), 0u);
    // Hosts are nodes 0-3 and the switch node 4: the switch pauses the ports that feed it,
    // the senders'; the receiver only sends acknowledgements, and nothing pauses the switch.
    const double runNs = sum["sim_time_s"].get<double>() * 1e9;
    // A sender sends its 2 x 200 KB only while not paused: their payload at the line rate
    // (headers aside) is a time it was not paused.
    const json config = json::parse(ReadText(dir / "pfc/config.json"));
    const double wireNs = 2.0 * 200000 * 8 / config["topology"]["host_rate_gbps"].get<double>();
    std::set<uint64_t> paused;
    for (const auto& row : ReadCsv(dir / "pfc/pfc_time.csv"))
    {
        const uint64_t node = U(row, "node");
        EXPECT_GE(node, 1u) << "the receiver was paused";
        EXPECT_LE(node, 3u) << "the switch was paused";
        EXPECT_EQ(U(row, "port"), 0u);
        EXPECT_LE(double(U(row, "paused_ns")), runNs - wireNs) << "host " << node;
        paused.insert(node);
    }
    EXPECT_FALSE(paused.empty());
}

TEST(PfcTime, SwitchesPauseEachOtherInALeafSpineIncast)
{
    // 12 senders on three leaves into one host: the receiver's leaf pauses the spines,
    // which pause the senders' leaves, which pause the senders.
    TempDir dir;
    json s = Incast(true);
    s["topology"] = {{"type", "leaf_spine"}, {"leaves", 4}, {"spines", 2}, {"hosts_per_leaf", 4}};
    s["traffic"]["incast"]["senders"] = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    s["traffic"]["probe"]["enabled"] = false;
    const json sum = RunScenario(dir, "ls", s);
    ASSERT_GT(sum["pfc_pause_episodes"].get<uint64_t>(), 0u);
    CheckPauses(dir / "ls", sum);
    // Hosts are nodes 0-15, switches 16 on.
    bool switchPaused = false;
    for (const auto& row : ReadCsv(dir / "ls/pfc_time.csv"))
    {
        switchPaused = switchPaused || U(row, "node") >= 16;
        EXPECT_FALSE(U(row, "node") < 4) << "a host of the receiver's leaf was paused";
    }
    EXPECT_TRUE(switchPaused) << "no switch port was paused by its peer";
}

TEST(PfcTime, OneRankWritesTheSerialRunsFile)
{
    // --ranks 1 runs the whole path of a run over ranks: the file is merged by its
    // declaration, and must be the serial run's.
    TempDir dir;
    WriteText(dir / "s.json", Incast(true).dump(2));
    ASSERT_EQ(RunRdmaRun(dir / "s.json" + " --quiet --out " + dir / "serial").code, 0);
    const auto ranked = RunRdmaRun(dir / "s.json" + " --quiet --ranks 1 --out " + dir / "ranked");
    ASSERT_EQ(ranked.code, 0) << ranked.output;
    const std::string serial = ReadText(dir / "serial/pfc_time.csv");
    EXPECT_GT(std::count(serial.begin(), serial.end(), '\n'), 1) << "no pause to compare";
    EXPECT_EQ(ReadText(dir / "ranked/pfc_time.csv"), serial);
}
