/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The MoE all-to-all generator against hand-derived expectations: with uniform routing
 * the bytes between every pair of GPUs are the analytic expectation within 2% (flat,
 * hierarchical, node-limited); skew raises the max/mean expert load as configured; the
 * dependencies chain dispatch -> combine -> next dispatch; a trace written and read back
 * is the same; the presets have the published shapes.
 */
#include "ns3/moe-generator.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/scenario-error.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace ns3;

namespace
{
/// C(n, k) / C(m, k): probability that k uniform draws without replacement from m items
/// all avoid a given subset of m - n items.
double
Avoid(double n, double m, uint32_t k)
{
    double p = 1;
    for (uint32_t i = 0; i < k; ++i)
    {
        p *= (n - i) / (m - i);
    }
    return p;
}

struct Rngs
{
    Ptr<UniformRandomVariable> uniform;
    Ptr<GammaRandomVariable> gamma;
};

Rngs
MakeRngs(uint32_t seed)
{
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(1);
    Rngs r{CreateObject<UniformRandomVariable>(), CreateObject<GammaRandomVariable>()};
    r.uniform->SetStream(0);
    r.gamma->SetStream(1);
    return r;
}

/// Bytes per (src, dst) of one phase.
std::map<std::pair<uint32_t, uint32_t>, double>
PairBytes(const CollectiveTrace& t, const std::string& phase)
{
    std::map<std::pair<uint32_t, uint32_t>, double> bytes;
    for (const TraceFlow& f : t.flows)
    {
        if (f.phase == phase)
        {
            bytes[{f.src, f.dst}] += double(f.bytes);
        }
    }
    return bytes;
}

MoeGenerator
Small()
{
    MoeGenerator g;
    g.ranks = 8;
    g.gpusPerNode = 2;
    g.tokensPerRank = 50000;
    g.hidden = 1024;
    g.topK = 4;
    g.experts = 32;
    return g;
}
} // namespace

TEST(MoeGenerator, FlatUniformBytesPerPairAreTheExpectation)
{
    // 32 experts, 4 per rank, top-4: a token reaches a given other rank with probability
    // 1 - C(28, 4) / C(32, 4); each copy is H + 4H/128 = 1056 bytes (dispatch) and
    // 2H = 2048 bytes (combine, the other way).
    MoeGenerator g = Small();
    auto r = MakeRngs(1);
    const CollectiveTrace t = g.Generate(r.uniform, r.gamma);
    EXPECT_EQ(g.DispatchBytes(), 1024u + 32u);
    EXPECT_EQ(g.CombineBytes(), 2048u);
    const double p = 1 - Avoid(28, 32, 4);
    const double copies = 50000 * p; // ~25800 per pair: sigma ~0.4%
    const auto dispatch = PairBytes(t, "dispatch");
    const auto combine = PairBytes(t, "combine");
    ASSERT_EQ(dispatch.size(), 8u * 7u) << "every rank sends to every other, never to itself";
    for (const auto& [pair, bytes] : dispatch)
    {
        EXPECT_NE(pair.first, pair.second);
        EXPECT_NEAR(bytes, copies * 1056, 0.02 * copies * 1056)
            << pair.first << "->" << pair.second;
        // The combine returns every copy: same count, the other way, 2H each.
        EXPECT_DOUBLE_EQ(combine.at({pair.second, pair.first}), bytes / 1056 * 2048);
    }
    EXPECT_DOUBLE_EQ(double(g.GetStats().dispatchBytes) / 1056 * 2048,
                     double(g.GetStats().combineBytes));
}

TEST(MoeGenerator, HierarchicalSendsOneCopyPerNodeToTheSameLocalRank)
{
    // 4 nodes of 2 GPUs, 8 experts per node: a token reaches another node with
    // probability 1 - C(24, 4) / C(32, 4), one copy to the GPU of its own local rank.
    MoeGenerator g = Small();
    g.exchange = MoeGenerator::Exchange::HIERARCHICAL;
    auto r = MakeRngs(2);
    const CollectiveTrace t = g.Generate(r.uniform, r.gamma);
    const double copies = 50000 * (1 - Avoid(24, 32, 4));
    const auto dispatch = PairBytes(t, "dispatch");
    ASSERT_EQ(dispatch.size(), 8u * 3u) << "each GPU talks to its rail peers on the 3 other nodes";
    for (const auto& [pair, bytes] : dispatch)
    {
        EXPECT_EQ(pair.first % 2, pair.second % 2) << "same local rank";
        EXPECT_NE(pair.first / 2, pair.second / 2) << "another node";
        EXPECT_NEAR(bytes, copies * 1056, 0.02 * copies * 1056);
    }
}

