/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-runner.h"

#include "ns3/adaptive-load-balancer.h"
#include "ns3/boolean.h"
#include "ns3/ecmp-load-balancer.h"
#include "ns3/flowlet-load-balancer.h"
#include "ns3/permutation-generator.h"
#include "ns3/spray-load-balancer.h"
#include "ns3/uplink-meter.h"
#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/flow-csv-reader.h"
#include "ns3/incast-generator.h"
#include "ns3/int-hop.h"
#include "ns3/integer.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/log.h"
#include "ns3/no-congestion-control.h"
#include "ns3/cc-registry.h"
#include "ns3/cc-sampler.h"
#include "ns3/port-sampler.h"
#include "ns3/queue-sampler.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/run-output.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-schema.h"
#include "ns3/scenario-topology.h"
#include "ns3/scenario-workloads.h"
#include "ns3/simulator.h"
#include "ns3/star-helper.h"
#include "ns3/string.h"
#include "ns3/traffic-driver.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sys/resource.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRunner");

using json = nlohmann::json;
namespace fs = std::filesystem;
using namespace scenario;

namespace
{
/// The loss-recovery policy nic.loss_recovery names, with the nic.* keys that apply to it.
ObjectFactory
LossRecoveryFactory(const nlohmann::json& s)
{
    const std::string name = Str(s, "nic.loss_recovery");
    ObjectFactory f(name == "selective_repeat"   ? "ns3::SelectiveRepeat"
                    : name == "direct_placement" ? "ns3::DirectPlacement"
                                                 : "ns3::GoBackN");
    f.Set("RetransmissionTimeout", TimeValue(Us(Num(s, "nic.rto_us"))));
    if (name == "selective_repeat")
    {
        f.Set("RtoLow", TimeValue(Us(Num(s, "nic.rto_low_us"))));
        f.Set("RtoHigh", TimeValue(Us(Num(s, "nic.rto_high_us"))));
        f.Set("RtoLowThreshold", UintegerValue(Int(s, "nic.rto_low_threshold")));
    }
    else if (name != "direct_placement")
    {
        f.Set("NackInterval", TimeValue(Us(Num(s, "nic.nack_interval_us"))));
    }
    return f;
}

/// Receives the simulation's records and writes fct.csv / pfc.csv rows.
class Recorder
{
  public:
    Recorder(std::ostream& fct, std::ostream& pfc)
        : m_fct(fct),
          m_pfc(pfc)
    {
        m_fct << "flow_id,kind,src,dst,qp,prio,size_bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,"
                 "slowdown\n";
        m_pfc << "time_ns,node,port,prio,event\n";
    }

    void OnRecord(const TrafficDriver::Record& r)
    {
        const int64_t fct = (r.end - r.start).GetNanoSeconds();
        const int64_t ideal = r.ideal.GetNanoSeconds();
        m_fct << r.flowId << ',' << FlowKindName(r.kind) << ',' << r.src << ',' << r.dst << ','
              << r.qpn << ',' << +r.priority << ',' << r.bytes << ','
              << r.start.GetNanoSeconds() << ',' << r.end.GetNanoSeconds() << ',' << fct << ','
              << ideal << ',' << std::setprecision(6)
              << (ideal > 0 ? double(fct) / double(ideal) : 0.0) << '\n';
        if (r.kind == FlowKind::PROBE)
        {
            m_probeFct.push_back(fct);
        }
    }

    void OnPfc(uint32_t node, uint32_t port, uint8_t prio, uint8_t event)
    {
        static const char* names[] = {"pause", "refresh", "resume"};
        m_pfc << Simulator::Now().GetNanoSeconds() << ',' << node << ',' << port << ','
              << +prio << ',' << names[event] << '\n';
    }

    std::vector<int64_t> m_probeFct;

  private:
    std::ostream& m_fct;
    std::ostream& m_pfc;
};

/// Periodic progress line on stderr (simulated time, percent, events per second).
class Progress
{
  public:
    Progress(Time stop, const TrafficDriver& driver, bool enabled)
        : m_stop(stop),
          m_driver(driver),
          m_enabled(enabled),
          m_start(std::chrono::steady_clock::now()),
          m_lastPrint(m_start),
          m_lastEvents(0)
    {
    }

