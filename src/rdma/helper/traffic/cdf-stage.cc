/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/abort.h"
#include "ns3/cdf-workload-generator.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/topology-stage.h"
#include "ns3/traffic-stage.h"

#include <algorithm>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.cdf.*: Poisson flow arrivals with sizes from a flow-size CDF file
 * (CdfWorkloadGenerator) at a target load of the host links or of the ToR uplinks; the
 * CDF file is relative to the scenario file and read in Prepare. Owns the keys
 * traffic.cdf.* and writes into summary.json the measurement window (warmup_end_ns,
 * cooldown_start_ns: in every run, the whole run without a CDF workload) and the cdf_*
 * figures (flows, mean size, target and offered load).
 */
class CdfStage : public TrafficStage
{
  public:
    /// Make traffic.cdf.file absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// traffic.cdf.priority defaults to nic.data_priority.
    void Resolve(nlohmann::json& scenario, const std::string& file) const override;
    /// Priority, file, hosts, window and load checks. Throws ScenarioError.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioKey> Keys() const override;
    /// Flows and QPs: the Poisson arrivals at the target load.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    /// Read the CDF file (errors: file:line).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
    /// Generate and add the flows (one random stream) and record the offered load.
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;
    /// The measurement window, always; the cdf_* keys with a CDF workload.
    void Summarize(nlohmann::json& summary, Time end) const override;

  private:
    bool m_enabled = false;
    FlowSizeCdf m_cdf;
    std::string m_loadOf;
    uint64_t m_flows = 0;
    double m_targetLoad = 0;
    double m_offeredLoad = 0;
    double m_offeredHostLoad = 0;
    Time m_windowStart;
    Time m_windowEnd;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
// Its order among the sources fixes when it adds its flows (flow ids, streams).
const StageRegistration<TrafficStage, CdfStage> g_stage(60);
} // namespace

namespace
{
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
            return "an uplink load of " + std::to_string(load) + " needs host " +
                   std::to_string(g.senders[i]) + " to offer " +
                   std::to_string(g.senderBitRate[i] / hostRate[i]) + " of its own link";
        }
    }
    return "";
}
} // namespace

void
CdfStage::ResolvePaths(json& s, const std::string& file) const
{
    ResolvePathKey(s, "traffic.cdf.file", file);
}

void
CdfStage::Resolve(json& s, const std::string& /* file */) const
{
    if (At(s, "traffic.cdf.priority").is_null())
    {
        Set(s, "traffic.cdf.priority", Int(s, "nic.data_priority"));
    }
}

void
CdfStage::Check(const json& s, const std::string& file, uint32_t hosts) const
{
    if (Int(s, "traffic.cdf.priority") == Int(s, "nic.control_priority"))
    {
        FailKey(file, s, "traffic.cdf.priority", "must differ from nic.control_priority");
    }
    CheckFileKey(s, file, "traffic.cdf.file");
    if (!Enabled(s))
    {
        return;
    }
    if (Str(s, "traffic.cdf.file").empty())
    {
        FailKey(file,
                s,
                "traffic.cdf.file",
                "traffic.cdf.enabled needs a flow-size CDF file, e.g. "
                "scenarios/workloads/websearch.cdf");
    }
    CheckHostArray(s, file, "traffic.cdf.senders", hosts);
    CheckHostArray(s, file, "traffic.cdf.receivers", hosts);
    const double duration = Num(s, "traffic.cdf.duration_us");
    if (Num(s, "traffic.cdf.warmup_us") + Num(s, "traffic.cdf.cooldown_us") >= duration)
    {
        FailKey(file,
                s,
                "traffic.cdf.warmup_us",
                "warmup_us + cooldown_us must be shorter than duration_us");
    }
    const FabricShape shape = TopologyStage::ShapeOf(s);
    const bool oneRack = *std::max_element(shape.rackOf.begin(), shape.rackOf.end()) == 0;
    if (Str(s, "traffic.cdf.load_of") == "tor_uplinks" && oneRack)
    {
        FailKey(file,
                s,
                "traffic.cdf.load_of",
                "the topology (" + Str(s, "topology.type") + ") has a single rack, no ToR uplinks");
    }
    if (Str(s, "traffic.cdf.destinations") == "other_rack" && oneRack)
    {
        FailKey(file,
                s,
                "traffic.cdf.destinations",
                "the topology (" + Str(s, "topology.type") + ") has a single rack");
    }
    CdfWorkloadGenerator g;
    const std::string why = ConfigureCdf(s, shape, g);
    if (!why.empty())
    {
        FailKey(file, s, "traffic.cdf.load", why);
    }
    if ((Num(s, "traffic.cdf.start_us") + duration) / 1000 > Num(s, "stop_time_ms"))
    {
        FailKey(file, s, "traffic.cdf.duration_us", "flows would arrive after stop_time_ms");
    }
}

bool
CdfStage::Enabled(const json& s) const
{
    return Bool(s, "traffic.cdf.enabled");
}

void
CdfStage::Prepare(const json& s, uint32_t /* hosts */)
{
    m_enabled = Enabled(s);
    if (m_enabled)
    {
        m_cdf = FlowSizeCdf::Load(Str(s, "traffic.cdf.file"));
    }
}

