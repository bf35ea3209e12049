/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-workloads.h"

#include "ns3/abort.h"
#include "ns3/cdf-workload-generator.h"
#include "ns3/hpcc-flow-reader.h"
#include "ns3/incast-group-reader.h"
#include "ns3/log.h"
#include "ns3/run-output.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-topology.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioWorkloads");

using json = nlohmann::json;
namespace fs = std::filesystem;
using namespace scenario;

namespace
{
[[noreturn]] void
Fail(const std::string& file, const json& s, const std::string& key, const std::string& why)
{
    throw ScenarioError(file + ": key '" + key + "' has invalid value " + At(s, key).dump() + " (" + why + ")");
}

/// Host indices of an INT_ARRAY key, or all hosts if it is empty.
std::vector<uint32_t>
HostsOrAll(const json& s, const std::string& key, uint32_t hosts)
{
    std::vector<uint32_t> out;
    for (const json& v : At(s, key))
    {
        out.push_back(v.get<uint32_t>());
    }
    if (out.empty())
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            out.push_back(h);
        }
    }
    return out;
}

/// Hosts of an INT_ARRAY key: each in range and listed once.
void
CheckHostArray(const json& s, const std::string& file, const std::string& key, uint32_t hosts)
{
    std::set<int64_t> seen;
    for (const json& v : At(s, key))
    {
        if (v.get<int64_t>() >= hosts || !seen.insert(v.get<int64_t>()).second)
        {
            Fail(file, s, key, "each must be a distinct host in 0.." + std::to_string(hosts - 1));
        }
    }
}

/**
 * Set up \p g (everything but the CDF) from the traffic.cdf keys and the fabric's shape.
 * Returns "" or, if the load cannot be offered, why.
 */
std::string
ConfigureCdf(const json& s, const FabricShape& shape, CdfWorkloadGenerator& g)
{
    const uint32_t hosts = shape.rackOf.size();
    g.senders = HostsOrAll(s, "traffic.cdf.senders", hosts);
    g.receivers = HostsOrAll(s, "traffic.cdf.receivers", hosts);
    g.rackOf = shape.rackOf;
    g.destination = Str(s, "traffic.cdf.destinations") == "other_rack"
                        ? CdfWorkloadGenerator::Destination::OTHER_RACK
                        : CdfWorkloadGenerator::Destination::UNIFORM;
    g.start = Us(Num(s, "traffic.cdf.start_us"));
    g.stop = g.start + Us(Num(s, "traffic.cdf.duration_us"));
    g.priority = Int(s, "traffic.cdf.priority");
    const double load = Num(s, "traffic.cdf.load");
    std::vector<double> hostRate;
    for (uint32_t h : g.senders)
    {
        hostRate.push_back(shape.hostBitRate[h]);
    }
    if (Str(s, "traffic.cdf.load_of") == "host_links")
    {
        g.LoadOnHostLinks(load, hostRate);
        return "";
    }
    if (!g.LoadOnUplinks(load, shape.rackUplinkBitRate))
    {
        return "the senders of some rack have no destination outside it";
    }
    for (uint32_t i = 0; i < g.senders.size(); ++i)
    {
        if (g.senderBitRate[i] > hostRate[i] * (1 + 1e-9))
        {
            return "an uplink load of " + std::to_string(load) + " needs host " + std::to_string(g.senders[i]) +
                   " to offer " + std::to_string(g.senderBitRate[i] / hostRate[i]) + " of its own link";
        }
    }
    return "";
}

const char* const kPathKeys[] = {"traffic.cdf.file", "traffic.incast_groups_csv", "traffic.trace.csv",
                                 "traffic.hpcc_flow_file"};

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
    g.exchange = Str(s, "traffic.moe.exchange") == "hierarchical" ? MoeGenerator::Exchange::HIERARCHICAL
                                                                   : MoeGenerator::Exchange::FLAT;
    g.granularity = Str(s, "traffic.moe.granularity") == "per_token" ? MoeGenerator::Granularity::PER_TOKEN
                                                                      : MoeGenerator::Granularity::PER_PAIR;
    g.dispatchBytesPerToken = Int(s, "traffic.moe.dispatch_bytes_per_token");
    g.combineBytesPerToken = Int(s, "traffic.moe.combine_bytes_per_token");
    g.dirichletAlpha = Str(s, "traffic.moe.skew") == "dirichlet" ? Num(s, "traffic.moe.dirichlet_alpha") : 0.0;
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
            return "rank_hosts lists " + std::to_string(out.size()) + " hosts for " + std::to_string(ranks) + " ranks";
        }
        return "";
    }
    if (Str(s, "traffic.moe.placement") == "linear")
    {
        if (ranks > hosts)
        {
            return std::to_string(ranks) + " ranks need as many hosts, the topology has " + std::to_string(hosts);
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
            return "rail placement needs " + std::to_string(gpus) + " racks of at least " + std::to_string(nodes) +
                   " hosts (one rack per local rank)";
        }
        out.push_back(rackHosts[rack][n]);
    }
    return "";
}

} // namespace