TEST(MoeGenerator, NodeLimitedRoutingReachesAtMostMNodes)
{
    // At most M = 2 of the 4 nodes per token, chosen uniformly; then 4 experts among the
    // 16 of those nodes. A given other node is chosen with probability 2/4 and then gets
    // at least one expert with probability 1 - C(8, 4) / C(16, 4).
    MoeGenerator g = Small();
    g.exchange = MoeGenerator::Exchange::HIERARCHICAL;
    g.maxNodes = 2;
    auto r = MakeRngs(3);
    const CollectiveTrace t = g.Generate(r.uniform, r.gamma);
    const double copies = 50000 * 0.5 * (1 - Avoid(8, 16, 4));
    for (const auto& [pair, bytes] : PairBytes(t, "dispatch"))
    {
        EXPECT_NEAR(bytes, copies * 1056, 0.02 * copies * 1056)
            << pair.first << "->" << pair.second;
    }
    // A token reaches at most M = 2 nodes, so at most 2 other nodes: on average
    // 3 x 0.5 x (1 - C(8, 4) / C(16, 4)) copies.
    const double perToken = double(g.GetStats().dispatchBytes) / 1056 / (8 * 50000);
    EXPECT_LE(perToken, 2.0);
    EXPECT_NEAR(perToken, 3 * copies / 50000, 0.02 * 3 * copies / 50000);
}

TEST(MoeGenerator, SkewRaisesTheMaxOverMeanExpertLoad)
{
    // Uniform: each expert gets Binomial(320000, 4/32) ~ 40000 +- 190 tokens per layer,
    // so max/mean stays below 1 + 4 x 0.5%. A Dirichlet popularity concentrates tokens
    // on a few experts: the smaller alpha, the larger max/mean (at most 32 / 4 = 8, when
    // the same 4 experts take every token).
    auto ratio = [](double alpha, uint32_t seed) {
        MoeGenerator g = Small();
        g.tokensPerRank = 40000;
        g.layers = 2;
        g.dirichletAlpha = alpha;
        auto r = MakeRngs(seed);
        g.Generate(r.uniform, r.gamma);
        return g.GetStats().expertLoadMaxOverMean;
    };
    const double uniform = ratio(0, 4);
    const double mild = ratio(10, 4);
    const double strong = ratio(0.3, 4);
    EXPECT_LT(uniform, 1.02);
    EXPECT_GT(mild, uniform);
    EXPECT_GT(strong, mild);
    EXPECT_GT(strong, 2.0);
    EXPECT_LE(strong, 8.0);
}

TEST(MoeGenerator, DependenciesChainThePhases)
{
    MoeGenerator g = Small();
    g.tokensPerRank = 64;
    g.layers = 2;
    g.microBatches = 2;
    g.expertComputeNs = 5000;
    g.layerComputeNs = 3000;
    auto r = MakeRngs(5);
    const CollectiveTrace t = g.Generate(r.uniform, r.gamma);
    ASSERT_EQ(t.groups.size(), 8u); // 2 phases x 2 layers x 2 micro-batches
    for (const TraceFlow& f : t.flows)
    {
        if (f.phase == "combine")
        {
            // Combine of a stage waits for the dispatch of the same stage, plus compute.
            ASSERT_EQ(f.waits.size(), 1u);
            EXPECT_EQ(t.groups[f.waits[0]].phase, "dispatch");
            EXPECT_EQ(t.groups[f.waits[0]].layer, f.layer);
            EXPECT_EQ(f.gapNs, 5000);
        }
        else if (f.layer == 0)
        {
            EXPECT_TRUE(f.waits.empty());
        }
        else
        {
            // Sequential micro-batches: stage s waits for the combine of stage s - 1.
            ASSERT_EQ(f.waits.size(), 1u);
            EXPECT_EQ(t.groups[f.waits[0]].phase, "combine");
            EXPECT_EQ(t.groups[f.waits[0]].layer, f.layer - 1);
            EXPECT_EQ(f.gapNs, 3000);
        }
    }
    // Overlapped micro-batches: stage 2 (micro-batch 1, layer 0) waits for nothing.
    g.overlapMicroBatches = true;
    auto r2 = MakeRngs(5);
    for (const TraceFlow& f : g.Generate(r2.uniform, r2.gamma).flows)
    {
        if (f.phase == "dispatch" && f.layer == 2)
        {
            EXPECT_TRUE(f.waits.empty());
        }
    }
}

TEST(MoeGenerator, PerTokenMessagesForDecode)
{
    // One message per token and expert not on the sender's GPU: 64 tokens x top-4, of
    // which each lands on the sender's own GPU with probability 4/32.
    MoeGenerator g = Small();
    g.tokensPerRank = 2000;
    g.granularity = MoeGenerator::Granularity::PER_TOKEN;
    auto r = MakeRngs(6);
    const CollectiveTrace t = g.Generate(r.uniform, r.gamma);
    uint64_t dispatch = 0;
    for (const TraceFlow& f : t.flows)
    {
        if (f.phase == "dispatch")
        {
            ++dispatch;
            EXPECT_EQ(f.bytes, 1056u);
        }
        else
        {
            EXPECT_EQ(f.bytes, 2048u);
        }
    }
    const double expected = 8 * 2000 * 4 * (1 - 4.0 / 32);
    EXPECT_NEAR(double(dispatch), expected, 4 * std::sqrt(expected));
    EXPECT_EQ(t.flows.size(), 2 * dispatch);
}

