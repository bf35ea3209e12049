/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CDF workloads end to end: the shipped distributions are valid and sample to their
 * means, a run offers its target load (of host links, or of ToR uplinks given the
 * oversubscription) and carries it, the measurement window is in summary.json, the same
 * seed gives the same flows, and bad input is refused before anything is written.
 */
#include "cli-util.h"

#include "ns3/core-module.h"

#include <cmath>
#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{
const std::string kWorkloads = std::string(RDMA_SOURCE_DIR) + "/scenarios/workloads/";

/// Mean and coefficient of variation of a CDF file's size, computed here from the
/// points (piecewise uniform between them), independently of the library.
std::pair<double, double>
Moments(const std::string& path)
{
    std::istringstream in(ReadText(path));
    double prevX = 0;
    double prevY = 0;
    double m1 = 0;
    double m2 = 0;
    bool first = true;
    double x;
    double y;
    while (in >> x >> y)
    {
        if (first)
        {
            m1 = x * y / 100;
            m2 = x * x * y / 100;
            first = false;
        }
        else
        {
            const double w = (y - prevY) / 100;
            m1 += w * (prevX + x) / 2;
            m2 += w * (prevX * prevX + prevX * x + x * x) / 3;
        }
        prevX = x;
        prevY = y;
    }
    return {m1, std::sqrt(m2 - m1 * m1) / m1};
}

json
CdfScenario(const std::string& cdfFile, double load)
{
    return json{
        {"topology", {{"type", "star"}, {"hosts", 8}}},
        {"stop_time_ms", 50},
        {"traffic",
         {{"cdf",
           {{"enabled", true},
            {"file", cdfFile},
            {"load", load},
            {"start_us", 10},
            {"duration_us", 500},
            {"warmup_us", 100},
            {"cooldown_us", 150}}}}},
        {"output", {{"progress", false}, {"port_sample_us", 0}, {"cc_sample_us", 0}}},
    };
}
} // namespace

TEST(CdfFiles, ShippedDistributionsAreValidAndSampleToTheirMean)
{
    // Means of the published figures (piecewise uniform between the points), as the
    // literature quotes them: WebSearch ~1.7 MB, Hadoop ~120 KB, GoogleRPC ~2.9 KB.
    const std::map<std::string, double> expected{
        {"websearch.cdf", 1711250.0},
        {"fb_hadoop.cdf", 120420.8},
        {"fb_hadoop2015_fine.cdf", 121848.9},
        {"alistorage2019.cdf", 40869.8},
        {"solar2022.cdf", 39423.5},
        {"googlerpc2008.cdf", 2891.6},
    };
    for (const auto& [name, mean] : expected)
    {
        const std::string path = kWorkloads + name;
        const ns3::FlowSizeCdf cdf = ns3::FlowSizeCdf::Load(path);
        const auto [m, cv] = Moments(path);
        EXPECT_NEAR(m, mean, 0.1) << name;
        EXPECT_NEAR(cdf.Mean(), m, 1e-6 * m) << name;
        // The mean of N samples is within 4 sigma = 4 cv / sqrt(N) of the mean.
        ns3::RngSeedManager::SetSeed(1);
        ns3::Ptr<ns3::UniformRandomVariable> u = ns3::CreateObject<ns3::UniformRandomVariable>();
        u->SetStream(0);
        const size_t n = 400000;
        double sum = 0;
        for (size_t i = 0; i < n; ++i)
        {
            sum += double(cdf.Sample(u->GetValue()));
        }
        EXPECT_NEAR(sum / n, m, 4 * cv / std::sqrt(double(n)) * m) << name;
    }
}

TEST(CdfRun, OffersAndCarriesTheTargetLoad)
{
    // 8 hosts at 100G, 2 KB flows at load 0.5 for 0.5 ms: 8 x 1562.5 = 12500 flows
    // (Poisson: 0.9% sigma). A non-blocking switch carries all of it: every flow
    // completes soon after the last arrival, and the receivers took in the offered bytes.
    TempDir dir;
    WriteText(dir / "2k.cdf", "2000 100\n");
    const json s = RunScenario(dir, "run", CdfScenario("2k.cdf", 0.5));
    EXPECT_EQ(s["flows_completed"], s["flows_total"]);
    EXPECT_NEAR(s["cdf_flows"].get<double>(), 12500, 5 * std::sqrt(12500.0));
    EXPECT_NEAR(s["cdf_target_load"].get<double>(), 0.5, 1e-12);
    EXPECT_NEAR(s["cdf_offered_load"].get<double>(), 0.5, 0.05 * 0.5);
    EXPECT_DOUBLE_EQ(s["cdf_mean_flow_bytes"].get<double>(), 2000);
    // The offered load, recomputed from fct.csv.
    double bytes = 0;
    int64_t firstStart = INT64_MAX;
    int64_t lastStart = 0;
    for (const auto& row : ReadCsv(dir / "run/fct.csv"))
    {
        ASSERT_EQ(row.at("kind"), "cdf");
        bytes += std::stod(row.at("size_bytes"));
        firstStart = std::min<int64_t>(firstStart, std::stoll(row.at("start_ns")));
        lastStart = std::max<int64_t>(lastStart, std::stoll(row.at("start_ns")));
    }
    EXPECT_NEAR(bytes * 8 / (8 * 100e9 * 0.5e-3), s["cdf_offered_load"].get<double>(), 1e-9);
    EXPECT_GE(firstStart, 10000);
    EXPECT_LT(lastStart, 510000);
    EXPECT_EQ(s["bytes_delivered"].get<double>(), bytes);
    // Half-loaded links drain at once: the run ends within 100 us of the last arrival.
    EXPECT_LT(s["sim_time_s"].get<double>(), 0.61e-3);
    // The measurement window: [start + warmup, start + duration - cooldown].
    EXPECT_EQ(s["warmup_end_ns"], 110000);
    EXPECT_EQ(s["cooldown_start_ns"], 360000);
}