    void Start()
    {
        if (m_enabled)
        {
            m_event = Simulator::Schedule(Check(), &Progress::Tick, this);
        }
    }

    void Stop()
    {
        m_event.Cancel();
    }

  private:
    Time Check() const
    {
        return std::max(m_stop / 2000, MicroSeconds(5));
    }

    void Tick()
    {
        const auto now = std::chrono::steady_clock::now();
        const double since = std::chrono::duration<double>(now - m_lastPrint).count();
        if (since >= 2.0)
        {
            const uint64_t events = Simulator::GetEventCount();
            std::cerr << "[rdma] sim " << std::fixed << std::setprecision(3)
                      << Simulator::Now().GetSeconds() * 1e3 << " ms ("
                      << std::setprecision(1) << 100.0 * Simulator::Now().GetSeconds() / m_stop.GetSeconds()
                      << "% of stop time), flows " << m_driver.GetFlowsCompleted() << "/"
                      << m_driver.GetFlowsTotal() << ", " << std::setprecision(2)
                      << (events - m_lastEvents) / since / 1e6 << " M events/s\n";
            m_lastPrint = now;
            m_lastEvents = events;
        }
        m_event = Simulator::Schedule(Check(), &Progress::Tick, this);
    }

    Time m_stop;
    const TrafficDriver& m_driver;
    bool m_enabled;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastPrint;
    uint64_t m_lastEvents;
    EventId m_event;
};

double
Percentile(std::vector<int64_t> v, double q)
{
    if (v.empty())
    {
        return 0;
    }
    // Nearest-rank percentile.
    std::sort(v.begin(), v.end());
    const double rank = std::ceil(q * double(v.size()));
    const std::size_t i = rank < 1 ? 0 : std::min(v.size(), std::size_t(rank)) - 1;
    return double(v[i]);
}
} // namespace

// ------------------------------------------------------------------ loading

json
ScenarioRunner::Load(const std::string& file, const std::vector<std::string>& overrides)
{
    std::ifstream in(file);
    if (!in)
    {
        throw ScenarioError(file + ": cannot open scenario file");
    }
    json user;
    try
    {
        user = json::parse(in);
    }
    catch (const json::parse_error& e)
    {
        throw ScenarioError(file + ": not valid JSON: " + e.what());
    }
    json s = ScenarioSchema::Validate(user, file);
    for (const std::string& o : overrides)
    {
        ScenarioSchema::ApplyOverride(s, o);
    }
    if (Str(s, "name").empty())
    {
        Set(s, "name", fs::path(file).stem().string());
    }
    // A flow list is relative to the scenario file; config.json keeps it absolute.
    const std::string csv = Str(s, "traffic.flows_csv");
    if (!csv.empty() && fs::path(csv).is_relative())
    {
        Set(s, "traffic.flows_csv", fs::absolute(fs::path(file).parent_path() / csv).lexically_normal().string());
    }
    ScenarioWorkloads::ResolvePaths(s, file);
    ScenarioTopology::ResolvePaths(s, file);
    Resolve(s, file);
    Check(s, file);
    return s;
}

void
ScenarioRunner::Resolve(json& s, const std::string& file)
{
    const std::string algorithm = Str(s, "cc.algorithm");
    const CcRegistry::Algorithm* alg = CcRegistry::Find(algorithm);
    if (!alg)
    {
        throw ScenarioError(file + ": key 'cc.algorithm' has an unknown value");
    }
    // Every parameter of the chosen algorithm gets a value: the user's, else the one its
    // controller takes at Init for the host rate (a preset's, else the default).
    const CcRegistry::Resolved cc =
        CcRegistry::Resolve(algorithm,
                            ScenarioSchema::CcParameters(s, algorithm),
                            Gbps(Num(s, "topology.host_rate_gbps")).GetBitRate());
    ScenarioSchema::RecordCcParameters(s, algorithm, cc.parameters);
    if (At(s, "nic.cnp_interval_us").is_null())
    {
        const Time cnp = cc.controller->GetCnpInterval();
        Set(s,
            "nic.cnp_interval_us",
            cnp.IsStrictlyPositive() ? cnp.GetNanoSeconds() / 1000.0 : 4.0);
    }
    auto fill = [&](const std::string& key, const json& v) {
        if (At(s, key).is_null())
        {
            Set(s, key, v);
        }
    };
    fill("traffic.incast.priority", Int(s, "nic.data_priority"));
    fill("traffic.probe.priority", Int(s, "nic.data_priority"));
    ScenarioWorkloads::Resolve(s);
}

