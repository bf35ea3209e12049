/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/abort.h"
#include "ns3/collective-replay.h"
#include "ns3/collective-trace.h"
#include "ns3/moe-generator.h"
#include "ns3/output-file.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-ranks.h"
#include "ns3/run-output.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/topology-stage.h"
#include "ns3/traffic-stage.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Collective traffic, replayed with its dependencies by CollectiveReplay: either the MoE
 * generator's (traffic.moe.*: expert-parallel dispatch and combine, ranks placed on hosts
 * linearly, by rail or by traffic.moe.rank_hosts) or a trace file's (traffic.trace.*,
 * relative to the scenario file, read in Prepare). Owns the keys traffic.moe.*,
 * traffic.trace.*, traffic.collective_qps and traffic.collective_wait; writes the collective_* keys
 * of summary.json (and moe_* for the generator) and the files collectives.csv and, for the
 * generator, moe-trace.csv.
 */
class CollectiveStage : public TrafficStage
{
  public:
    /// Make traffic.trace.csv absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// Priorities (default nic.data_priority), the MoE preset's model keys and
    /// traffic.collective_qps.
    void Resolve(nlohmann::json& scenario, const std::string& file) const override;
    /// Priority, MoE model and placement, rank host and trace file checks.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioKey> Keys() const override;
    /// Flows and QPs: the MoE messages or the trace rows.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    /// Read the trace (errors: file:line, ranks on one host, a flow in the control class).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
    /// Generate the MoE traffic (two random streams: uniform, gamma) or take the trace,
    /// and start its replay.
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;
    /// The collective_* keys; the moe_* keys for the MoE generator.
    void Summarize(nlohmann::json& summary, Time end) const override;
    /// moe-trace.csv for the MoE generator (on rank 0); then, over MPI ranks, the rows
    /// of the flows between other ranks' hosts are dropped.
    void WriteInputs(RunOutput& out) override;
    /// collectives.csv.
    void WriteFiles(RunOutput& out) const override;

  private:
    std::unique_ptr<CollectiveTrace> m_trace;        ///< MoE generator's or replayed
    std::unique_ptr<MoeGenerator::Stats> m_moeStats; ///< MoE generator only
    std::vector<uint32_t> m_rankHosts;
    std::unique_ptr<CollectiveReplay> m_replay;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
// Its order among the sources fixes when it adds its flows (flow ids, streams).
const StageRegistration<TrafficStage, CollectiveStage> g_stage(70);
} // namespace

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
        const std::string bad = MoeRankHosts(s, TopologyStage::ShapeOf(s), rankHosts);
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
        const std::string why = MoeRankHosts(s, TopologyStage::ShapeOf(s), m_rankHosts);
        NS_ABORT_MSG_IF(!why.empty(), why); // checked in Check()
    }
    NS_ABORT_MSG_IF(!m_trace, "no collective trace: Prepare() was not called");
    const uint8_t priority = Int(s, moe ? "traffic.moe.priority" : "traffic.trace.priority");
    m_replay = std::make_unique<CollectiveReplay>(driver,
                                                  *m_trace,
                                                  m_rankHosts,
                                                  priority,
                                                  Str(s, "traffic.collective_qps") == "per_pair",
                                                  Str(s, "traffic.collective_wait") == "delivered"
                                                      ? CollectiveReplay::Wait::DELIVERED
                                                      : CollectiveReplay::Wait::ACKNOWLEDGED);
    m_replay->Start();
}