struct ScenarioWorkloads::CdfState
{
    FlowSizeCdf cdf;
    uint64_t flows = 0;
    double targetLoad = 0;
    double offeredLoad = 0;
    double offeredHostLoad = 0;
    Time windowStart;
    Time windowEnd;
};

void
ScenarioWorkloads::ResolvePaths(json& s, const std::string& file) const
{
    for (const char* key : kPathKeys)
    {
        const std::string path = Str(s, key);
        if (!path.empty() && fs::path(path).is_relative())
        {
            Set(s, key, fs::absolute(fs::path(file).parent_path() / path).lexically_normal().string());
        }
    }
}

void
ScenarioWorkloads::Resolve(json& s, const std::string& /* file */) const
{
    for (const char* key : {"traffic.cdf.priority", "traffic.moe.priority", "traffic.trace.priority"})
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
    fill("traffic.moe.exchange", preset.exchange == MoeGenerator::Exchange::HIERARCHICAL ? "hierarchical" : "flat");
    fill("traffic.moe.granularity", preset.granularity == MoeGenerator::Granularity::PER_TOKEN ? "per_token" : "per_pair");
    const uint64_t hidden = Int(s, "traffic.moe.hidden_size");
    preset.hidden = hidden;
    fill("traffic.moe.dispatch_bytes_per_token", preset.DispatchBytes());
    fill("traffic.moe.combine_bytes_per_token", preset.CombineBytes());
    fill("traffic.collective_qps",
         Bool(s, "traffic.moe.enabled") && Str(s, "traffic.moe.granularity") == "per_token" ? "per_pair" : "per_flow");
}

bool
ScenarioWorkloads::Enabled(const json& s) const
{
    return Bool(s, "traffic.cdf.enabled") || !Str(s, "traffic.incast_groups_csv").empty() ||
           Bool(s, "traffic.moe.enabled") || !Str(s, "traffic.trace.csv").empty() ||
           !Str(s, "traffic.hpcc_flow_file").empty();
}

void
ScenarioWorkloads::Check(const json& s, const std::string& file, uint32_t hosts) const
{
    for (const char* key : {"traffic.cdf.priority", "traffic.moe.priority", "traffic.trace.priority"})
    {
        if (Int(s, key) == Int(s, "nic.control_priority"))
        {
            Fail(file, s, key, "must differ from nic.control_priority");
        }
    }
    if (Bool(s, "traffic.moe.enabled"))
    {
        if (!Str(s, "traffic.trace.csv").empty())
        {
            Fail(file, s, "traffic.trace.csv", "a run replays either the MoE generator's traffic or a trace, not both");
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
            Fail(file, s, At(s, "traffic.moe.rank_hosts").empty() ? "traffic.moe.placement" : "traffic.moe.rank_hosts", bad);
        }
        CheckHostArray(s, file, "traffic.moe.rank_hosts", hosts);
    }
    CheckHostArray(s, file, "traffic.trace.rank_hosts", hosts);
    for (const char* key : kPathKeys)
    {
        const std::string path = Str(s, key);
        if (!path.empty() && !fs::exists(path))
        {
            Fail(file, s, key, "no such file");
        }
    }
    if (Bool(s, "traffic.cdf.enabled"))
    {
        if (Str(s, "traffic.cdf.file").empty())
        {
            Fail(file, s, "traffic.cdf.file", "traffic.cdf.enabled needs a flow-size CDF file, e.g. scenarios/workloads/websearch.cdf");
        }
        CheckHostArray(s, file, "traffic.cdf.senders", hosts);
        CheckHostArray(s, file, "traffic.cdf.receivers", hosts);
        const double duration = Num(s, "traffic.cdf.duration_us");
        if (Num(s, "traffic.cdf.warmup_us") + Num(s, "traffic.cdf.cooldown_us") >= duration)
        {
            Fail(file, s, "traffic.cdf.warmup_us", "warmup_us + cooldown_us must be shorter than duration_us");
        }
        const FabricShape shape = ScenarioTopology::Shape(s);
        const bool oneRack = *std::max_element(shape.rackOf.begin(), shape.rackOf.end()) == 0;
        if (Str(s, "traffic.cdf.load_of") == "tor_uplinks" && oneRack)
        {
            Fail(file, s, "traffic.cdf.load_of", "the topology (" + Str(s, "topology.type") + ") has a single rack, no ToR uplinks");
        }
        if (Str(s, "traffic.cdf.destinations") == "other_rack" && oneRack)
        {
            Fail(file, s, "traffic.cdf.destinations", "the topology (" + Str(s, "topology.type") + ") has a single rack");
        }
        CdfWorkloadGenerator g;
        const std::string why = ConfigureCdf(s, shape, g);
        if (!why.empty())
        {
            Fail(file, s, "traffic.cdf.load", why);
        }
        if ((Num(s, "traffic.cdf.start_us") + duration) / 1000 > Num(s, "stop_time_ms"))
        {
            Fail(file, s, "traffic.cdf.duration_us", "flows would arrive after stop_time_ms");
        }
    }
}