TEST(MoeGenerator, TraceRoundTrip)
{
    MoeGenerator g = Small();
    g.tokensPerRank = 32;
    g.layers = 2;
    g.expertComputeNs = 1000;
    g.priority = 5;
    auto r = MakeRngs(7);
    const CollectiveTrace t = g.Generate(r.uniform, r.gamma);
    std::ostringstream written;
    t.Write(written);
    const std::string path = "/tmp/rdma-moe-trace-test.csv";
    std::ofstream(path) << written.str();
    const CollectiveTrace back = CollectiveTrace::Read(path, 8);
    std::remove(path.c_str());
    ASSERT_EQ(back.flows.size(), t.flows.size());
    for (size_t i = 0; i < t.flows.size(); ++i)
    {
        const TraceFlow& a = t.flows[i];
        const TraceFlow& b = back.flows[i];
        EXPECT_EQ(a.flowId, b.flowId);
        EXPECT_EQ(a.src, b.src);
        EXPECT_EQ(a.dst, b.dst);
        EXPECT_EQ(a.bytes, b.bytes);
        EXPECT_EQ(a.phase, b.phase);
        EXPECT_EQ(a.layer, b.layer);
        EXPECT_EQ(a.gapNs, b.gapNs);
        EXPECT_EQ(a.priority, b.priority);
        ASSERT_EQ(a.waits.size(), b.waits.size());
        for (size_t w = 0; w < a.waits.size(); ++w)
        {
            EXPECT_EQ(t.groups[a.waits[w]].phase, back.groups[b.waits[w]].phase);
            EXPECT_EQ(t.groups[a.waits[w]].layer, back.groups[b.waits[w]].layer);
        }
    }
    std::ostringstream again;
    back.Write(again);
    EXPECT_EQ(written.str(), again.str());
}

TEST(MoeGenerator, PresetsAndValidation)
{
    MoeGenerator g;
    ASSERT_TRUE(g.SetPreset("deepseek_v3"));
    EXPECT_EQ(g.ranks, 64u);
    EXPECT_EQ(g.ranks / g.gpusPerNode, 8u);
    EXPECT_EQ(g.DispatchBytes(), 7168u + 224u); // FP8 + one fp32 scale per 128 channels
    EXPECT_EQ(g.CombineBytes(), 14336u);        // BF16
    EXPECT_EQ(g.Validate(), "");
    ASSERT_TRUE(g.SetPreset("mixtral"));
    EXPECT_EQ(g.Validate(), "");
    ASSERT_TRUE(g.SetPreset("decode"));
    EXPECT_EQ(g.tokensPerRank, 128u);
    EXPECT_EQ(g.Validate(), "");
    EXPECT_FALSE(g.SetPreset("gpt"));
    g = Small();
    g.experts = 30;
    EXPECT_NE(g.Validate().find("experts"), std::string::npos);
    g = Small();
    g.maxNodes = 1;
    g.topK = 9; // 9 experts cannot come from one node of 8
    EXPECT_NE(g.Validate().find("top_k"), std::string::npos);
}

TEST(CollectiveTrace, MalformedLinesNameTheLine)
{
    const std::string header =
        "flow_id,release_ns,src,dst,bytes,phase,layer,wait_groups,gap_ns,prio\n";

    struct Case
    {
        std::string body;
        std::string where;
        std::string mentions;
    };

    const std::vector<Case> cases{
        {"0,0,0,1,100,dispatch,0,,0,\n0,0,1,0,100,combine,0,,0,\n", ":3", "flow_id"},
        {"0,0,0,9,100,dispatch,0,,0,\n", ":2", "dst"},
        {"0,0,0,1,100,dis patch,0,,0,\n", ":2", "phase"},
        {"0,0,0,1,100,dispatch,0,combine:7,0,\n", ":2", "combine:7"},
        {"0,0,0,1,100,dispatch,0,combine,0,\n", ":2", "wait_groups"},
        {"0,0,0,1,0,dispatch,0,,0,\n", ":2", "bytes"},
        {"0,0,0,1,100,dispatch,0,,0,8\n", ":2", "prio"},
        {"0,0,0,1,100,dispatch,0,,0\n", ":2", "10 columns"},
        {"0,0,0,1,100,a,0,b:0,0,\n1,0,1,0,100,b,0,a:0,0,\n", "", "cycle"},
    };
    for (const Case& c : cases)
    {
        const std::string path = "/tmp/rdma-trace-bad.csv";
        std::ofstream(path) << header << c.body;
        std::string e;
        try
        {
            CollectiveTrace::Read(path, 4);
        }
        catch (const ScenarioError& err)
        {
            e = err.what();
        }
        std::remove(path.c_str());
        EXPECT_NE(e.find(path + c.where), std::string::npos) << c.body << " -> " << e;
        EXPECT_NE(e.find(c.mentions), std::string::npos) << c.body << " -> " << e;
    }
}