void
CdfStage::AddTraffic(const json& s, RdmaTopology& topo, TrafficDriver& driver, int64_t& stream)
{
    const FabricShape shape = TopologyStage::ShapeOf(s);
    NS_ABORT_MSG_IF(shape.rackOf.size() != topo.GetHosts().size(),
                    "fabric shape and topology disagree");
    CdfWorkloadGenerator g;
    g.cdf = &m_cdf;
    const std::string why = ConfigureCdf(s, shape, g);
    NS_ABORT_MSG_IF(!why.empty(), why); // checked in Check()
    m_loadOf = Str(s, "traffic.cdf.load_of");
    const bool uplinks = m_loadOf == "tor_uplinks";
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
    m_flows = flows.size();
    m_targetLoad = Num(s, "traffic.cdf.load");
    m_offeredHostLoad = bytes * 8 / (hostCapacity * seconds);
    m_offeredLoad = uplinks ? leaving * 8 / (uplinkCapacity * seconds) : m_offeredHostLoad;
    m_windowStart = g.start + Us(Num(s, "traffic.cdf.warmup_us"));
    m_windowEnd = g.stop - Us(Num(s, "traffic.cdf.cooldown_us"));
}

void
CdfStage::Summarize(json& sum, Time end) const
{
    // The measurement window (analysis ignores flows that start outside it): written for
    // every run, the whole run unless a CDF workload narrows it.
    sum["warmup_end_ns"] = m_enabled ? m_windowStart.GetNanoSeconds() : 0;
    sum["cooldown_start_ns"] = m_enabled ? m_windowEnd.GetNanoSeconds() : end.GetNanoSeconds();
    if (m_enabled)
    {
        sum["cdf_flows"] = m_flows;
        sum["cdf_mean_flow_bytes"] = m_cdf.Mean();
        sum["cdf_load_of"] = m_loadOf;
        sum["cdf_target_load"] = m_targetLoad;
        sum["cdf_offered_load"] = m_offeredLoad;
        sum["cdf_offered_host_load"] = m_offeredHostLoad;
    }
}

std::vector<ScenarioKey>
CdfStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"traffic.cdf.enabled", T::BOOL, false, 0, 0, {}, "", "Background traffic: each sender starts flows as a Poisson process, sizes from a flow-size CDF (kind 'cdf' in fct.csv)."},
        {"traffic.cdf.file", T::STRING, "", 0, 0, {}, "path", "Flow-size CDF, lines 'size_bytes cdf_percent', relative to the scenario file; shipped: scenarios/workloads/{websearch,fb_hadoop,fb_hadoop2015_fine,alistorage2019,solar2022,googlerpc2008}.cdf."},
        {"traffic.cdf.load", T::NUMBER, 0.3, 1e-6, 1, {}, "fraction", "Target offered load: payload bits per second offered over the line rate of the links load_of names."},
        {"traffic.cdf.load_of", T::CHOICE, "host_links", 0, 0, {"host_links", "tor_uplinks"}, "", "host_links: each sender's own link; tor_uplinks: each rack's uplinks (the senders' rate follows from the oversubscription and the share of their flows that leave the rack)."},
        {"traffic.cdf.senders", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Sending hosts; empty = every host."},
        {"traffic.cdf.receivers", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Destination candidates; empty = every host."},
        {"traffic.cdf.destinations", T::CHOICE, "uniform", 0, 0, {"uniform", "other_rack"}, "", "Destination of each flow: uniform over the receivers other than the sender, or over those under another ToR."},
        {"traffic.cdf.start_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Start of the arrivals."},
        {"traffic.cdf.duration_us", T::NUMBER, 1000, 0.001, 1e9, {}, "us", "Flows arrive during [start, start + duration); the run goes on until they complete."},
        {"traffic.cdf.warmup_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Measurement window: flows starting in the first warmup_us are excluded (summary.json warmup_end_ns)."},
        {"traffic.cdf.cooldown_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Measurement window: flows starting in the last cooldown_us of the arrivals are excluded (summary.json cooldown_start_ns)."},
        {"traffic.cdf.priority", T::INT, nullptr, 0, 7, {}, "", "Class of the CDF flows (default nic.data_priority)."},
    };
    // clang-format on
}

void
CdfStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    if (!Enabled(s))
    {
        return;
    }
    // Poisson arrivals at the target load of each sender's link (an upper bound for
    // tor_uplinks, whose senders share their uplinks), from the CDF's mean size. A CDF
    // that cannot be read adds nothing: Check and Prepare report it.
    double mean = 0;
    try
    {
        mean = FlowSizeCdf::Load(Str(s, "traffic.cdf.file")).Mean();
    }
    catch (const ScenarioError&)
    {
        return;
    }
    const json& listed = At(s, "traffic.cdf.senders");
    const double senders = listed.empty() ? e.hosts : double(listed.size());
    const double bitsPerSender = Num(s, "traffic.cdf.load") * Num(s, "topology.host_rate_gbps") *
                                 1e9 * Num(s, "traffic.cdf.duration_us") * 1e-6;
    const double n = senders * bitsPerSender / (8 * std::max(1.0, mean)) + senders;
    e.AddFlows(n, n, "traffic.cdf.duration_us");
}

} // namespace ns3