ScenarioWorkloads::ScenarioWorkloads() = default;

ScenarioWorkloads::~ScenarioWorkloads() = default;

void
ScenarioWorkloads::Prepare(const json& scenario, uint32_t hosts)
{
    m_scenario = scenario;
    const json& s = m_scenario;
    if (Bool(s, "traffic.cdf.enabled"))
    {
        m_cdf = std::make_unique<CdfState>();
        m_cdf->cdf = FlowSizeCdf::Load(Str(s, "traffic.cdf.file"));
    }
    const std::string trace = Str(s, "traffic.trace.csv");
    if (!trace.empty())
    {
        m_rankHosts.clear();
        for (const json& v : At(s, "traffic.trace.rank_hosts"))
        {
            m_rankHosts.push_back(v.get<uint32_t>());
        }
        if (m_rankHosts.empty())
        {
            for (uint32_t h = 0; h < hosts; ++h)
            {
                m_rankHosts.push_back(h);
            }
        }
        m_trace = std::make_unique<CollectiveTrace>(CollectiveTrace::Read(trace, m_rankHosts.size()));
        for (const TraceFlow& f : m_trace->flows)
        {
            if (m_rankHosts[f.src] == m_rankHosts[f.dst])
            {
                throw ScenarioError(trace + ": flow " + std::to_string(f.flowId) + " joins ranks " + std::to_string(f.src) +
                                    " and " + std::to_string(f.dst) + ", which traffic.trace.rank_hosts puts on one host");
            }
            if (f.priority == Int(s, "nic.control_priority"))
            {
                throw ScenarioError(trace + ": flow " + std::to_string(f.flowId) + " uses priority " +
                                    std::to_string(f.priority) + ", the control class (nic.control_priority)");
            }
        }
    }
    const std::string hpcc = Str(s, "traffic.hpcc_flow_file");
    if (!hpcc.empty())
    {
        m_hpccFlows = HpccFlowReader::Read(hpcc, hosts, ScenarioTopology::HostIndexOfHpccNode(s));
        for (const FlowSpec& f : m_hpccFlows)
        {
            if (f.priority == Int(s, "nic.control_priority"))
            {
                throw ScenarioError(hpcc + ": a flow uses priority " + std::to_string(f.priority) +
                                    ", the control class (nic.control_priority)");
            }
        }
    }
    const std::string groups = Str(s, "traffic.incast_groups_csv");
    if (!groups.empty())
    {
        m_groups = IncastGroupReader::Read(groups, hosts, Int(s, "nic.data_priority"));
        for (const IncastGenerator& g : m_groups)
        {
            if (g.priority == Int(s, "nic.control_priority"))
            {
                throw ScenarioError(groups + ": a group uses priority " + std::to_string(g.priority) +
                                    ", the control class (nic.control_priority)");
            }
            if (g.until > Us(Num(s, "stop_time_ms") * 1000))
            {
                throw ScenarioError(groups + ": a group leaves at " +
                                    std::to_string(g.until.GetMicroSeconds()) +
                                    " us, after stop_time_ms");
            }
        }
    }
}

