/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * moe-alltoall: one MoE layer's expert-parallel all-to-all (dispatch, then combine) on a
 * leaf-spine fabric, driven from C++ rather than a scenario file.
 *
 *   moe-alltoall [--preset=deepseek_v3|mixtral|decode] [--tokens=N] [--cc=dcqcn|none|...]
 *                [--exchange=flat|hierarchical] [--rail=true|false] [--alpha=A]
 *                [--trace=FILE]
 *
 * It prints when each phase ended and the all-to-all completion time; with --trace the
 * generated trace is written as CSV (replayable with traffic.trace.csv).
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{
/// The command line's choices.
struct Options
{
    std::string preset = "deepseek_v3";
    uint32_t tokens = 0;
    std::string cc = "dcqcn";
    std::string exchange;
    bool rail = true;
    double alpha = 0;
    std::string traceFile;
};

Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    cmd.AddValue("preset", "deepseek_v3, mixtral or decode", o.preset);
    cmd.AddValue("tokens", "tokens per GPU (0: the preset's)", o.tokens);
    cmd.AddValue("cc", "congestion control (dcqcn, none, timely, swift, hpcc, rtt-probe)", o.cc);
    cmd.AddValue("exchange", "flat or hierarchical (empty: the preset's)", o.exchange);
    cmd.AddValue("rail", "local rank i of every node under leaf i", o.rail);
    cmd.AddValue("alpha", "Dirichlet skew of expert popularity (0: uniform)", o.alpha);
    cmd.AddValue("trace", "write the generated trace to this CSV file", o.traceFile);
    cmd.Parse(argc, argv);
    return o;
}

/// The generator's preset and the options that change it; false if the preset is unknown.
bool
ConfigureMoe(MoeGenerator& moe, const Options& o)
{
    if (!moe.SetPreset(o.preset))
    {
        std::cerr << "moe-alltoall: unknown preset '" << o.preset << "'\n";
        return false;
    }
    if (o.tokens > 0)
    {
        moe.tokensPerRank = o.tokens;
    }
    if (!o.exchange.empty())
    {
        moe.exchange = o.exchange == "flat" ? MoeGenerator::Exchange::FLAT
                                            : MoeGenerator::Exchange::HIERARCHICAL;
    }
    moe.dirichletAlpha = o.alpha;
    moe.priority = 3;
    return true;
}

/// One leaf per local rank (a rail), one host per node under each leaf; false if the
/// congestion control \p cc is unknown.
bool
BuildFabric(RdmaTopology& topo, const std::string& cc, uint32_t leaves, uint32_t nodes)
{
    ObjectFactory ccFactory;
    const PluginRegistry::Plugin* algorithm = PluginRegistry::CongestionControls().Find(cc);
    if (!algorithm)
    {
        std::cerr << "moe-alltoall: unknown congestion control '" << cc << "'\n";
        return false;
    }
    ccFactory.SetTypeId(algorithm->tid);
    topo.SetCongestionControl(ccFactory);
    LeafSpineHelper ls;
    ls.leaves = leaves;
    ls.hostsPerLeaf = nodes;
    ls.spines = std::max<uint32_t>(1, nodes);
    ls.Build(topo);
    topo.Finalize();
    return true;
}

/// The host of each rank: rank r is local rank r % G of node r / G, which rail placement
/// puts on leaf r % G.
std::vector<uint32_t>
RankHosts(const MoeGenerator& moe, uint32_t nodes, bool rail)
{
    std::vector<uint32_t> rankHosts;
    for (uint32_t r = 0; r < moe.ranks; ++r)
    {
        rankHosts.push_back(rail ? (r % moe.gpusPerNode) * nodes + r / moe.gpusPerNode : r);
    }
    return rankHosts;
}

/// When each phase ended and the all-to-all completion time; returns the summary.
nlohmann::json
PrintResults(const Options& o,
             const MoeGenerator& moe,
             uint32_t nodes,
             const CollectiveTrace& trace,
             CollectiveReplay& replay)
{
    std::cout << o.preset << ": " << moe.ranks << " GPUs (" << nodes << " nodes), "
              << moe.tokensPerRank << " tokens each, top-" << moe.topK << " of " << moe.experts
              << " experts, "
              << (moe.exchange == MoeGenerator::Exchange::FLAT ? "flat" : "hierarchical") << ", "
              << o.cc << "\n";
    for (uint32_t g = 0; g < trace.groups.size(); ++g)
    {
        const CollectiveReplay::GroupStats& s = replay.GetGroupStats()[g];
        std::cout << "  " << trace.groups[g].phase << " layer " << trace.groups[g].layer << ": "
                  << s.flows << " flows, " << s.bytes / 1e6 << " MB, "
                  << (s.end - s.start).GetMicroSeconds() << " us\n";
    }
    nlohmann::json summary;
    replay.Summarize(summary);
    std::cout << "  all-to-all: " << summary["collective_time_ns"].get<int64_t>() / 1e3
              << " us, expert load max/mean " << moe.GetStats().expertLoadMaxOverMean << "\n";
    return summary;
}
} // namespace

int
main(int argc, char* argv[])
{
    const Options o = ParseOptions(argc, argv);

    // The traffic: a trace of ranks, dispatch and combine groups with dependencies.
    MoeGenerator moe;
    if (!ConfigureMoe(moe, o))
    {
        return 2;
    }
    const uint32_t nodes = moe.ranks / moe.gpusPerNode;

    RdmaTopology topo;
    if (!BuildFabric(topo, o.cc, moe.gpusPerNode, nodes))
    {
        return 2;
    }

    RngSeedManager::SetSeed(1);
    Ptr<UniformRandomVariable> uniform = CreateObject<UniformRandomVariable>();
    uniform->SetStream(0);
    Ptr<GammaRandomVariable> gamma = CreateObject<GammaRandomVariable>();
    gamma->SetStream(1);
    CollectiveTrace trace = moe.Generate(uniform, gamma);
    if (!o.traceFile.empty())
    {
        std::ofstream out(o.traceFile);
        trace.Write(out);
    }

    const std::vector<uint32_t> rankHosts = RankHosts(moe, nodes, o.rail);
    TrafficDriver driver(topo);
    CollectiveReplay replay(driver,
                            trace,
                            rankHosts,
                            3,
                            moe.granularity == MoeGenerator::Granularity::PER_TOKEN);
    replay.Start();
    driver.SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    driver.Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    nlohmann::json summary = PrintResults(o, moe, nodes, trace, replay);
    Simulator::Destroy();
    return summary["collective_completed"].get<bool>() ? 0 : 1;
}
