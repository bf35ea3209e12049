/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-run when a run goes wrong (issue 13): unfinished flows are listed and counted, a
 * stalled run says so and --strict fails it; scenarios too large for the machine and
 * oversized inputs are refused before anything is built; bad values that used to pass
 * are refused with one line; an interrupted run leaves nothing behind; a full disk says
 * so.
 */
#include "cli-util.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using nlohmann::json;
using rdmatest::CliResult;
using rdmatest::kSmall;
using rdmatest::ReadCsv;
using rdmatest::ReadText;
using rdmatest::RunRdmaRun;
using rdmatest::TempDir;
using rdmatest::WriteText;
namespace fs = std::filesystem;

namespace
{

/// kSmall whose receiver link drops to 1 Mb/s at 20 us: a frame then takes 8 ms, so
/// nothing more arrives before the 5 ms stop.
json
Stalling()
{
    json s = kSmall;
    s["stop_time_ms"] = 5;
    s["topology"]["link_events"] = {
        {{"at_us", 20}, {"a", 0}, {"b", 4}, {"action", "rate"}, {"rate_gbps", 0.001}}};
    return s;
}

CliResult
RunIn(const TempDir& dir, const json& s, const std::string& extra)
{
    WriteText(dir / "s.json", s.dump());
    return RunRdmaRun(dir / "s.json" + " --out " + (dir / "out") + " " + extra);
}

/// Exit 2, one line holding every string of \p mentions, no output folder or partial.
void
ExpectRefused(const TempDir& dir, const CliResult& r, const std::vector<std::string>& mentions)
{
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << "one line: " << r.output;
    for (const std::string& m : mentions)
    {
        EXPECT_NE(r.output.find(m), std::string::npos) << "missing '" << m << "' in: " << r.output;
    }
    EXPECT_FALSE(fs::exists(dir / "out"));
    for (const auto& e : fs::directory_iterator(dir / ""))
    {
        EXPECT_EQ(e.path().filename().string().find("out.partial"), std::string::npos);
    }
}

std::vector<std::string>
Partials(const TempDir& dir)
{
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(dir / ""))
    {
        if (e.path().filename().string().find("out.partial-") == 0)
        {
            found.push_back(e.path().string());
        }
    }
    return found;
}
} // namespace

// ------------------------------------------------------------------ stall reporting

TEST(Faults, UnfinishedFlowsAreListedAndAStallIsReported)
{
    TempDir dir;
    const CliResult r = RunIn(dir, Stalling(), "");
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("no progress since"), std::string::npos) << r.output;
    const json sum = json::parse(ReadText(dir / "out/summary.json"));
    const uint64_t unfinished = sum["flows_unfinished"];
    EXPECT_EQ(unfinished,
              sum["flows_total"].get<uint64_t>() - sum["flows_completed"].get<uint64_t>());
    EXPECT_GT(unfinished, 0u);
    ASSERT_TRUE(sum["last_delivery_ns"].is_number()) << sum.dump(2);
    EXPECT_LT(sum["last_delivery_ns"].get<int64_t>(), 1'000'000) << "nothing new after the cut";
    EXPECT_EQ(sum["stalled_since_ns"], sum["last_delivery_ns"]);

    const auto rows = ReadCsv(dir / "out/unfinished.csv");
    ASSERT_EQ(rows.size(), unfinished);
    uint64_t acked = 0;
    for (const auto& row : rows)
    {
        EXPECT_EQ(row.at("kind"), "incast");
        EXPECT_EQ(row.at("dst"), "0");
        EXPECT_LE(std::stoull(row.at("acked_bytes")), std::stoull(row.at("size_bytes")));
        acked += std::stoull(row.at("acked_bytes"));
    }
    // Acknowledged bytes of unfinished flows were delivered; completed flows' too.
    EXPECT_LE(acked, sum["bytes_delivered"].get<uint64_t>());
    // fct.csv keeps completed messages only, with its columns.
    const auto fct = ReadCsv(dir / "out/fct.csv");
    for (const auto& row : fct)
    {
        EXPECT_FALSE(row.at("end_ns").empty());
    }
}