void
CollectiveStage::Summarize(json& sum, Time /* end */) const
{
    if (m_replay)
    {
        // Over ranks every rank comes here, in stage order: the collective combine is safe.
        m_replay->CombineRanks();
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

namespace
{
/// collectives.csv: a row per phase and layer of the replay; every rank combines the
/// groups' times (CollectiveReplay::CombineRanks) and writes the whole file: rank 0's is
/// it. Not estimated (a row per group: small beside the flows').
const OutputFileRegistration g_collectivesCsv(
    {"collectives.csv",
     {"phase", "layer", "start_ns", "end_ns", "duration_ns", "flows", "bytes"},
     {},
     "",
     OutputFile::Merge::RANK_ZERO,
     0,
     nullptr,
     nullptr,
     80});

/// moe-trace.csv: the MoE generator's traffic as a replayable trace (CollectiveTrace's
/// columns), written by rank 0 only. Not estimated (a row per flow, as fct.csv).
const OutputFileRegistration g_moeTraceCsv({"moe-trace.csv",
                                            {"flow_id",
                                             "release_ns",
                                             "src",
                                             "dst",
                                             "bytes",
                                             "phase",
                                             "layer",
                                             "wait_groups",
                                             "gap_ns",
                                             "prio"},
                                            {},
                                            "",
                                            OutputFile::Merge::RANK_ZERO,
                                            0,
                                            nullptr,
                                            nullptr,
                                            90});
} // namespace

void
CollectiveStage::WriteInputs(RunOutput& out)
{
    if (m_moeStats && RdmaRanks::Rank() == 0)
    {
        // The generator's traffic as a replayable trace (ranks; hosts: moe_rank_hosts).
        m_trace->Write(out.Stream("moe-trace.csv"));
    }
    if (m_replay)
    {
        m_replay->DropRemoteFlows();
    }
}

void
CollectiveStage::WriteFiles(RunOutput& out) const
{
    if (m_replay)
    {
        m_replay->WriteCsv(out.Stream("collectives.csv"));
    }
}

std::vector<ScenarioKey>
CollectiveStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"traffic.moe.enabled", T::BOOL, false, 0, 0, {}, "", "MoE expert-parallel all-to-all: dispatch and combine of every layer (kind 'collective'; collectives.csv, moe-trace.csv)."},
        {"traffic.moe.preset", T::CHOICE, "deepseek_v3", 0, 0, {"deepseek_v3", "mixtral", "decode"}, "", "Defaults of the model keys below. deepseek_v3: EP64 = 8 nodes x 8 GPUs, 4096 tokens per GPU, top-8 of 256 experts, H 7168, at most 4 nodes per token, hierarchical; mixtral: EP8 = 8 nodes x 1 GPU, 4096 tokens, top-2 of 8, H 4096, flat; decode: EP64 = 8 x 8, 128 tokens, top-8 of 256, H 7168, flat, one message per token and expert."},
        {"traffic.moe.ranks", T::INT, nullptr, 2, 1e6, {}, "GPUs", "EP group size, one GPU (rank) per host. Default: the preset's."},
        {"traffic.moe.gpus_per_node", T::INT, nullptr, 1, 1024, {}, "GPUs", "Ranks per node (rank r is local rank r % gpus_per_node of node r / gpus_per_node). Default: the preset's."},
        {"traffic.moe.tokens_per_rank", T::INT, nullptr, 1, 1e8, {}, "tokens", "Tokens each rank routes per layer and micro-batch. Default: the preset's."},
        {"traffic.moe.hidden_size", T::INT, nullptr, 1, 1e6, {}, "", "Hidden size H. Default: the preset's."},
        {"traffic.moe.top_k", T::INT, nullptr, 1, 1024, {}, "experts", "Experts per token. Default: the preset's."},
        {"traffic.moe.experts", T::INT, nullptr, 1, 1e6, {}, "experts", "Routed experts, experts / ranks per rank (expert e on rank e / (experts / ranks)). Default: the preset's."},
        {"traffic.moe.max_nodes", T::INT, nullptr, 0, 1e6, {}, "nodes", "Node-limited routing: a token reaches at most this many nodes; 0 = no limit. Default: the preset's."},
        {"traffic.moe.exchange", T::CHOICE, nullptr, 0, 0, {"flat", "hierarchical"}, "", "flat: one copy per token and destination GPU; hierarchical (rail-aligned): one RDMA copy per token and destination node, to the GPU of the same local rank (the NVLink part is not modelled). Default: the preset's."},
        {"traffic.moe.granularity", T::CHOICE, nullptr, 0, 0, {"per_pair", "per_token"}, "", "per_pair: a phase's copies between two GPUs travel as messages_per_pair messages; per_token: one message per token and expert (flat) or node (hierarchical). Default: the preset's."},
        {"traffic.moe.dispatch_bytes_per_token", T::INT, nullptr, 1, 1e9, {}, "bytes", "Bytes of one dispatch copy. Default: FP8 with scales, H + 4H/128."},
        {"traffic.moe.combine_bytes_per_token", T::INT, nullptr, 1, 1e9, {}, "bytes", "Bytes of one combine copy. Default: BF16, 2H."},
        {"traffic.moe.skew", T::CHOICE, "uniform", 0, 0, {"uniform", "dirichlet"}, "", "Expert popularity: uniform, or drawn per layer from a symmetric Dirichlet(dirichlet_alpha) (summary.json: moe_expert_load_max_over_mean)."},
        {"traffic.moe.dirichlet_alpha", T::NUMBER, 1.0, 1e-3, 1e6, {}, "", "Dirichlet concentration: smaller = more skewed popularity."},
        {"traffic.moe.messages_per_pair", T::INT, 1, 1, 1024, {}, "", "per_pair: messages (each on its own QP unless traffic.collective_qps is per_pair) per GPU pair and phase."},
        {"traffic.moe.layers", T::INT, 1, 1, 10000, {}, "", "MoE layers."},
        {"traffic.moe.micro_batches", T::INT, 1, 1, 10000, {}, "", "Micro-batches; collectives.csv layer = micro_batch x layers + layer."},
        {"traffic.moe.overlap_micro_batches", T::BOOL, false, 0, 0, {}, "", "false: micro-batches one after the other; true: independent chains from time 0 (one's communication overlaps another's compute)."},
        {"traffic.moe.expert_compute_us", T::NUMBER, 0, 0, 1e9, {}, "us", "A GPU starts its combine this long after its dispatch completed (expert compute)."},
        {"traffic.moe.layer_compute_us", T::NUMBER, 0, 0, 1e9, {}, "us", "A GPU starts the next dispatch this long after its combine completed (attention, etc.)."},
        {"traffic.moe.placement", T::CHOICE, "linear", 0, 0, {"linear", "rail"}, "", "Ranks on hosts. linear: rank r on host r (a node's GPUs side by side); rail: local rank i of node n on the n-th host of rack i, so that rail-aligned exchanges stay under one ToR."},
        {"traffic.moe.rank_hosts", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Host of each rank (overrides placement); empty = placement."},
        {"traffic.moe.priority", T::INT, nullptr, 0, 7, {}, "", "Class of the MoE flows (default nic.data_priority)."},
        {"traffic.trace.csv", T::STRING, "", 0, 0, {}, "path", "Collective trace to replay: flow_id,release_ns,src,dst,bytes,phase,layer,wait_groups,gap_ns,prio (src, dst: ranks; wait_groups: phase:layer;...); a flow starts when its groups completed on its sending host, + gap_ns. Relative to the scenario file; empty = none."},
        {"traffic.trace.rank_hosts", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Host of each rank of the trace; empty = rank r on host r."},
        {"traffic.trace.priority", T::INT, nullptr, 0, 7, {}, "", "Class of trace flows with an empty prio (default nic.data_priority)."},
        {"traffic.collective_wait", T::CHOICE, "acknowledged", 0, 0, {"acknowledged", "delivered"}, "", "When a host counts a collective flow it receives as done (its groups complete with it): acknowledged, when the sender has its last byte acknowledged; delivered, when the last byte has arrived at the receiver, every byte before it too (as a GPU polling its buffer sees it). Runs over MPI ranks need delivered."},
        {"traffic.collective_qps", T::CHOICE, nullptr, 0, 0, {"per_flow", "per_pair"}, "", "QPs of collective flows (MoE, trace): one per flow, or one per host pair and class (messages in order). Default: per_pair for MoE per_token granularity, else per_flow."},
    };
    // clang-format on
}

void
CollectiveStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    if (Bool(s, "traffic.moe.enabled"))
    {
        const double ranks = Int(s, "traffic.moe.ranks");
        const double groups =
            2.0 * Int(s, "traffic.moe.layers") * Int(s, "traffic.moe.micro_batches");
        // per_pair: each rank sends to at most every other rank per phase; per_token: a
        // message per token and expert.
        const double n = Str(s, "traffic.moe.granularity") == "per_pair"
                             ? groups * ranks * std::max(1.0, ranks - 1) *
                                   Int(s, "traffic.moe.messages_per_pair")
                             : groups * ranks * Int(s, "traffic.moe.tokens_per_rank") *
                                   Int(s, "traffic.moe.top_k");
        const bool pairQps = Str(s, "traffic.collective_qps") == "per_pair";
        e.AddFlows(n, pairQps ? ranks * (ranks - 1) : n, "traffic.moe.layers", n);
    }
    const double rows = SizeGuard::DataLines(Str(s, "traffic.trace.csv"));
    e.AddFlows(rows, rows, "traffic.trace.csv", rows);
}

} // namespace ns3
