/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/collective-stage.h"

#include "ns3/abort.h"
#include "ns3/random-variable-stream.h"
#include "ns3/run-output.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/scenario-topology.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

namespace
{
/// Model keys of traffic.moe whose default comes from the preset.
MoeGenerator
MoeFromKeys(const json& s)
{
    MoeGenerator g;
    g.ranks = Int(s, "traffic.moe.ranks");
    g.gpusPerNode = Int(s, "traffic.moe.gpus_per_node");
    g.tokensPerRank = Int(s, "traffic.moe.tokens_per_rank");
    g.hidden = Int(s, "traffic.moe.hidden_size");
    g.topK = Int(s, "traffic.moe.top_k");
    g.experts = Int(s, "traffic.moe.experts");
    g.maxNodes = Int(s, "traffic.moe.max_nodes");
    g.exchange = Str(s, "traffic.moe.exchange") == "hierarchical"
                     ? MoeGenerator::Exchange::HIERARCHICAL
                     : MoeGenerator::Exchange::FLAT;
    g.granularity = Str(s, "traffic.moe.granularity") == "per_token"
                        ? MoeGenerator::Granularity::PER_TOKEN
                        : MoeGenerator::Granularity::PER_PAIR;
    g.dispatchBytesPerToken = Int(s, "traffic.moe.dispatch_bytes_per_token");
    g.combineBytesPerToken = Int(s, "traffic.moe.combine_bytes_per_token");
    g.dirichletAlpha =
        Str(s, "traffic.moe.skew") == "dirichlet" ? Num(s, "traffic.moe.dirichlet_alpha") : 0.0;
    g.messagesPerPair = Int(s, "traffic.moe.messages_per_pair");
    g.layers = Int(s, "traffic.moe.layers");
    g.microBatches = Int(s, "traffic.moe.micro_batches");
    g.overlapMicroBatches = Bool(s, "traffic.moe.overlap_micro_batches");
    g.expertComputeNs = std::llround(Num(s, "traffic.moe.expert_compute_us") * 1000);
    g.layerComputeNs = std::llround(Num(s, "traffic.moe.layer_compute_us") * 1000);
    g.priority = Int(s, "traffic.moe.priority");
    return g;
}

/// Host of every rank of the MoE group; "" or why the placement is impossible.
std::string
MoeRankHosts(const json& s, const FabricShape& shape, std::vector<uint32_t>& out)
{
    const uint32_t ranks = Int(s, "traffic.moe.ranks");
    const uint32_t gpus = Int(s, "traffic.moe.gpus_per_node");
    const uint32_t hosts = shape.rackOf.size();
    out.clear();
    for (const json& v : At(s, "traffic.moe.rank_hosts"))
    {
        out.push_back(v.get<uint32_t>());
    }
    if (!out.empty())
    {
        if (out.size() != ranks)
        {
            return "rank_hosts lists " + std::to_string(out.size()) + " hosts for " +
                   std::to_string(ranks) + " ranks";
        }
        return "";
    }
    if (Str(s, "traffic.moe.placement") == "linear")
    {
        if (ranks > hosts)
        {
            return std::to_string(ranks) + " ranks need as many hosts, the topology has " +
                   std::to_string(hosts);
        }
        for (uint32_t r = 0; r < ranks; ++r)
        {
            out.push_back(r);
        }
        return "";
    }
    // Rail: local rank i of node n on the n-th host of rack i.
    std::vector<std::vector<uint32_t>> rackHosts;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        rackHosts.resize(std::max<size_t>(rackHosts.size(), shape.rackOf[h] + 1));
        rackHosts[shape.rackOf[h]].push_back(h);
    }
    const uint32_t nodes = ranks / gpus;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        const uint32_t rack = r % gpus;
        const uint32_t n = r / gpus;
        if (rack >= rackHosts.size() || n >= rackHosts[rack].size())
        {
            return "rail placement needs " + std::to_string(gpus) + " racks of at least " +
                   std::to_string(nodes) + " hosts (one rack per local rank)";
        }
        out.push_back(rackHosts[rack][n]);
    }
    return "";
}
} // namespace

void
CollectiveStage::ResolvePaths(json& s, const std::string& file) const
{
    ResolvePathKey(s, "traffic.trace.csv", file);
}

void
CollectiveStage::Resolve(json& s, const std::string& /* file */) const
{
    for (const char* key : {"traffic.moe.priority", "traffic.trace.priority"})
    {
        if (At(s, key).is_null())
        {
            Set(s, key, Int(s, "nic.data_priority"));
        }
    }
    // MoE model keys: the user's, else the preset's.
    MoeGenerator preset;
    preset.SetPreset(Str(s, "traffic.moe.preset"));
    auto fill = [&](const std::string& key, const json& v) {
        if (At(s, key).is_null())
        {
            Set(s, key, v);
        }
    };
    fill("traffic.moe.ranks", preset.ranks);
    fill("traffic.moe.gpus_per_node", preset.gpusPerNode);
    fill("traffic.moe.tokens_per_rank", preset.tokensPerRank);
    fill("traffic.moe.hidden_size", preset.hidden);
    fill("traffic.moe.top_k", preset.topK);
    fill("traffic.moe.experts", preset.experts);
    fill("traffic.moe.max_nodes", preset.maxNodes);
    fill("traffic.moe.exchange",
         preset.exchange == MoeGenerator::Exchange::HIERARCHICAL ? "hierarchical" : "flat");
    fill("traffic.moe.granularity",
         preset.granularity == MoeGenerator::Granularity::PER_TOKEN ? "per_token" : "per_pair");
    const uint64_t hidden = Int(s, "traffic.moe.hidden_size");
    preset.hidden = hidden;
    fill("traffic.moe.dispatch_bytes_per_token", preset.DispatchBytes());
    fill("traffic.moe.combine_bytes_per_token", preset.CombineBytes());
    fill("traffic.collective_qps",
         Bool(s, "traffic.moe.enabled") && Str(s, "traffic.moe.granularity") == "per_token"
             ? "per_pair"
             : "per_flow");
}

