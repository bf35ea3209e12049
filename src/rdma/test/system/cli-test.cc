/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-run as a user meets it: bad input stops before anything is written, with one
 * message naming the file, the key and the value, and exit code 2; a run is repeatable
 * from the same seed and from its own config.json.
 */
#include "cli-util.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>

using nlohmann::json;
using rdmatest::kSmall;
using rdmatest::ReadText;
using rdmatest::RunRdmaRun;
using rdmatest::TempDir;
using rdmatest::WriteText;
namespace fs = std::filesystem;

namespace
{

/// The lowest rate_bps (4th column) in a cc.csv; fails the test if there is no row.
double
MinSampledRate(const std::string& ccCsv)
{
    std::istringstream in(ReadText(ccCsv));
    std::string line;
    std::getline(in, line); // header
    double lowest = 1e300;
    size_t rows = 0;
    while (std::getline(in, line))
    {
        std::istringstream row(line);
        std::string cell;
        for (int col = 0; col < 4; ++col)
        {
            std::getline(row, cell, ',');
        }
        lowest = std::min(lowest, std::stod(cell));
        ++rows;
    }
    EXPECT_GT(rows, 0u) << ccCsv;
    return lowest;
}

/// Write \p scenario, run it with \p extra arguments, expect a clean input error.
void
ExpectInputError(const json& scenario,
                 const std::string& extra,
                 const std::vector<std::string>& mentions)
{
    TempDir dir;
    const std::string file = dir / "bad.json";
    WriteText(file, scenario.dump());
    const std::string out = dir / "out";
    const rdmatest::CliResult r = RunRdmaRun(file + " --out " + out + " " + extra);
    EXPECT_EQ(r.code, 2) << r.output;
    for (const std::string& m : mentions)
    {
        EXPECT_NE(r.output.find(m), std::string::npos) << "missing '" << m << "' in: " << r.output;
    }
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << "one line: " << r.output;
    EXPECT_FALSE(fs::exists(out)) << "no output folder on bad input";
    for (const auto& e : fs::directory_iterator(dir / ""))
    {
        EXPECT_EQ(e.path().filename().string().find("out.partial"), std::string::npos);
    }
}
} // namespace

TEST(Cli, UnknownKey)
{
    json s = kSmall;
    s["topology"]["hostz"] = 8;
    ExpectInputError(s, "", {"bad.json", "topology.hostz", "8", "unknown key"});
}

TEST(Cli, NegativeRate)
{
    json s = kSmall;
    s["topology"]["host_rate_gbps"] = -100;
    ExpectInputError(s, "", {"bad.json", "topology.host_rate_gbps", "-100"});
}

TEST(Cli, WrongType)
{
    json s = kSmall;
    s["seed"] = "abc";
    ExpectInputError(s, "", {"bad.json", "seed", "\"abc\"", "integer"});
}

TEST(Cli, CacheAidsWithoutTheRdmaCore)
{
    for (const char* key : {"port_prefetch", "warm_next"})
    {
        json s = kSmall;
        s["simulator"]["scheduler"] = "map";
        s["simulator"][key] = "always";
        ExpectInputError(s, "", {"bad.json", std::string("simulator.") + key, "always", "map"});
    }
}

TEST(Cli, UnknownChoice)
{
    json s = kSmall;
    s["cc"]["algorithm"] = "reno";
    ExpectInputError(s, "", {"bad.json", "cc.algorithm", "reno", "dcqcn"});
}

TEST(Cli, HostOutOfRange)
{
    json s = kSmall;
    s["traffic"]["incast"]["receiver"] = 9;
    ExpectInputError(s, "", {"bad.json", "traffic.incast.receiver", "9", "4 hosts"});
}

TEST(Cli, HostRxNodeThatIsNotAHost)
{
    json s = kSmall;
    s["nic"]["host_rx"] = {{"rate_gbps", 10}, {"nodes", {0, 4}}};
    ExpectInputError(s, "", {"bad.json", "nic.host_rx.nodes", "4", "not a host"});
}

TEST(Cli, CheckFindsCaptureNodesThatDoNotExist)
{
    // Found once the fabric is built: --check builds it too (4 hosts + 1 switch: 0-4).
    json s = kSmall;
    s["output"]["pcap"] = {{"enabled", true}, {"nodes", {2, 7}}};
    ExpectInputError(s, "--check", {"bad.json", "output.pcap.nodes", "7", "does not exist"});
}

