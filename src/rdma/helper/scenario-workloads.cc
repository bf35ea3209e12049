/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-workloads.h"

#include "ns3/cdf-workload-generator.h"
#include "ns3/incast-group-reader.h"
#include "ns3/log.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-topology.h"
#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioWorkloads");

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace
{
const json&
At(const json& s, const std::string& path)
{
    std::string p = "/" + path;
    std::replace(p.begin(), p.end(), '.', '/');
    return s.at(json::json_pointer(p));
}

void
Set(json& s, const std::string& path, const json& v)
{
    std::string p = "/" + path;
    std::replace(p.begin(), p.end(), '.', '/');
    s[json::json_pointer(p)] = v;
}

double
Num(const json& s, const std::string& path)
{
    return At(s, path).get<double>();
}

int64_t
Int(const json& s, const std::string& path)
{
    return At(s, path).get<int64_t>();
}

bool
Bool(const json& s, const std::string& path)
{
    return At(s, path).get<bool>();
}

std::string
Str(const json& s, const std::string& path)
{
    return At(s, path).get<std::string>();
}

Time
Us(double us)
{
    return NanoSeconds(static_cast<int64_t>(std::llround(us * 1000)));
}

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

const char* const kPathKeys[] = {"traffic.cdf.file", "traffic.incast_groups_csv"};
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
ScenarioWorkloads::ResolvePaths(json& s, const std::string& file)
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
ScenarioWorkloads::Resolve(json& s)
{
    if (At(s, "traffic.cdf.priority").is_null())
    {
        Set(s, "traffic.cdf.priority", Int(s, "nic.data_priority"));
    }
}

bool
ScenarioWorkloads::HasTraffic(const json& s)
{
    return Bool(s, "traffic.cdf.enabled") || !Str(s, "traffic.incast_groups_csv").empty();
}

void
ScenarioWorkloads::Check(const json& s, const std::string& file, uint32_t hosts)
{
    if (Int(s, "traffic.cdf.priority") == Int(s, "nic.control_priority"))
    {
        Fail(file, s, "traffic.cdf.priority", "must differ from nic.control_priority");
    }
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

ScenarioWorkloads::ScenarioWorkloads(const json& scenario)
    : m_scenario(scenario)
{
}

ScenarioWorkloads::~ScenarioWorkloads() = default;

void
ScenarioWorkloads::Prepare(uint32_t hosts)
{
    const json& s = m_scenario;
    if (Bool(s, "traffic.cdf.enabled"))
    {
        m_cdf = std::make_unique<CdfState>();
        m_cdf->cdf = FlowSizeCdf::Load(Str(s, "traffic.cdf.file"));
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
ScenarioWorkloads::AddTraffic(RdmaTopology& topo, TrafficDriver& driver, int64_t& stream)
{
    const json& s = m_scenario;
    const auto& hosts = topo.GetHosts();
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
}

} // namespace ns3