uint32_t
ScenarioRunner::HostCount(const json& s)
{
    if (ScenarioTopology::Handles(s))
    {
        return ScenarioTopology::HostCount(s);
    }
    if (Str(s, "topology.type") == "star")
    {
        return Int(s, "topology.hosts");
    }
    return Int(s, "topology.leaves") * Int(s, "topology.hosts_per_leaf");
}

void
ScenarioRunner::Check(const json& s, const std::string& file)
{
    ScenarioTopology::Check(s, file);
    const uint32_t hosts = HostCount(s);
    auto fail = [&](const std::string& key, const json& v, const std::string& why) {
        throw ScenarioError(file + ": key '" + key + "' has invalid value " + v.dump() + " (" +
                            why + ")");
    };
    auto hostKey = [&](const std::string& key) {
        if (Int(s, key) >= hosts)
        {
            fail(key, At(s, key), "the topology has " + std::to_string(hosts) + " hosts: 0.." + std::to_string(hosts - 1));
        }
    };
    const int64_t control = Int(s, "nic.control_priority");
    for (const char* key : {"nic.data_priority", "traffic.incast.priority", "traffic.probe.priority"})
    {
        if (Int(s, key) == control)
        {
            fail(key, At(s, key), "must differ from nic.control_priority");
        }
    }
    if (Num(s, "switch.ecn.kmin_kb") > Num(s, "switch.ecn.kmax_kb"))
    {
        fail("switch.ecn.kmin_kb", At(s, "switch.ecn.kmin_kb"), "must not exceed switch.ecn.kmax_kb");
    }
    // Controllers that read INT need every link rate to be one an INT record can carry.
    ObjectFactory ccFactory;
    ccFactory.SetTypeId(CcRegistry::Find(Str(s, "cc.algorithm"))->tid);
    if (ccFactory.Create<CongestionControl>()->NeedsInt())
    {
        for (const char* key : {"topology.host_rate_gbps", "topology.fabric_rate_gbps"})
        {
            if (!IntHop::IsEncodableRate(Gbps(Num(s, key)).GetBitRate()))
            {
                fail(key, At(s, key), Str(s, "cc.algorithm") + " uses INT, whose records carry 10, 25, 40, 50, 100, 200, 400 or 800 Gb/s");
            }
        }
    }
    const bool incast = Bool(s, "traffic.incast.enabled");
    const bool probe = Bool(s, "traffic.probe.enabled");
    if (incast)
    {
        hostKey("traffic.incast.receiver");
        const int64_t receiver = Int(s, "traffic.incast.receiver");
        std::set<int64_t> seen;
        for (const json& v : At(s, "traffic.incast.senders"))
        {
            const int64_t h = v.get<int64_t>();
            if (h >= hosts || h == receiver || !seen.insert(h).second)
            {
                fail("traffic.incast.senders", At(s, "traffic.incast.senders"),
                     "each sender must be a distinct host in 0.." + std::to_string(hosts - 1) + " other than the receiver");
            }
        }
        const double until = Num(s, "traffic.incast.until_ms");
        if (until > 0 && until > Num(s, "stop_time_ms"))
        {
            fail("traffic.incast.until_ms", At(s, "traffic.incast.until_ms"), "must not exceed stop_time_ms");
        }
    }
    if (probe)
    {
        hostKey("traffic.probe.src");
        hostKey("traffic.probe.dst");
        if (Int(s, "traffic.probe.src") == Int(s, "traffic.probe.dst"))
        {
            fail("traffic.probe.dst", At(s, "traffic.probe.dst"), "must differ from traffic.probe.src");
        }
    }
    const std::string csv = Str(s, "traffic.flows_csv");
    if (!csv.empty() && !fs::exists(csv))
    {
        fail("traffic.flows_csv", At(s, "traffic.flows_csv"), "no such file");
    }
    const bool permutation = Bool(s, "traffic.permutation.enabled");
    if (permutation && Str(s, "topology.type") == "leaf_spine" && Int(s, "topology.leaves") < 2)
    {
        fail("traffic.permutation.enabled", true, "a leaf-spine permutation needs at least 2 leaves");
    }
    ScenarioWorkloads::Check(s, file, hosts);
    if (!incast && !probe && !permutation && csv.empty() && !ScenarioWorkloads::HasTraffic(s))
    {
        throw ScenarioError(file + ": no traffic: enable traffic.incast or traffic.probe, or set traffic.flows_csv");
    }
}