void
CollectiveStage::Check(const json& s, const std::string& file, uint32_t hosts) const
{
    for (const char* key : {"traffic.moe.priority", "traffic.trace.priority"})
    {
        if (Int(s, key) == Int(s, "nic.control_priority"))
        {
            FailKey(file, s, key, "must differ from nic.control_priority");
        }
    }
    if (Bool(s, "traffic.moe.enabled"))
    {
        if (!Str(s, "traffic.trace.csv").empty())
        {
            FailKey(file,
                    s,
                    "traffic.trace.csv",
                    "a run replays either the MoE generator's traffic or a trace, not both");
        }
        const std::string why = MoeFromKeys(s).Validate();
        if (!why.empty())
        {
            throw ScenarioError(file + ": keys 'traffic.moe.*' are inconsistent: " + why);
        }
        std::vector<uint32_t> rankHosts;
        const std::string bad = MoeRankHosts(s, ScenarioTopology::Shape(s), rankHosts);
        if (!bad.empty())
        {
            FailKey(file,
                    s,
                    At(s, "traffic.moe.rank_hosts").empty() ? "traffic.moe.placement"
                                                            : "traffic.moe.rank_hosts",
                    bad);
        }
        CheckHostArray(s, file, "traffic.moe.rank_hosts", hosts);
    }
    CheckHostArray(s, file, "traffic.trace.rank_hosts", hosts);
    CheckFileKey(s, file, "traffic.trace.csv");
}

bool
CollectiveStage::Enabled(const json& s) const
{
    return Bool(s, "traffic.moe.enabled") || !Str(s, "traffic.trace.csv").empty();
}

void
CollectiveStage::Prepare(const json& s, uint32_t hosts)
{
    const std::string trace = Str(s, "traffic.trace.csv");
    if (trace.empty())
    {
        return;
    }
    m_rankHosts = HostsOrAll(s, "traffic.trace.rank_hosts", hosts);
    m_trace = std::make_unique<CollectiveTrace>(CollectiveTrace::Read(trace, m_rankHosts.size()));
    for (const TraceFlow& f : m_trace->flows)
    {
        if (m_rankHosts[f.src] == m_rankHosts[f.dst])
        {
            throw ScenarioError(trace + ": flow " + std::to_string(f.flowId) + " joins ranks " +
                                std::to_string(f.src) + " and " + std::to_string(f.dst) +
                                ", which traffic.trace.rank_hosts puts on one host");
        }
        if (f.priority == Int(s, "nic.control_priority"))
        {
            throw ScenarioError(trace + ": flow " + std::to_string(f.flowId) + " uses priority " +
                                std::to_string(f.priority) +
                                ", the control class (nic.control_priority)");
        }
    }
}

void
CollectiveStage::AddTraffic(const json& s,
                            RdmaTopology& /* topo */,
                            TrafficDriver& driver,
                            int64_t& stream)
{
    const bool moe = Bool(s, "traffic.moe.enabled");
    if (moe)
    {
        MoeGenerator g = MoeFromKeys(s);
        Ptr<UniformRandomVariable> uniform = CreateObject<UniformRandomVariable>();
        uniform->SetStream(stream++);
        Ptr<GammaRandomVariable> gamma = CreateObject<GammaRandomVariable>();
        gamma->SetStream(stream++);
        m_trace = std::make_unique<CollectiveTrace>(g.Generate(uniform, gamma));
        m_moeStats = std::make_unique<MoeGenerator::Stats>(g.GetStats());
        const std::string why = MoeRankHosts(s, ScenarioTopology::Shape(s), m_rankHosts);
        NS_ABORT_MSG_IF(!why.empty(), why); // checked in Check()
    }
    NS_ABORT_MSG_IF(!m_trace, "no collective trace: Prepare() was not called");
    const uint8_t priority = Int(s, moe ? "traffic.moe.priority" : "traffic.trace.priority");
    m_replay = std::make_unique<CollectiveReplay>(driver,
                                                  *m_trace,
                                                  m_rankHosts,
                                                  priority,
                                                  Str(s, "traffic.collective_qps") == "per_pair");
    m_replay->Start();
}

void
CollectiveStage::Summarize(json& sum, Time /* end */) const
{
    if (m_replay)
    {
        m_replay->Summarize(sum);
    }
    if (m_moeStats)
    {
        sum["moe_expert_load_max_over_mean"] = m_moeStats->expertLoadMaxOverMean;
        sum["moe_dispatch_bytes"] = m_moeStats->dispatchBytes;
        sum["moe_combine_bytes"] = m_moeStats->combineBytes;
        sum["moe_rank_hosts"] = m_rankHosts;
    }
}

void
CollectiveStage::WriteFiles(RunOutput& out) const
{
    if (m_replay)
    {
        m_replay->WriteCsv(out.Stream("collectives.csv"));
    }
    if (m_moeStats)
    {
        // The generator's traffic as a replayable trace (ranks; hosts: moe_rank_hosts).
        m_trace->Write(out.Stream("moe-trace.csv"));
    }
}

} // namespace ns3
