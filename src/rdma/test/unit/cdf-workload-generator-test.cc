/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Poisson flow arrivals from a flow-size CDF, tested on the generator alone (no
 * simulation): the offered load is the target within 5% over a long sequence, arrivals
 * are Poisson, destinations uniform, the same seed gives the same flows, and the
 * rates for a ToR-uplink load follow from the oversubscription.
 */
#include "ns3/cdf-workload-generator.h"
#include "ns3/rng-seed-manager.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>

using namespace ns3;

namespace
{
/// WebSearch (DCTCP paper), as shipped in scenarios/workloads/websearch.cdf.
FlowSizeCdf
WebSearch()
{
    return FlowSizeCdf::FromPoints({{0, 0},
                                    {10000, 15},
                                    {20000, 20},
                                    {30000, 30},
                                    {50000, 40},
                                    {80000, 53},
                                    {200000, 60},
                                    {1000000, 70},
                                    {2000000, 80},
                                    {5000000, 90},
                                    {10000000, 97},
                                    {30000000, 100}},
                                   "websearch");
}

/// Coefficient of variation of the flow size (piecewise uniform segments).
double
SizeCv(const FlowSizeCdf& cdf)
{
    const auto& p = cdf.Points();
    double m1 = double(p[0].bytes) * p[0].percent / 100;
    double m2 = double(p[0].bytes) * double(p[0].bytes) * p[0].percent / 100;
    for (size_t i = 1; i < p.size(); ++i)
    {
        const double a = double(p[i - 1].bytes);
        const double b = double(p[i].bytes);
        const double w = (p[i].percent - p[i - 1].percent) / 100;
        m1 += w * (a + b) / 2;
        m2 += w * (a * a + a * b + b * b) / 3;
    }
    return std::sqrt(m2 - m1 * m1) / m1;
}

Ptr<UniformRandomVariable>
Rng(uint32_t seed, int64_t stream = 0)
{
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(1);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    return rng;
}

CdfWorkloadGenerator
Generator(const FlowSizeCdf& cdf, uint32_t hosts, double load, Time duration)
{
    CdfWorkloadGenerator g;
    g.cdf = &cdf;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        g.senders.push_back(h);
        g.receivers.push_back(h);
    }
    g.LoadOnHostLinks(load, std::vector<double>(hosts, 100e9));
    g.start = MicroSeconds(100);
    g.stop = g.start + duration;
    return g;
}
} // namespace

TEST(CdfWorkload, OfferedLoadIsTheTarget)
{
    const FlowSizeCdf cdf = WebSearch();
    // 16 hosts at 100G, load 0.5: each starts 100e9 x 0.5 / 8 / 1711250 = 3652 flows/s.
    // The relative error of the offered bytes of N flows is sqrt((1 + cv^2) / N); with
    // N ~ 0.8 s x 16 x 3652 = 46700 flows it is 1.2%, so 5% is a 4-sigma bound.
    const double load = 0.5;
    const Time duration = MilliSeconds(800);
    const double expectedFlows = 16 * 100e9 * load / 8 / cdf.Mean() * duration.GetSeconds();
    const double sigma = std::sqrt((1 + SizeCv(cdf) * SizeCv(cdf)) / expectedFlows);
    ASSERT_LT(4 * sigma, 0.05) << "the test must be able to tell 5% from noise";
    for (uint32_t seed : {1u, 2u, 3u})
    {
        CdfWorkloadGenerator g = Generator(cdf, 16, load, duration);
        const std::vector<FlowSpec> flows = g.Generate(Rng(seed));
        double bytes = 0;
        size_t outside = 0;
        for (const FlowSpec& f : flows)
        {
            bytes += double(f.bytes);
            outside += f.start < g.start || f.start >= g.stop || f.kind != FlowKind::CDF;
        }
        EXPECT_EQ(outside, 0u) << "every flow is a CDF flow starting in [start, stop)";
        const double offered = bytes * 8 / (16 * 100e9 * duration.GetSeconds());
        EXPECT_NEAR(offered, load, 0.05 * load) << "seed " << seed;
        EXPECT_NEAR(double(flows.size()), expectedFlows, 4 * std::sqrt(expectedFlows));
    }
}

TEST(CdfWorkload, ArrivalsArePoissonAndSorted)
{
    // A constant 10 KB size: 0.25 x 100G / 80 kbit = 312500 flows/s per host. Poisson:
    // inter-arrival times are exponential, mean 1/lambda and coefficient of variation 1.
    const FlowSizeCdf cdf = FlowSizeCdf::FromPoints({{10000, 100}}, "constant");
    CdfWorkloadGenerator g = Generator(cdf, 1, 0.25, MilliSeconds(300));
    g.receivers = {0, 1};
    const std::vector<FlowSpec> flows = g.Generate(Rng(7));
    const double lambda = 0.25 * 100e9 / 8 / 10000;
    ASSERT_GT(flows.size(), 90000u);
    double sum = 0;
    double sq = 0;
    size_t unsorted = 0;
    for (size_t i = 1; i < flows.size(); ++i)
    {
        unsorted += flows[i].start < flows[i - 1].start;
        const double gap = (flows[i].start - flows[i - 1].start).GetSeconds();
        sum += gap;
        sq += gap * gap;
    }
    EXPECT_EQ(unsorted, 0u);
    const double n = double(flows.size() - 1);
    const double mean = sum / n;
    const double cv = std::sqrt(sq / n - mean * mean) / mean;
    EXPECT_NEAR(mean * lambda, 1.0, 0.02);
    EXPECT_NEAR(cv, 1.0, 0.03);
    size_t other = 0;
    for (const FlowSpec& f : flows)
    {
        other += f.bytes != 10000 || f.dst != 1;
    }
    EXPECT_EQ(other, 0u) << "10 KB each, to the only receiver other than the sender";
}