// ------------------------------------------------------------------ running

ScenarioRunner::ScenarioRunner(json scenario)
    : m_scenario(std::move(scenario)),
      m_prepared(false)
{
}

void
ScenarioRunner::Prepare()
{
    const std::string csv = Str(m_scenario, "traffic.flows_csv");
    if (!csv.empty())
    {
        m_csvFlows = FlowCsvReader::Read(csv, HostCount(m_scenario), Int(m_scenario, "nic.data_priority"));
        const int64_t control = Int(m_scenario, "nic.control_priority");
        for (const FlowSpec& f : m_csvFlows)
        {
            if (f.priority == control)
            {
                throw ScenarioError(csv + ": a flow uses priority " + std::to_string(control) +
                                    ", the control class (nic.control_priority)");
            }
        }
    }
    m_workloads = std::make_unique<ScenarioWorkloads>(m_scenario);
    m_workloads->Prepare(HostCount(m_scenario));
    m_prepared = true;
}

json
ScenarioRunner::Run(const std::string& outDir, bool quiet)
{
    if (!m_prepared)
    {
        Prepare();
    }
    const json& s = m_scenario;
    const uint32_t seed = static_cast<uint32_t>(Int(s, "seed"));
    RngSeedManager::SetSeed(std::max<uint32_t>(seed, 1));
    RngSeedManager::SetRun(seed + 1);

    // ---- fabric
    RdmaTopology topo;
    const uint8_t control = Int(s, "nic.control_priority");
    topo.SetDeviceAttribute("StrictPriority", UintegerValue(control));
    topo.SetNicAttribute("Mtu", UintegerValue(Int(s, "nic.mtu_bytes")));
    topo.SetNicAttribute("AckInterval", UintegerValue(Int(s, "nic.ack_interval")));
    topo.SetNicAttribute("CnpInterval", TimeValue(Us(Num(s, "nic.cnp_interval_us"))));
    topo.SetNicAttribute("Window", UintegerValue(Int(s, "nic.window_bytes")));
    topo.SetNicAttribute("EcnCapable", BooleanValue(Bool(s, "nic.ecn_capable")));
    const bool selective = Str(s, "nic.loss_recovery") == "selective_repeat";
    topo.SetLossRecovery(LossRecoveryFactory(s));
    topo.SetNicAttribute("CnpOnOutOfOrder", BooleanValue(Bool(s, "nic.cnp_on_out_of_order")));
    topo.SetNicAttribute("RateLimitPerDestination", BooleanValue(Str(s, "nic.rate_limit") == "per_destination"));
    topo.SetNicAttribute("ProbeTimeout", TimeValue(Us(Num(s, "nic.probe_timeout_us"))));
    topo.SetNicAttribute("ProbeRequestPriority", IntegerValue(Int(s, "nic.probe_request_priority")));
    topo.SetNicAttribute("ProbeResponsePriority", IntegerValue(Int(s, "nic.probe_response_priority")));
    topo.SetMmuAttribute("BufferSize", UintegerValue(static_cast<uint64_t>(Num(s, "switch.buffer_mb") * 1024 * 1024)));
    topo.SetMmuAttribute("PfcEnabled", BooleanValue(Bool(s, "switch.pfc.enabled")));
    topo.SetMmuAttribute("DynamicXoff", BooleanValue(Bool(s, "switch.pfc.dynamic_xoff")));
    topo.SetMmuAttribute("StaticXoff", UintegerValue(static_cast<uint64_t>(Num(s, "switch.pfc.static_xoff_kb") * 1024)));
    topo.SetMmuAttribute("PfcAlpha", DoubleValue(Num(s, "switch.pfc.alpha")));
    topo.SetMmuAttribute("XonDelta", UintegerValue(static_cast<uint64_t>(Num(s, "switch.pfc.xon_delta_kb") * 1024)));
    topo.SetMmuAttribute("EgressAlpha", DoubleValue(Num(s, "switch.lossy_alpha")));
    topo.SetMmuAttribute("LosslessClasses", UintegerValue(0xffu & ~(1u << control)));
    topo.SetMmuAttribute("EcnEnabled", BooleanValue(Bool(s, "switch.ecn.enabled")));
    topo.SetMmuAttribute("Kmin", UintegerValue(static_cast<uint64_t>(Num(s, "switch.ecn.kmin_kb") * 1024)));
    topo.SetMmuAttribute("Kmax", UintegerValue(static_cast<uint64_t>(Num(s, "switch.ecn.kmax_kb") * 1024)));
    topo.SetMmuAttribute("Pmax", DoubleValue(Num(s, "switch.ecn.pmax")));
    topo.SetSwitchAttribute("PauseQuanta", UintegerValue(Int(s, "switch.pfc.pause_quanta")));
    topo.SetMmuAttribute("EcnScaleWithRate", BooleanValue(Bool(s, "switch.ecn.scale_with_rate")));
    topo.SetEcmpSaltPerSwitch(Bool(s, "routing.ecmp_salt_per_switch"), seed);
    ObjectFactory lb;
    const std::string balancer = Str(s, "routing.load_balancer");
    if (balancer == "spray")
    {
        lb.SetTypeId(SprayLoadBalancer::GetTypeId());
        lb.Set("Mode", StringValue(Str(s, "routing.spray_mode") == "random" ? "Random" : "RoundRobin"));
    }
    else if (balancer == "adaptive")
    {
        lb.SetTypeId(AdaptiveLoadBalancer::GetTypeId());
        lb.Set("PausedAsFull", BooleanValue(Bool(s, "routing.adaptive_paused_as_full")));
    }
    else if (balancer == "flowlet")
    {
        lb.SetTypeId(FlowletLoadBalancer::GetTypeId());
        lb.Set("Gap", TimeValue(Us(Num(s, "routing.flowlet_gap_us"))));
    }
    else
    {
        lb.SetTypeId(EcmpLoadBalancer::GetTypeId());
    }
    topo.SetLoadBalancer(lb);
    topo.SetNicAttribute("EntropyChangePackets", UintegerValue(Int(s, "nic.entropy_change_packets")));

    ObjectFactory cc;
    const std::string algorithm = Str(s, "cc.algorithm");
    cc.SetTypeId(CcRegistry::Find(algorithm)->tid);
    for (const auto& info : CcRegistry::Attributes(cc.GetTypeId()))
    {
        cc.Set(info.name, StringValue(s["cc"][algorithm][info.name].get<std::string>()));
    }
    topo.SetCongestionControl(cc);

    if (Str(s, "topology.type") == "star")
    {
        StarHelper star;
        star.hosts = Int(s, "topology.hosts");
        star.hostRate = Gbps(Num(s, "topology.host_rate_gbps"));
        star.hostDelay = Us(Num(s, "topology.host_delay_us"));
        star.Build(topo);
    }
    else if (ScenarioTopology::Handles(s))
    {
        ScenarioTopology::Build(s, topo);
    }
    else
    {
        LeafSpineHelper ls;
        ls.leaves = Int(s, "topology.leaves");
        ls.spines = Int(s, "topology.spines");
        ls.hostsPerLeaf = Int(s, "topology.hosts_per_leaf");
        ls.linksPerSpine = Int(s, "topology.links_per_spine");
        ls.hostRate = Gbps(Num(s, "topology.host_rate_gbps"));
        ls.hostDelay = Us(Num(s, "topology.host_delay_us"));
        ls.fabricRate = Gbps(Num(s, "topology.fabric_rate_gbps"));
        ls.fabricDelay = Us(Num(s, "topology.fabric_delay_us"));
        ls.Build(topo);
    }
    topo.Finalize();
    // IRN's BDP-FC: at most ceil(BDP / MTU) packets in flight, BDP of the longest path.
    int64_t cap = Int(s, "nic.inflight_cap_packets");
    if (cap < 0)
    {
        const double bdp = Gbps(Num(s, "topology.host_rate_gbps")).GetBitRate() / 8.0 *
                           topo.GetMaxBaseRtt().GetSeconds();
        cap = selective ? static_cast<int64_t>(std::ceil(bdp / Int(s, "nic.mtu_bytes"))) : 0;
    }
    for (uint32_t h : topo.GetHosts())
    {
        topo.GetNic(h)->SetAttribute("InflightCap", UintegerValue(cap));
    }
    int64_t stream = 0;
    for (uint32_t sw : topo.GetSwitches())
    {
        stream += topo.GetSwitch(sw)->GetMmu()->AssignStreams(stream);
        stream += topo.GetSwitch(sw)->GetLoadBalancer()->AssignStreams(stream);
    }

    // Link events name existing links; checked before anything is written, scheduled
    // once the clock has started (below).
    struct LinkEvent
    {
        Time at;
        int32_t link;
        std::string action;
        double rateGbps;
    };
    std::vector<LinkEvent> linkEvents;
    for (const json& e : At(s, "topology.link_events"))
    {
        const uint32_t nth = e.contains("nth") ? e["nth"].get<uint32_t>() : 0;
        const int32_t link = topo.FindLink(e["a"].get<uint32_t>(), e["b"].get<uint32_t>(), nth);
        if (link < 0)
        {
            throw ScenarioError(Str(s, "name") + ": key 'topology.link_events' has invalid value " +
                                e.dump() + " (no such link: node ids as in links.csv)");
        }
        const std::string action = e["action"].get<std::string>();
        linkEvents.push_back({Us(e["at_us"].get<double>()),
                              link,
                              action,
                              action == "rate" ? e["rate_gbps"].get<double>() : 0.0});
    }
    RunOutput out(outDir);
    // ns-3 records every Time object alive before the first Simulator::Run (in case the
    // time resolution changes) in a std::set: with many flows, setting the run up would
    // cost a set insert and erase per Time. Running the still-empty simulator ends that.
    // (It must be empty: an event scheduled before it would run now, and the traffic
    // would start only after it.)
    Simulator::Run();
    for (const LinkEvent& e : linkEvents)
    {
        if (e.action == "rate")
        {
            Simulator::Schedule(e.at, &RdmaTopology::SetLinkRate, &topo, e.link, Gbps(e.rateGbps));
        }
        else
        {
            Simulator::Schedule(e.at, &RdmaTopology::SetLinkUp, &topo, e.link, e.action == "up");
        }
    }
    out.WriteFile("config.json", s.dump(2) + "\n");

    // ---- traffic
    TrafficDriver driver(topo);
    if (Bool(s, "traffic.incast.enabled"))
    {
        IncastGenerator g;
        g.receiver = Int(s, "traffic.incast.receiver");
        for (const json& v : At(s, "traffic.incast.senders"))
        {
            g.senders.push_back(v.get<uint32_t>());
        }
        if (g.senders.empty())
        {
            for (uint32_t h = 0; h < topo.GetHosts().size(); ++h)
            {
                if (h != g.receiver)
                {
                    g.senders.push_back(h);
                }
            }
        }
        g.qpsPerSender = Int(s, "traffic.incast.qps_per_sender");
        g.messageBytes = Int(s, "traffic.incast.message_bytes");
        g.until = Us(Num(s, "traffic.incast.until_ms") * 1000);
        g.start = Us(Num(s, "traffic.incast.start_us"));
        g.jitter = Us(Num(s, "traffic.incast.jitter_us"));
        g.priority = Int(s, "traffic.incast.priority");
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(stream++);
        for (const FlowSpec& f : g.Generate(rng))
        {
            driver.AddFlow(f);
        }
    }
    if (Bool(s, "traffic.permutation.enabled"))
    {
        PermutationGenerator g;
        g.hosts = topo.GetHosts().size();
        g.hostsPerLeaf = Str(s, "topology.type") == "leaf_spine" ? Int(s, "topology.hosts_per_leaf") : 0;
        g.messageBytes = Int(s, "traffic.permutation.message_bytes");
        g.start = Us(Num(s, "traffic.permutation.start_us"));
        g.priority = Int(s, "nic.data_priority");
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(stream++);
        for (const FlowSpec& f : g.Generate(rng))
        {
            driver.AddFlow(f);
        }
    }
    for (const FlowSpec& f : m_csvFlows)
    {
        driver.AddFlow(f);
    }
    m_workloads->AddTraffic(topo, driver, stream);
    if (Bool(s, "traffic.probe.enabled"))
    {
        driver.AddProbe(Int(s, "traffic.probe.src"),
                        Int(s, "traffic.probe.dst"),
                        Int(s, "traffic.probe.message_bytes"),
                        Us(Num(s, "traffic.probe.start_us")),
                        Us(Num(s, "traffic.probe.interval_us")),
                        Int(s, "traffic.probe.priority"),
                        Bool(s, "traffic.probe.rate_limited"));
    }

    // ---- recording
    Recorder recorder(out.Stream("fct.csv"), out.Stream("pfc.csv"));
    driver.SetRecordCallback(MakeCallback(&Recorder::OnRecord, &recorder));
    for (uint32_t sw : topo.GetSwitches())
    {
        topo.GetSwitch(sw)->TraceConnectWithoutContext("Pfc", MakeCallback(&Recorder::OnPfc, &recorder, sw));
    }
    topo.WriteLinks(out.Stream("links.csv"));
    std::vector<std::unique_ptr<PeriodicSampler>> samplers;
    auto queueSampler = std::make_unique<QueueSampler>(topo, out.Stream("queue.csv"), Us(Num(s, "output.queue_sample_us")));
    const QueueSampler* queues = queueSampler.get();
    samplers.push_back(std::move(queueSampler));
    if (Num(s, "output.port_sample_us") > 0)
    {
        samplers.push_back(std::make_unique<PortSampler>(topo, out.Stream("ports.csv"), Us(Num(s, "output.port_sample_us"))));
    }
    const uint64_t ccQps = std::min<uint64_t>(Int(s, "output.cc_sample_qps"), driver.GetFlowsTotal());
    if (Num(s, "output.cc_sample_us") > 0 && ccQps > 0)
    {
        std::vector<std::pair<uint32_t, uint32_t>> qps;
        for (uint64_t i = 0; i < ccQps; ++i)
        {
            qps.push_back(driver.GetFlowQp(i * driver.GetFlowsTotal() / ccQps));
        }
        samplers.push_back(std::make_unique<CcSampler>(topo, qps, out.Stream("cc.csv"), Us(Num(s, "output.cc_sample_us"))));
    }
    for (auto& sampler : samplers)
    {
        sampler->Start();
    }
    const Time stop = Us(Num(s, "stop_time_ms") * 1000);
    Progress progress(stop, driver, Bool(s, "output.progress") && !quiet);
    progress.Start();
    UplinkMeter uplinks(topo, Num(s, "output.port_sample_us") > 0 ? Us(Num(s, "output.port_sample_us")) : MicroSeconds(10));
    uplinks.Start();
    driver.SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    driver.Start();

    // ---- run
    const auto wall0 = std::chrono::steady_clock::now();
    const std::clock_t cpu0 = std::clock();
    const uint64_t events0 = Simulator::GetEventCount();
    Simulator::Stop(stop);
    Simulator::Run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const double cpu = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
    const uint64_t events = Simulator::GetEventCount() - events0;
    const Time end = Simulator::Now();
    for (auto& sampler : samplers)
    {
        sampler->Stop();
    }
    progress.Stop();
    uplinks.Stop();

    // ---- summary
    RdmaNic::Stats nic;
    for (uint32_t h : topo.GetHosts())
    {
        const RdmaNic::Stats& st = topo.GetNic(h)->GetStats();
        nic.payloadBytesSent += st.payloadBytesSent;
        nic.payloadBytesDelivered += st.payloadBytesDelivered;
        nic.dataPackets += st.dataPackets;
        nic.retransmittedPackets += st.retransmittedPackets;
        nic.timeouts += st.timeouts;
        nic.cnpsSent += st.cnpsSent;
        nic.nacksSent += st.nacksSent;
        nic.outOfOrderPackets += st.outOfOrderPackets;
    }
    uint64_t drops = 0, pauses = 0, resumes = 0, marked = 0, forwarded = 0, maxQueue = 0;
    std::array<uint64_t, kDropReasons> dropsByReason{};
    std::array<uint64_t, kMarkReasons> marksByReason{};
    for (uint32_t sw : topo.GetSwitches())
    {
        Ptr<RdmaSwitch> x = topo.GetSwitch(sw);
        forwarded += x->GetForwardedFrames();
        maxQueue = std::max(maxQueue, x->GetMmu()->GetMaxEgressBytes());
        for (uint32_t p = 0; p < x->GetNPorts(); ++p)
        {
            const RdmaSwitch::PortStats& ps = x->GetPortStats(p);
            drops += ps.drops;
            pauses += ps.pauseFrames;
            resumes += ps.resumeFrames;
            marked += ps.ecnMarked;
            for (std::size_t r = 0; r < kDropReasons; ++r)
            {
                dropsByReason[r] += ps.dropsByReason[r];
            }
            for (std::size_t r = 0; r < kMarkReasons; ++r)
            {
                marksByReason[r] += ps.marksByReason[r];
            }
        }
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);

    json sum;
    sum["scenario"] = Str(s, "name");
    sum["sim_time_s"] = end.GetSeconds();
    sum["wall_s"] = wall;
    sum["cpu_s"] = cpu;
    sum["events"] = events;
    sum["events_per_s"] = wall > 0 ? events / wall : 0.0;
    sum["packets_forwarded"] = forwarded;
    sum["peak_rss_mb"] = ru.ru_maxrss / 1024.0;
    sum["flows_total"] = driver.GetFlowsTotal();
    sum["flows_completed"] = driver.GetFlowsCompleted();
    sum["all_flows_completed"] = driver.GetFlowsCompleted() == driver.GetFlowsTotal();
    sum["bytes_sent"] = nic.payloadBytesSent;
    sum["bytes_delivered"] = nic.payloadBytesDelivered;
    sum["goodput_gbps"] = end.IsStrictlyPositive() ? nic.payloadBytesDelivered * 8 / end.GetSeconds() / 1e9 : 0.0;
    sum["data_packets"] = nic.dataPackets;
    sum["retransmitted_packets"] = nic.retransmittedPackets;
    sum["timeouts"] = nic.timeouts;
    sum["nacks"] = nic.nacksSent;
    sum["out_of_order_packets"] = nic.outOfOrderPackets;
    sum["cnps"] = nic.cnpsSent;
    sum["ecn_marked_packets"] = marked;
    sum["drops"] = drops;
    sum["link_down_drops"] = topo.GetLinkDownDrops();
    dropsByReason[static_cast<std::size_t>(DropReason::LINK_DOWN)] = topo.GetLinkDownDrops();
    for (std::size_t r = 0; r < kDropReasons; ++r)
    {
        sum["drops_by_reason"][DropReasonName(static_cast<DropReason>(r))] = dropsByReason[r];
    }
    for (std::size_t r = 0; r < kMarkReasons; ++r)
    {
        sum["marks_by_reason"][MarkReasonName(static_cast<MarkReason>(r))] = marksByReason[r];
    }
    sum["pfc_pause_frames"] = pauses;
    sum["pfc_resume_frames"] = resumes;
    sum["max_queue_bytes"] = maxQueue;
    sum["mean_queue_bytes"] = queues->GetMeanLargestQueue();
    if (!topo.GetUplinkTxBytes().empty())
    {
        sum["uplink_imbalance_max"] = uplinks.GetRunImbalanceMax();
        sum["uplink_imbalance_mean"] = uplinks.GetRunImbalanceMean();
        sum["uplink_imbalance_window_mean"] = uplinks.GetWindowImbalanceMean();
    }
    sum["base_rtt_us"] = topo.GetMaxBaseRtt().GetSeconds() * 1e6;
    sum["probes_completed"] = driver.GetProbesCompleted();
    const auto& probes = recorder.m_probeFct;
    double mean = 0;
    for (int64_t v : probes)
    {
        mean += double(v);
    }
    sum["probe_latency_mean_ns"] = probes.empty() ? 0.0 : mean / probes.size();
    sum["probe_latency_p50_ns"] = Percentile(probes, 0.5);
    sum["probe_latency_p99_ns"] = Percentile(probes, 0.99);
    m_workloads->Summarize(sum, end);
    m_workloads->WriteFiles(out);
    out.WriteFile("summary.json", sum.dump(2) + "\n");
    Simulator::Destroy();
    out.Commit();
    if (!quiet)
    {
        std::cerr << "[rdma] " << Str(s, "name") << ": " << driver.GetFlowsCompleted() << "/"
                  << driver.GetFlowsTotal() << " flows in " << end.GetSeconds() * 1e3
                  << " ms simulated, " << wall << " s wall, " << events << " events\n";
    }
    return sum;
}

} // namespace ns3