TEST(Faults, StrictExitsThreeOnUnfinishedFlowsAndZeroOtherwise)
{
    TempDir dir;
    const CliResult r = RunIn(dir, Stalling(), "--quiet --strict");
    EXPECT_EQ(r.code, 3) << r.output;
    EXPECT_NE(r.output.find("unfinished"), std::string::npos) << r.output;
    EXPECT_TRUE(fs::exists(dir / "out/summary.json")) << "results are written all the same";

    TempDir ok;
    const CliResult done = RunIn(ok, kSmall, "--quiet --strict");
    EXPECT_EQ(done.code, 0) << done.output;
    const json sum = json::parse(ReadText(ok / "out/summary.json"));
    EXPECT_EQ(sum["flows_unfinished"], 0);
    EXPECT_TRUE(sum["stalled_since_ns"].is_null());
    EXPECT_EQ(ReadCsv(ok / "out/unfinished.csv").size(), 0u);
    EXPECT_EQ(done.output.find("no progress"), std::string::npos) << done.output;
}

// ------------------------------------------------------------------ size guards

TEST(Faults, ScenariosTooLargeForMemoryAreRefusedWithTheirKey)
{
    {
        TempDir dir;
        json s = kSmall;
        s["topology"] = {{"type", "fat_tree"}, {"fat_tree", {{"k", 1000}}}};
        s["traffic"]["incast"]["senders"] = {1, 2, 3};
        s["traffic"]["probe"]["enabled"] = false;
        ExpectRefused(dir, RunIn(dir, s, ""), {"s.json", "GB", "topology.fat_tree.k"});
    }
    {
        TempDir dir;
        json s = kSmall;
        s["topology"]["hosts"] = 8;
        s["traffic"]["incast"]["qps_per_sender"] = 1000000; // 7 M QPs
        ExpectRefused(dir, RunIn(dir, s, ""), {"GB", "traffic.incast.qps_per_sender"});
    }
    {
        TempDir dir;
        ExpectRefused(dir,
                      RunIn(dir, kSmall, "--max-memory-gb 0.01"),
                      {"--max-memory-gb", "GB of memory"});
    }
    {
        // The shipped MoE scenario with 10,000 layers x 10,000 micro-batches.
        TempDir dir;
        const CliResult r = RunRdmaRun(std::string(RDMA_SOURCE_DIR) +
                                       "/scenarios/moe-decode-leaf-spine.json --set "
                                       "traffic.moe.layers=10000 --set "
                                       "traffic.moe.micro_batches=10000 --out " +
                                       (dir / "out"));
        ExpectRefused(dir, r, {"GB", "traffic.moe.layers"});
    }
}

TEST(Faults, RunawayOutputsAreRefusedWithTheirKey)
{
    TempDir dir;
    json s = kSmall;
    s["stop_time_ms"] = 20000;
    s["output"]["cc_sample_us"] = 0.001;
    s["output"]["cc_sample_qps"] = 1000000;
    ExpectRefused(dir, RunIn(dir, s, ""), {"cc.csv", "output.cc_sample_us"});
    TempDir small;
    ExpectRefused(small,
                  RunIn(small, kSmall, "--max-output-gb 0.000001"),
                  {"--max-output-gb", "GB", "csv"});
}

TEST(Faults, UncappedCapturesCountInTheOutputLimit)
{
    // kSmall's output is far below 0.05 GB; capturing its 8 ports without a frame cap
    // for its stop time at 100G is not, and the key to change is the cap.
    json s = kSmall;
    s["stop_time_ms"] = 20;
    {
        TempDir dir;
        EXPECT_EQ(RunIn(dir, s, "--max-output-gb 0.05").code, 0);
    }
    s["output"]["pcap"] = {{"enabled", true}, {"max_packets", 0}};
    TempDir dir;
    ExpectRefused(dir,
                  RunIn(dir, s, "--max-output-gb 0.05"),
                  {"--max-output-gb", "pcap/", "output.pcap.max_packets"});
}