TEST(CdfRun, UplinkLoadGivenTheOversubscription)
{
    // 2 leaves x 4 hosts at 100G, one 100G spine link per leaf (4:1). An uplink load of
    // 0.5 with uniform destinations (4 of 7 outside the rack): each host offers
    // 0.5 x 100G / (4 x 4/7) = 21.875G, i.e. a host-link load of 0.21875.
    TempDir dir;
    WriteText(dir / "2k.cdf", "2000 100\n");
    json scenario = CdfScenario("2k.cdf", 0.5);
    scenario["topology"] = {{"type", "leaf_spine"},
                            {"leaves", 2},
                            {"spines", 1},
                            {"hosts_per_leaf", 4}};
    scenario["traffic"]["cdf"]["load_of"] = "tor_uplinks";
    scenario["traffic"]["cdf"]["duration_us"] = 2000;
    const json s = RunScenario(dir, "up", scenario);
    // About 8 x 21.875G / 16 kbit x 2 ms x 4/7 = 12500 flows leave their rack: 0.9% sigma.
    EXPECT_NEAR(s["cdf_offered_load"].get<double>(), 0.5, 0.05 * 0.5);
    EXPECT_NEAR(s["cdf_offered_host_load"].get<double>(), 0.21875, 0.05 * 0.21875);
    EXPECT_EQ(s["flows_completed"], s["flows_total"]);
}

TEST(CdfRun, SameSeedSameFlows)
{
    TempDir dir;
    json scenario = CdfScenario(kWorkloads + "alistorage2019.cdf", 0.3);
    scenario["traffic"]["cdf"]["duration_us"] = 300;
    scenario["traffic"]["cdf"]["warmup_us"] = 0;
    scenario["traffic"]["cdf"]["cooldown_us"] = 0;
    RunScenario(dir, "a", scenario);
    RunScenario(dir, "b", scenario);
    scenario["seed"] = 2;
    RunScenario(dir, "c", scenario);
    const std::string a = ReadText(dir / "a/fct.csv");
    EXPECT_GT(std::count(a.begin(), a.end(), '\n'), 5);
    EXPECT_EQ(a, ReadText(dir / "b/fct.csv"));
    EXPECT_NE(a, ReadText(dir / "c/fct.csv"));
}

TEST(CdfRun, BadInputIsRefused)
{
    TempDir dir;
    WriteText(dir / "bad.cdf", "0 0\n1000 60\n2000 40\n3000 100\n");
    WriteText(dir / "s.json", CdfScenario("bad.cdf", 0.5).dump());
    ExpectRefused(dir, dir / "s.json", {"bad.cdf:3", "decreases"});

    json s = CdfScenario("missing.cdf", 0.5);
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"s.json", "traffic.cdf.file", "missing.cdf"});

    WriteText(dir / "ok.cdf", "1000 100\n");
    s = CdfScenario("ok.cdf", 1.5);
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"s.json", "traffic.cdf.load", "1.5"});

    s = CdfScenario("ok.cdf", 0.5);
    s["traffic"]["cdf"]["load_of"] = "tor_uplinks";
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"traffic.cdf.load_of", "star"});

    s = CdfScenario("ok.cdf", 0.5);
    s["traffic"]["cdf"]["sendrs"] = json::array({1});
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"traffic.cdf.sendrs", "unknown key"});

    s = CdfScenario("ok.cdf", 0.5);
    s["traffic"]["cdf"]["senders"] = json::array({1, 8});
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"traffic.cdf.senders", "[1,8]"});

    s = CdfScenario("ok.cdf", 0.5);
    s["traffic"]["cdf"]["warmup_us"] = 400;
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"traffic.cdf.warmup_us", "cooldown_us"});

    // An uplink load the host links cannot offer: 0.9 x 100G / (4 x 4/7) > 100G.
    s = CdfScenario("ok.cdf", 0.9);
    s["topology"] = {{"type", "leaf_spine"}, {"leaves", 2}, {"spines", 4}, {"hosts_per_leaf", 4}};
    s["traffic"]["cdf"]["load_of"] = "tor_uplinks";
    WriteText(dir / "s.json", s.dump());
    ExpectRefused(dir, dir / "s.json", {"traffic.cdf.load", "0.9"});
}