TEST(Cli, BadOverride)
{
    ExpectInputError(kSmall, "--set topology.hosts=-3", {"--set", "topology.hosts", "-3"});
    ExpectInputError(kSmall, "--set nosuch.key=1", {"--set", "nosuch.key", "unknown key"});
}

TEST(Cli, MissingScenarioFile)
{
    TempDir dir;
    const rdmatest::CliResult r = RunRdmaRun(dir / "nowhere.json" + " --out " + dir / "out");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.output.find("nowhere.json"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(Cli, MissingFlowList)
{
    json s = kSmall;
    s["traffic"]["flows_csv"] = "missing-flows.csv";
    ExpectInputError(s, "", {"bad.json", "traffic.flows_csv", "missing-flows.csv"});
}

TEST(Cli, MalformedFlowListLine)
{
    TempDir dir;
    WriteText(dir / "flows.csv", "src,dst,bytes,start_ns\n0,1,1000,0\n2,1,-5,0\n");
    json s = kSmall;
    s["traffic"]["flows_csv"] = dir / "flows.csv";
    ExpectInputError(s, "", {"flows.csv:3", "bytes", "-5"});
}

TEST(Cli, SameSeedSameFct)
{
    TempDir dir;
    WriteText(dir / "s.json", kSmall.dump());
    ASSERT_EQ(RunRdmaRun(dir / "s.json" + " --quiet --out " + dir / "a").code, 0);
    ASSERT_EQ(RunRdmaRun(dir / "s.json" + " --quiet --out " + dir / "b").code, 0);
    const std::string a = ReadText(dir / "a/fct.csv");
    EXPECT_GT(std::count(a.begin(), a.end(), '\n'), 6);
    EXPECT_EQ(a, ReadText(dir / "b/fct.csv"));
    // A different seed draws different start jitter, hence different times.
    ASSERT_EQ(RunRdmaRun(dir / "s.json" + " --quiet --set seed=7 --out " + dir / "c").code, 0);
    EXPECT_NE(a, ReadText(dir / "c/fct.csv"));
}

TEST(Cli, ConfigJsonRepeatsTheRun)
{
    TempDir dir;
    WriteText(dir / "s.json", kSmall.dump());
    ASSERT_EQ(RunRdmaRun(dir / "s.json" + " --quiet --out " + dir / "a").code, 0);
    for (const char* f : {"summary.json", "fct.csv", "queue.csv", "pfc.csv", "config.json"})
    {
        EXPECT_TRUE(fs::exists(dir / (std::string("a/") + f))) << f;
    }
    // config.json is fully resolved: every schema key is present.
    const json config = json::parse(ReadText(dir / "a/config.json"));
    for (const auto& key : ns3::ScenarioSchema::Keys())
    {
        std::string ptr = "/" + key.path;
        std::replace(ptr.begin(), ptr.end(), '.', '/');
        EXPECT_TRUE(config.contains(json::json_pointer(ptr))) << key.path;
        EXPECT_FALSE(config.at(json::json_pointer(ptr)).is_null()) << key.path << " unresolved";
    }
    ASSERT_EQ(RunRdmaRun(dir / "a/config.json" + " --quiet --out " + dir / "b").code, 0);
    EXPECT_EQ(ReadText(dir / "a/fct.csv"), ReadText(dir / "b/fct.csv"));
}

TEST(Cli, RefusesToReplaceAForeignFolder)
{
    TempDir dir;
    WriteText(dir / "s.json", kSmall.dump());
    fs::create_directories(dir / "mine");
    WriteText(dir / "mine/notes.txt", "precious");
    const rdmatest::CliResult r = RunRdmaRun(dir / "s.json" + " --quiet --out " + dir / "mine");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_EQ(ReadText(dir / "mine/notes.txt"), "precious");
}

TEST(Cli, SamplingDoesNotChangeResults)
{
    // Congestion-control timers are lazy; sampling the rate every microsecond must give
    // exactly the same flows as not sampling at all.
    TempDir dir;
    json s = kSmall;
    s["cc"] = {{"algorithm", "dcqcn"}};
    s["switch"] = {{"ecn", {{"kmin_kb", 20}, {"kmax_kb", 80}}}};
    WriteText(dir / "s.json", s.dump());
    ASSERT_EQ(
        RunRdmaRun(dir / "s.json" + " --quiet --set output.cc_sample_us=0 --out " + dir / "a").code,
        0);
    ASSERT_EQ(
        RunRdmaRun(dir / "s.json" +
                   " --quiet --set output.cc_sample_us=1 --set output.cc_sample_qps=6 --out " +
                   dir / "b")
            .code,
        0);
    EXPECT_FALSE(fs::exists(dir / "a/cc.csv"));
    EXPECT_GT(ReadText(dir / "b/cc.csv").size(), 1000u);
    EXPECT_EQ(ReadText(dir / "a/fct.csv"), ReadText(dir / "b/fct.csv"));
    const json sum = json::parse(ReadText(dir / "b/summary.json"));
    EXPECT_GT(sum["cnps"].get<uint64_t>(), 0u)
        << "DCQCN must have reacted for this to mean anything";
}

TEST(Cli, CongestionControlParameters)
{
    // cc.<algorithm>.<Attribute> keys come from the class's ns-3 Attributes.
    json s = kSmall;
    s["cc"] = {{"algorithm", "dcqcn"}, {"dcqcn", {{"RateAi", 40}}}};
    ExpectInputError(s, "", {"bad.json", "cc.dcqcn.RateAi", "40", "unit"});
    s["cc"]["dcqcn"] = {{"G", 2}};
    ExpectInputError(s, "", {"bad.json", "cc.dcqcn.G", "2"});
    s["cc"]["dcqcn"] = {{"Gain", 0.5}};
    ExpectInputError(s, "", {"bad.json", "cc.dcqcn.Gain", "unknown key"});
    ExpectInputError(kSmall, "--set cc.dcqcn.MinRate=-1Gbps", {"--set", "cc.dcqcn.MinRate"});
    // ns-3's Time parser aborts on a malformed time: it must be an input error instead.
    ExpectInputError(kSmall,
                     "--set cc.dcqcn.RateIncreaseInterval=bogus",
                     {"--set", "cc.dcqcn.RateIncreaseInterval", "bogus", "Time"});

    // A valid parameter reaches the controller: with a preset value overridden, the
    // resolved config shows the user's value and the preset's for the others.
    TempDir dir;
    s["cc"]["dcqcn"] = {{"Preset", "Paper"}, {"RateAi", "80Mbps"}};
    WriteText(dir / "s.json", s.dump());
    ASSERT_EQ(RunRdmaRun(dir / "s.json" + " --quiet --out " + dir / "a").code, 0);
    const json config = json::parse(ReadText(dir / "a/config.json"));
    EXPECT_EQ(config["cc"]["dcqcn"]["RateAi"], "80Mbps");
    EXPECT_EQ(config["cc"]["dcqcn"]["RateIncreaseInterval"], "55us"); // paper preset
    EXPECT_EQ(config["nic"]["cnp_interval_us"], 50.0);                // paper preset

    // And it reaches the controller: with MinRate at the 100G line rate DCQCN cannot
    // cut, so every sampled rate is the line rate, while by default the CNPs cut it.
    json c = kSmall;
    c["cc"] = {{"algorithm", "dcqcn"}};
    c["switch"] = {{"ecn", {{"kmin_kb", 20}, {"kmax_kb", 80}}}};
    c["output"]["cc_sample_us"] = 1;
    c["output"]["cc_sample_qps"] = 6;
    WriteText(dir / "c.json", c.dump());
    ASSERT_EQ(RunRdmaRun(dir / "c.json" + " --quiet --out " + dir / "cut").code, 0);
    ASSERT_EQ(RunRdmaRun(dir / "c.json" + " --quiet --set cc.dcqcn.MinRate=100Gbps --out " +
                         dir / "floor")
                  .code,
              0);
    EXPECT_LT(MinSampledRate(dir / "cut/cc.csv"), 100e9);
    EXPECT_EQ(MinSampledRate(dir / "floor/cc.csv"), 100e9);
}

TEST(Cli, DctcpBadInput)
{
    // DCTCP's parameters are checked by their Attributes' checkers: one line, exit 2.
    json s = kSmall;
    s["cc"] = {{"algorithm", "dctcp"}, {"dctcp", {{"G", -0.1}}}};
    ExpectInputError(s, "", {"bad.json", "cc.dctcp.G", "-0.1"});
    ExpectInputError(kSmall,
                     "--set cc.algorithm=dctcp --set cc.dctcp.LossFactor=0",
                     {"--set", "cc.dctcp.LossFactor"});
    // Its alpha needs a per-packet ECN echo: an ACK for every data packet.
    s["cc"] = {{"algorithm", "dctcp"}};
    s["nic"]["ack_interval"] = 2;
    ExpectInputError(s, "", {"bad.json", "nic.ack_interval", "dctcp"});
}

TEST(Cli, BufferPolicyBadInput)
{
    // switch.buffer.*: an unknown policy, a size or alpha out of range, and a policy's
    // parameter given with another policy are each one line naming file, key and value.
    json s = kSmall;
    s["switch"] = {{"buffer", {{"policy", "red"}}}};
    ExpectInputError(s, "", {"bad.json", "switch.buffer.policy", "red"});
    s["switch"] = {{"buffer", {{"policy", "static"}, {"static_kb", -4}}}};
    ExpectInputError(s, "", {"bad.json", "switch.buffer.static_kb", "-4"});
    s["switch"] = {{"buffer", {{"policy", "abm"}, {"abm", {{"alpha", 0}}}}}};
    ExpectInputError(s, "", {"bad.json", "switch.buffer.abm.alpha", "0"});
    s["switch"] = {{"buffer", {{"policy", "abm"}, {"abm", {{"min_drain_rate", 1.5}}}}}};
    ExpectInputError(s, "", {"bad.json", "switch.buffer.abm.min_drain_rate", "1.5"});
    s["switch"] = {{"buffer", {{"policy", "static"}, {"abm", {{"alpha", 0.25}}}}}};
    ExpectInputError(s, "", {"bad.json", "switch.buffer.abm.alpha", "0.25", "abm only", "static"});
    s["switch"] = {{"buffer", {{"static_kb", 64}}}};
    ExpectInputError(s, "", {"bad.json", "switch.buffer.static_kb", "64", "dynamic_threshold"});
    ExpectInputError(kSmall,
                     "--set switch.buffer.policy=abm --set switch.buffer.static_kb=8",
                     {"switch.buffer.static_kb", "8", "static only"});
}

TEST(Cli, TrimBadInput)
{
    // switch.trim.*: a trimmed frame smaller than the module's DATA header (62 bytes), not
    // below a full data frame, a class out of range, and a parameter given with trimming
    // off are each one line naming file, key and value.
    json s = kSmall;
    s["switch"] = {{"trim", {{"enabled", true}, {"bytes", 40}}}};
    ExpectInputError(s, "", {"bad.json", "switch.trim.bytes", "40"});
    s["switch"] = {{"trim", {{"enabled", true}, {"bytes", 61}}}};
    ExpectInputError(s, "", {"bad.json", "switch.trim.bytes", "61"});
    s["switch"] = {{"trim", {{"enabled", true}, {"bytes", 1086}}}};
    ExpectInputError(s, "", {"bad.json", "switch.trim.bytes", "1086", "full data frame"});
    s["switch"] = {{"trim", {{"enabled", true}, {"priority", 8}}}};
    ExpectInputError(s, "", {"bad.json", "switch.trim.priority", "8"});
    s["switch"] = {{"trim", {{"bytes", 128}}}};
    ExpectInputError(s, "", {"bad.json", "switch.trim.bytes", "128", "switch.trim.enabled"});
    ExpectInputError(kSmall, "--set switch.trim.enabled=yes", {"switch.trim.enabled", "yes"});
}

TEST(Cli, NsccBadInput)
{
    // NSCC's parameters are checked by their Attributes' checkers: one line naming the
    // file (or --set), the key and the value, exit 2.
    json s = kSmall;
    s["cc"] = {{"algorithm", "nscc"}, {"nscc", {{"Gamma", 1.5}}}};
    ExpectInputError(s, "", {"bad.json", "cc.nscc.Gamma", "1.5"});
    s["cc"]["nscc"] = {{"MaxWindow", 0}};
    ExpectInputError(s, "", {"bad.json", "cc.nscc.MaxWindow", "0"});
    s["cc"]["nscc"] = {{"QaGate", 2.5}};
    ExpectInputError(s, "", {"bad.json", "cc.nscc.QaGate", "2.5", "integer"});
    s["cc"]["nscc"] = {{"TargetDelay", 6}}; // a time needs its unit
    ExpectInputError(s, "", {"bad.json", "cc.nscc.TargetDelay", "6"});
    s["cc"]["nscc"] = {{"Window", 6}}; // no such attribute
    ExpectInputError(s, "", {"bad.json", "cc.nscc.Window"});
    ExpectInputError(kSmall,
                     "--set cc.algorithm=nscc --set cc.nscc.ReferenceBdp=0",
                     {"--set", "cc.nscc.ReferenceBdp", "0"});
}

TEST(Cli, HpccPintBadInput)
{
    // PINT's bit budget: 1 to 16 bits (a 16-bit field); one line naming the file, the key
    // and the value, exit 2.
    json s = kSmall;
    s["cc"] = {{"algorithm", "hpcc-pint"}};
    s["switch"]["pint_bits"] = 0;
    ExpectInputError(s, "", {"bad.json", "switch.pint_bits", "0"});
    s["switch"]["pint_bits"] = 17;
    ExpectInputError(s, "", {"bad.json", "switch.pint_bits", "17"});
    ExpectInputError(kSmall, "--set switch.pint_bits=99", {"--set", "switch.pint_bits", "99"});
    // The controller's parameters are checked by their Attributes' checkers.
    s["switch"]["pint_bits"] = 8;
    s["cc"]["hpcc-pint"] = {{"SampleProbability", 0}};
    ExpectInputError(s, "", {"bad.json", "cc.hpcc-pint.SampleProbability", "0"});
    // An integer attribute given a fraction: refused, not an abort of ns-3's parser.
    s["cc"]["hpcc-pint"] = {{"MaxStage", 0.5}};
    ExpectInputError(s, "", {"bad.json", "cc.hpcc-pint.MaxStage", "0.5", "integer"});
}

TEST(Cli, DcqcnPresetKey)
{
    // cc.dcqcn.Preset chooses the preset; the parameters left at "preset" hold its values.
    TempDir dir;
    json s = kSmall;
    s["cc"] = {{"algorithm", "dcqcn"}, {"dcqcn", {{"Preset", "Paper"}, {"RateAi", "preset"}}}};
    WriteText(dir / "s.json", s.dump());
    ASSERT_EQ(RunRdmaRun(dir / "s.json" + " --quiet --out " + dir / "a").code, 0);
    json config = json::parse(ReadText(dir / "a/config.json"));
    EXPECT_EQ(config["cc"]["dcqcn"]["Preset"], "Paper");
    EXPECT_FALSE(config["cc"]["dcqcn"].contains("preset"));
    EXPECT_EQ(config["cc"]["dcqcn"]["RateAi"], "40000000bps");
    EXPECT_EQ(config["cc"]["dcqcn"]["RateIncreaseInterval"], "55us");
    EXPECT_EQ(config["nic"]["cnp_interval_us"], 50.0);

    // --set of the Attribute over the file's.
    ASSERT_EQ(
        RunRdmaRun(dir / "s.json" + " --quiet --set cc.dcqcn.Preset=Nic --out " + dir / "b").code,
        0);
    config = json::parse(ReadText(dir / "b/config.json"));
    EXPECT_EQ(config["cc"]["dcqcn"]["Preset"], "Nic");
    EXPECT_EQ(config["cc"]["dcqcn"]["RateIncreaseInterval"], "300us");
    EXPECT_EQ(config["nic"]["cnp_interval_us"], 4.0);

    s["cc"]["dcqcn"] = {{"Preset", "Fast"}};
    ExpectInputError(s, "", {"bad.json", "cc.dcqcn.Preset", "Fast"});
}

TEST(Cli, RemovedKeyAliasesAreUnknownKeys)
{
    // The keys that were other spellings of a class's parameter are gone (CHANGELOG.md
    // names their successors): in a file or in --set, each is an unknown key, exit 2.
    const std::vector<std::pair<std::string, json>> removed{
        {"nic.rto_us", 100},
        {"nic.nack_interval_us", 100},
        {"nic.rto_low_us", 100},
        {"nic.rto_high_us", 320},
        {"nic.rto_low_threshold", 3},
        {"routing.spray_mode", "round_robin"},
        {"routing.adaptive_paused_as_full", false},
        {"routing.flowlet_gap_us", 10},
        {"cc.dcqcn.preset", "paper"},
    };
    for (const auto& [key, value] : removed)
    {
        json s = kSmall;
        s["cc"]["algorithm"] = "dcqcn";
        std::string pointer = "/" + key;
        std::replace(pointer.begin(), pointer.end(), '.', '/');
        s[json::json_pointer(pointer)] = value;
        ExpectInputError(s, "", {"bad.json", "unknown key", "'" + key + "'", value.dump()});
        const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
        ExpectInputError(kSmall,
                         "--set " + key + "=" + text,
                         {"--set", "unknown key", "'" + key + "'", text});
    }
}

TEST(Cli, UnreadableInputsGiveOneCleanLineAndExitTwo)
{
    // A directory as the scenario, a number JSON cannot hold, devices and a binary file
    // as inputs: exit 2, one printable line naming the file, no output folder.
    TempDir dir;
    const std::string out = dir / "out";
    const rdmatest::CliResult asDir = RunRdmaRun(std::string(dir / "") + " --out " + out);
    EXPECT_EQ(asDir.code, 2) << asDir.output;
    EXPECT_NE(asDir.output.find("a directory"), std::string::npos) << asDir.output;
    EXPECT_FALSE(fs::exists(out));

    WriteText(dir / "huge.json", "{\"stop_time_ms\": 1e999999}");
    const rdmatest::CliResult huge = RunRdmaRun(dir / "huge.json" + " --out " + out);
    EXPECT_EQ(huge.code, 2) << huge.output;
    EXPECT_NE(huge.output.find("not valid JSON"), std::string::npos) << huge.output;
    EXPECT_FALSE(fs::exists(out));

    for (const char* device : {"/dev/zero", "/dev/urandom"})
    {
        json s = kSmall;
        s["traffic"]["flows_csv"] = device;
        ExpectInputError(s, "", {device, "not a regular file"});
    }

    std::string binary;
    for (int i = 0; i < 3000; ++i)
    {
        binary += static_cast<char>((i * 7919 + 13) % 256);
    }
    WriteText(dir / "binary.csv", binary);
    json s = kSmall;
    s["traffic"]["flows_csv"] = dir / "binary.csv";
    WriteText(dir / "bin.json", s.dump());
    const rdmatest::CliResult bin = RunRdmaRun(dir / "bin.json" + " --out " + out);
    EXPECT_EQ(bin.code, 2) << bin.output;
    EXPECT_EQ(std::count(bin.output.begin(), bin.output.end(), '\n'), 1) << bin.output;
    for (const char c : bin.output)
    {
        const auto u = static_cast<unsigned char>(c);
        EXPECT_TRUE(c == '\n' || (u >= 0x20 && u < 0x7f)) << "unprintable byte " << +u;
    }
    EXPECT_FALSE(fs::exists(out));
}

TEST(Cli, PathSelectionBadInput)
{
    // nic.load_balancer names a policy, nic.paths is 1 to 16384, a policy's parameters
    // are checked by their Attributes, and nic.entropy_change_packets belongs to per_qp:
    // one line naming the file (or --set), the key and the value, exit 2.
    json s = kSmall;
    s["nic"] = {{"load_balancer", "random"}};
    ExpectInputError(s, "", {"bad.json", "nic.load_balancer", "random"});
    s["nic"] = {{"load_balancer", "oblivious"}, {"paths", 0}};
    ExpectInputError(s, "", {"bad.json", "nic.paths", "0"});
    s["nic"] = {{"load_balancer", "oblivious"}, {"paths", 16385}};
    ExpectInputError(s, "", {"bad.json", "nic.paths", "16385"});
    s["nic"] = {{"load_balancer", "bitmap"}, {"bitmap", {{"MaxPenalty", 0}}}};
    ExpectInputError(s, "", {"bad.json", "nic.bitmap.MaxPenalty", "0"});
    s["nic"] = {{"load_balancer", "reps"}, {"reps", {{"FreezeTime", 10}}}}; // needs a unit
    ExpectInputError(s, "", {"bad.json", "nic.reps.FreezeTime", "10"});
    s["nic"] = {{"load_balancer", "reps"}, {"entropy_change_packets", 4}};
    ExpectInputError(s, "", {"bad.json", "nic.entropy_change_packets", "4", "per_qp"});
    ExpectInputError(kSmall,
                     "--set nic.load_balancer=spray",
                     {"--set", "nic.load_balancer", "spray"});
}
