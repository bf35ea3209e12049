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

int
main(int argc, char* argv[])
{
    std::string preset = "deepseek_v3";
    uint32_t tokens = 0;
    std::string cc = "dcqcn";
    std::string exchange;
    bool rail = true;
    double alpha = 0;
    std::string traceFile;
    CommandLine cmd(__FILE__);
    cmd.AddValue("preset", "deepseek_v3, mixtral or decode", preset);
    cmd.AddValue("tokens", "tokens per GPU (0: the preset's)", tokens);
    cmd.AddValue("cc", "congestion control (dcqcn, none, timely, swift, hpcc, rtt-probe)", cc);
    cmd.AddValue("exchange", "flat or hierarchical (empty: the preset's)", exchange);
    cmd.AddValue("rail", "local rank i of every node under leaf i", rail);
    cmd.AddValue("alpha", "Dirichlet skew of expert popularity (0: uniform)", alpha);
    cmd.AddValue("trace", "write the generated trace to this CSV file", traceFile);
    cmd.Parse(argc, argv);

    // The traffic: a trace of ranks, dispatch and combine groups with dependencies.
    MoeGenerator moe;
    if (!moe.SetPreset(preset))
    {
        std::cerr << "moe-alltoall: unknown preset '" << preset << "'\n";
        return 2;
    }
    if (tokens > 0)
    {
        moe.tokensPerRank = tokens;
    }
    if (!exchange.empty())
    {
        moe.exchange = exchange == "flat" ? MoeGenerator::Exchange::FLAT
                                          : MoeGenerator::Exchange::HIERARCHICAL;
    }
    moe.dirichletAlpha = alpha;
    moe.priority = 3;
    const uint32_t nodes = moe.ranks / moe.gpusPerNode;

    // The fabric: one leaf per local rank (a rail), one host per node under each leaf.
    RdmaTopology topo;
    ObjectFactory ccFactory;
    const PluginRegistry::Plugin* algorithm = PluginRegistry::CongestionControls().Find(cc);
    if (!algorithm)
    {
        std::cerr << "moe-alltoall: unknown congestion control '" << cc << "'\n";
        return 2;
    }
    ccFactory.SetTypeId(algorithm->tid);
    topo.SetCongestionControl(ccFactory);
    LeafSpineHelper ls;
    ls.leaves = moe.gpusPerNode;
    ls.hostsPerLeaf = nodes;
    ls.spines = std::max<uint32_t>(1, nodes);
    ls.Build(topo);
    topo.Finalize();

    RngSeedManager::SetSeed(1);
    Ptr<UniformRandomVariable> uniform = CreateObject<UniformRandomVariable>();
    uniform->SetStream(0);
    Ptr<GammaRandomVariable> gamma = CreateObject<GammaRandomVariable>();
    gamma->SetStream(1);
    const CollectiveTrace trace = moe.Generate(uniform, gamma);
    if (!traceFile.empty())
    {
        std::ofstream out(traceFile);
        trace.Write(out);
    }

    // Rank r = local rank r % G of node r / G: rail placement puts it on leaf r % G.
    std::vector<uint32_t> rankHosts;
    for (uint32_t r = 0; r < moe.ranks; ++r)
    {
        rankHosts.push_back(rail ? (r % moe.gpusPerNode) * nodes + r / moe.gpusPerNode : r);
    }
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

    std::cout << preset << ": " << moe.ranks << " GPUs (" << nodes << " nodes), "
              << moe.tokensPerRank << " tokens each, top-" << moe.topK << " of " << moe.experts
              << " experts, "
              << (moe.exchange == MoeGenerator::Exchange::FLAT ? "flat" : "hierarchical") << ", "
              << cc << "\n";
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
    Simulator::Destroy();
    return summary["collective_completed"].get<bool>() ? 0 : 1;
}