TEST(CdfWorkload, MeanFlowSizeIsTheCdfMean)
{
    const FlowSizeCdf cdf = FlowSizeCdf::FromPoints({{100, 0}, {300, 50}, {1000, 100}}, "small");
    CdfWorkloadGenerator g = Generator(cdf, 8, 0.3, MilliSeconds(2));
    const std::vector<FlowSpec> flows = g.Generate(Rng(3));
    double bytes = 0;
    size_t outside = 0;
    for (const FlowSpec& f : flows)
    {
        bytes += double(f.bytes);
        outside += f.bytes < 100 || f.bytes > 1000;
    }
    EXPECT_EQ(outside, 0u);
    // Mean 425 B (0.5 x 200 + 0.5 x 650); std of one size ~257 B, of the mean over N
    // flows 257 / sqrt(N).
    const double n = double(flows.size());
    ASSERT_GT(n, 1e5);
    EXPECT_NEAR(bytes / n, 425.0, 4 * 257 / std::sqrt(n));
}

TEST(CdfWorkload, DestinationsAreUniformAndNeverTheSender)
{
    const FlowSizeCdf cdf = FlowSizeCdf::FromPoints({{1000, 100}}, "constant");
    CdfWorkloadGenerator g = Generator(cdf, 8, 0.5, MilliSeconds(2));
    const std::vector<FlowSpec> flows = g.Generate(Rng(5));
    std::map<std::pair<uint32_t, uint32_t>, double> pairs;
    std::map<uint32_t, double> perSender;
    size_t self = 0;
    for (const FlowSpec& f : flows)
    {
        self += f.src == f.dst;
        pairs[{f.src, f.dst}] += 1;
        perSender[f.src] += 1;
    }
    EXPECT_EQ(self, 0u);
    ASSERT_EQ(pairs.size(), 8u * 7u);
    for (const auto& [pair, n] : pairs)
    {
        // Binomial(N_sender, 1/7): 5 sigma.
        const double expected = perSender[pair.first] / 7;
        EXPECT_NEAR(n, expected, 5 * std::sqrt(expected * 6 / 7))
            << pair.first << "->" << pair.second;
    }
}

TEST(CdfWorkload, OtherRackDestinations)
{
    const FlowSizeCdf cdf = FlowSizeCdf::FromPoints({{1000, 100}}, "constant");
    CdfWorkloadGenerator g = Generator(cdf, 8, 0.1, MilliSeconds(1));
    g.rackOf = {0, 0, 0, 0, 1, 1, 1, 1};
    g.destination = CdfWorkloadGenerator::Destination::OTHER_RACK;
    const std::vector<FlowSpec> flows = g.Generate(Rng(5));
    ASSERT_GT(flows.size(), 1000u);
    for (const FlowSpec& f : flows)
    {
        EXPECT_NE(g.rackOf[f.src], g.rackOf[f.dst]);
    }
}

TEST(CdfWorkload, SameSeedSameFlows)
{
    const FlowSizeCdf cdf = WebSearch();
    auto run = [&](uint32_t seed) {
        return Generator(cdf, 8, 0.4, MilliSeconds(5)).Generate(Rng(seed));
    };
    const auto a = run(11);
    const auto b = run(11);
    const auto c = run(12);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GT(a.size(), 50u);
    for (size_t i = 0; i < a.size(); ++i)
    {
        EXPECT_EQ(a[i].src, b[i].src);
        EXPECT_EQ(a[i].dst, b[i].dst);
        EXPECT_EQ(a[i].bytes, b[i].bytes);
        EXPECT_EQ(a[i].start, b[i].start);
    }
    bool differs = a.size() != c.size();
    for (size_t i = 0; !differs && i < a.size(); ++i)
    {
        differs = a[i].bytes != c[i].bytes || a[i].start != c[i].start;
    }
    EXPECT_TRUE(differs) << "another seed must give other flows";
}

TEST(CdfWorkload, UplinkLoadFollowsTheOversubscription)
{
    // 2 racks x 4 hosts at 100G, 200G of uplinks per rack (2:1 oversubscribed). With
    // uniform destinations a sender's flows leave its rack with probability 4/7, so an
    // uplink load of 0.5 needs 0.5 x 200G / (4 x 4/7) = 43.75G per sender.
    const FlowSizeCdf cdf = WebSearch();
    CdfWorkloadGenerator g = Generator(cdf, 8, 0.01, MilliSeconds(3000));
    g.rackOf = {0, 0, 0, 0, 1, 1, 1, 1};
    ASSERT_TRUE(g.LoadOnUplinks(0.5, {200e9, 200e9}));
    for (double r : g.senderBitRate)
    {
        EXPECT_NEAR(r, 43.75e9, 1);
    }
    const std::vector<FlowSpec> flows = g.Generate(Rng(9));
    double leaving = 0;
    for (const FlowSpec& f : flows)
    {
        if (g.rackOf[f.src] != g.rackOf[f.dst])
        {
            leaving += double(f.bytes);
        }
    }
    // About 3 s x 8 x 3196 flows/s x 4/7 = 43800 leaving flows: 1.2% sigma.
    const double uplinkLoad = leaving * 8 / (2 * 200e9 * 3.0);
    EXPECT_NEAR(uplinkLoad, 0.5, 0.05 * 0.5);

    // A rack whose senders can only reach their own rack cannot load its uplinks.
    g.receivers = {0, 1, 2, 3};
    EXPECT_FALSE(g.LoadOnUplinks(0.5, {200e9, 200e9}));
}