void
ScenarioWorkloads::AddTraffic(const json& /* scenario: as prepared */,
                              RdmaTopology& topo,
                              TrafficDriver& driver,
                              int64_t& stream)
{
    const json& s = m_scenario;
    const auto& hosts = topo.GetHosts();
    for (const FlowSpec& f : m_hpccFlows)
    {
        driver.AddFlow(f);
    }
    for (const IncastGenerator& g : m_groups)
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(stream++);
        for (const FlowSpec& f : g.Generate(rng))
        {
            driver.AddFlow(f);
        }
    }
    if (m_cdf)
    {
        const FabricShape shape = ScenarioTopology::Shape(s);
        NS_ABORT_MSG_IF(shape.rackOf.size() != hosts.size(), "fabric shape and topology disagree");
        CdfWorkloadGenerator g;
        g.cdf = &m_cdf->cdf;
        const std::string why = ConfigureCdf(s, shape, g);
        NS_ABORT_MSG_IF(!why.empty(), why); // checked in Check()
        const bool uplinks = Str(s, "traffic.cdf.load_of") == "tor_uplinks";
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(stream++);
        const std::vector<FlowSpec> flows = g.Generate(rng);
        // The offered load actually generated, over the links the target refers to.
        const double seconds = (g.stop - g.start).GetSeconds();
        double bytes = 0;
        double leaving = 0;
        for (const FlowSpec& f : flows)
        {
            bytes += double(f.bytes);
            if (g.rackOf[f.src] != g.rackOf[f.dst])
            {
                leaving += double(f.bytes);
            }
            driver.AddFlow(f);
        }
        double hostCapacity = 0;
        for (uint32_t h : g.senders)
        {
            hostCapacity += shape.hostBitRate[h];
        }
        std::set<uint32_t> senderRacks;
        for (uint32_t h : g.senders)
        {
            senderRacks.insert(g.rackOf[h]);
        }
        double uplinkCapacity = 0;
        for (uint32_t r : senderRacks)
        {
            uplinkCapacity += shape.rackUplinkBitRate[r];
        }
        m_cdf->flows = flows.size();
        m_cdf->targetLoad = Num(s, "traffic.cdf.load");
        m_cdf->offeredHostLoad = bytes * 8 / (hostCapacity * seconds);
        m_cdf->offeredLoad = uplinks ? leaving * 8 / (uplinkCapacity * seconds) : m_cdf->offeredHostLoad;
        m_cdf->windowStart = g.start + Us(Num(s, "traffic.cdf.warmup_us"));
        m_cdf->windowEnd = g.stop - Us(Num(s, "traffic.cdf.cooldown_us"));
    }
    if (Bool(s, "traffic.moe.enabled"))
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
    if (m_trace)
    {
        const uint8_t priority = Int(s, Bool(s, "traffic.moe.enabled") ? "traffic.moe.priority" : "traffic.trace.priority");
        m_replay = std::make_unique<CollectiveReplay>(driver, *m_trace, m_rankHosts, priority,
                                                      Str(s, "traffic.collective_qps") == "per_pair");
        m_replay->Start();
    }
}

void
ScenarioWorkloads::Summarize(json& sum, Time end) const
{
    // The measurement window: analysis ignores flows that start outside it.
    sum["warmup_end_ns"] = m_cdf ? m_cdf->windowStart.GetNanoSeconds() : 0;
    sum["cooldown_start_ns"] = m_cdf ? m_cdf->windowEnd.GetNanoSeconds() : end.GetNanoSeconds();
    if (m_cdf)
    {
        sum["cdf_flows"] = m_cdf->flows;
        sum["cdf_mean_flow_bytes"] = m_cdf->cdf.Mean();
        sum["cdf_load_of"] = Str(m_scenario, "traffic.cdf.load_of");
        sum["cdf_target_load"] = m_cdf->targetLoad;
        sum["cdf_offered_load"] = m_cdf->offeredLoad;
        sum["cdf_offered_host_load"] = m_cdf->offeredHostLoad;
    }
    if (!m_groups.empty())
    {
        sum["incast_groups"] = m_groups.size();
    }
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
ScenarioWorkloads::WriteFiles(RunOutput& out) const
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