TEST(Faults, OversizedAndDeviceInputFilesAreRefused)
{
    TempDir dir;
    // A sparse 17 MB CDF: larger than any CDF should be.
    {
        std::ofstream f(dir / "big.cdf");
    }
    fs::resize_file(dir / "big.cdf", 17'000'000);
    json s = kSmall;
    s["traffic"]["cdf"] = {{"enabled", true}, {"file", dir / "big.cdf"}};
    ExpectRefused(dir, RunIn(dir, s, ""), {"big.cdf", "MB"});
    s["traffic"]["cdf"]["file"] = "/dev/zero";
    ExpectRefused(dir, RunIn(dir, s, ""), {"/dev/zero", "not a regular file"});
    // A 5,000-character path.
    const std::string longPath = "/tmp/" + std::string(5000, 'x') + ".json";
    const CliResult r = RunRdmaRun(longPath + " --out " + (dir / "out"));
    ExpectRefused(dir, r, {"cannot open", "xxx...xxx"});
    EXPECT_LT(r.output.size(), 700u) << "the line is cut";
}

TEST(Faults, CheckModeEstimatesAndWritesNothing)
{
    TempDir dir;
    WriteText(dir / "s.json", kSmall.dump());
    const CliResult r = RunRdmaRun(dir / "s.json" + " --check");
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("ok;"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("GB of memory"), std::string::npos) << r.output;
}

// ------------------------------------------------------------------ inputs (items 8, 9)

TEST(Faults, DuplicateKeysAreAnErrorNamingFileAndKey)
{
    TempDir dir;
    WriteText(dir / "s.json",
              R"({"topology": {"type": "star", "hosts": 4, "hosts": 8},
                  "traffic": {"probe": {"enabled": true}}})");
    ExpectRefused(dir,
                  RunRdmaRun(dir / "s.json" + " --out " + (dir / "out")),
                  {"s.json", "topology.hosts", "twice"});
    WriteText(dir / "s.json", R"({"seed": 1, "traffic": {"probe": {"enabled": true}}, "seed": 2})");
    ExpectRefused(dir, RunRdmaRun(dir / "s.json" + " --out " + (dir / "out")), {"'seed'"});
}

TEST(Faults, KeysOfAnUnselectedControllerWarnOnce)
{
    TempDir dir;
    json s = kSmall;
    s["cc"] = {{"algorithm", "dcqcn"}, {"hpcc", {{"Eta", 0.9}}}};
    const CliResult r = RunIn(dir, s, "--quiet");
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("warning"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("cc.hpcc.Eta"), std::string::npos) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

TEST(Faults, ContradictoryParametersAndLinkEventsAreRefused)
{
    {
        TempDir dir;
        json s = kSmall;
        s["cc"] = {{"algorithm", "swift"}, {"swift", {{"MinCwnd", 50}, {"MaxCwnd", 10}}}};
        ExpectRefused(dir, RunIn(dir, s, ""), {"s.json", "cc.swift.MinCwnd", "MaxCwnd"});
    }
    {
        TempDir dir;
        json s = kSmall;
        s["cc"] = {{"algorithm", "dcqcn"}, {"dcqcn", {{"MinRate", "0bps"}}}};
        ExpectRefused(dir, RunIn(dir, s, ""), {"s.json", "cc.dcqcn.MinRate", "0"});
    }
    {
        TempDir dir;
        json s = kSmall;
        s["topology"]["link_events"] = {{{"at_us", 5}, {"a", 1}, {"b", 4}, {"action", "up"}}};
        ExpectRefused(dir, RunIn(dir, s, ""), {"s.json", "topology.link_events", "already up"});
        s["topology"]["link_events"] = {
            {{"at_us", 5}, {"a", 1}, {"b", 4}, {"action", "down"}},
            {{"at_us", 9}, {"a", 4}, {"b", 1}, {"action", "down"}},
        };
        ExpectRefused(dir, RunIn(dir, s, ""), {"already down"});
    }
}

TEST(Faults, AStreamPostedAfterItsEndEndsAtOnceInsteadOfAborting)
{
    // An incast stream that ends (until_ms) before its last QP starts (start + jitter):
    // the fuzz test found it aborting on a negative delay. The late QPs end as they are
    // posted; the run completes.
    TempDir dir;
    json s = kSmall;
    s["stop_time_ms"] = 2;
    s["traffic"]["incast"]["until_ms"] = 0.001;
    s["traffic"]["incast"]["jitter_us"] = 1000;
    const CliResult r = RunIn(dir, s, "--quiet");
    EXPECT_EQ(r.code, 0) << r.output;
    const json sum = json::parse(ReadText(dir / "out/summary.json"));
    EXPECT_TRUE(sum["conservation"]["balanced"].get<bool>());
}

// ------------------------------------------------------------------ no leftovers

namespace
{
/// Start rdma-run on a run of several seconds; returns its pid once its partial folder
/// exists (or -1).
pid_t
StartLongRun(const TempDir& dir, const std::vector<std::string>& extra)
{
    json s = kSmall;
    s["stop_time_ms"] = 10000;
    s["traffic"]["incast"]["message_bytes"] = 200'000'000'000LL;
    WriteText(dir / "s.json", s.dump());
    const pid_t pid = ::fork();
    if (pid == 0)
    {
        std::vector<std::string> args = {RDMA_RUN_BINARY,
                                         dir / "s.json",
                                         "--quiet",
                                         "--out",
                                         dir / "out"};
        args.insert(args.end(), extra.begin(), extra.end());
        std::vector<char*> argv;
        for (auto& a : args)
        {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    for (int i = 0; i < 200 && Partials(dir).empty(); ++i)
    {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return Partials(dir).empty() ? -1 : pid;
}

int
WaitExit(pid_t pid)
{
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}
} // namespace

TEST(Faults, SigtermAndSigintRemoveThePartialFolder)
{
    for (const int sig : {SIGTERM, SIGINT})
    {
        TempDir dir;
        const pid_t pid = StartLongRun(dir, {});
        ASSERT_GT(pid, 0) << "the run never started writing";
        ::kill(pid, sig);
        EXPECT_EQ(WaitExit(pid), 128 + sig);
        EXPECT_TRUE(Partials(dir).empty());
        EXPECT_FALSE(fs::exists(dir / "out"));
    }
}

TEST(Faults, KeepPartialLeavesTheFolderMarkedIncomplete)
{
    TempDir dir;
    const pid_t pid = StartLongRun(dir, {"--keep-partial"});
    ASSERT_GT(pid, 0);
    ::kill(pid, SIGINT);
    EXPECT_EQ(WaitExit(pid), 130);
    const auto partials = Partials(dir);
    ASSERT_EQ(partials.size(), 1u);
    EXPECT_NE(ReadText(partials[0] + "/INCOMPLETE").find("interrupted"), std::string::npos);
    EXPECT_TRUE(fs::exists(partials[0] + "/fct.csv"));
    // A later run on the same --out keeps a partial marked INCOMPLETE, removes the others
    // of dead processes.
    const pid_t dead = ::fork();
    if (dead == 0)
    {
        ::_exit(0);
    }
    WaitExit(dead);
    const std::string stale = (dir / "out.partial-") + std::to_string(dead);
    fs::create_directories(stale);
    WriteText(stale + "/fct.csv", "flow_id\n");
    WriteText(dir / "s.json", kSmall.dump());
    const CliResult r = RunRdmaRun(dir / "s.json" + " --quiet --out " + (dir / "out"));
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_FALSE(fs::exists(stale)) << "the dead process's partial is removed";
    EXPECT_TRUE(fs::exists(partials[0])) << "the one kept on purpose stays";
}

TEST(Faults, AFullDiskSaysNoSpaceLeft)
{
    TempDir dir;
    const std::string mnt = dir / "tiny";
    fs::create_directories(mnt);
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0)
    {
        GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
    }
    json s = kSmall;
    s["output"]["port_sample_us"] = 0.1; // about 1 MB of ports.csv
    WriteText(dir / "s.json", s.dump());
    const CliResult r =
        RunRdmaRun(dir / "s.json" + " --quiet --max-output-gb 1 --out " + mnt + "/out");
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(mnt))
    {
        left.push_back(e.path().filename().string());
    }
    ::umount(mnt.c_str());
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("no space left"), std::string::npos) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_TRUE(left.empty()) << "nothing left on the full disk: " << left.size();
}
