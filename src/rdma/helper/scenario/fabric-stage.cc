/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/fabric-stage.h"

#include "ns3/boolean.h"
#include "ns3/buffer-policy.h"
#include "ns3/cc-registry.h"
#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/host-rx-model.h"
#include "ns3/int-hop.h"
#include "ns3/integer.h"
#include "ns3/plugin-keys.h"
#include "ns3/pointer.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/scenario-schema.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <tuple>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

namespace
{
/// nic.cnp_interval_us when the controller states no preference (NVIDIA's min_time_between_cnps).
constexpr double kDefaultCnpIntervalUs = 4.0;
/// The default path selection (PerQpEntropy), whose port changes every
/// nic.entropy_change_packets.
const std::string kPerQp = "per_qp";

/// Kilobytes (scenario unit, KiB) to bytes.
UintegerValue
KiB(const json& s, const std::string& key)
{
    return UintegerValue(static_cast<uint64_t>(Num(s, key) * 1024));
}
} // namespace

uint64_t
FabricStage::EcnThresholdBytes(const json& s, const std::string& key)
{
    const double unit = Str(s, "switch.ecn.unit") == "kB" ? 1000.0 : 1024.0;
    return static_cast<uint64_t>(Num(s, key) * unit);
}

void
FabricStage::Resolve(json& s, const std::string& file) const
{
    const std::string algorithm = Str(s, "cc.algorithm");
    const PluginRegistry::Plugin* alg = PluginRegistry::CongestionControls().Find(algorithm);
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
        // The receiver-side CNP spacing the controller's parameters go with, else 4 us.
        const Time cnp = cc.controller->GetCnpInterval();
        Set(s,
            "nic.cnp_interval_us",
            cnp.IsNegative() ? kDefaultCnpIntervalUs : cnp.GetNanoSeconds() / 1000.0);
    }
    PluginKeys::Resolve(s, PluginRegistry::LoadBalancers(), file);
    PluginKeys::Resolve(s, PluginRegistry::LossRecoveries(), file);
    PluginKeys::Resolve(s, PluginRegistry::PathSelectors(), file);
    ResolveBufferPolicy(s, file);
}

void
FabricStage::ResolveBufferPolicy(const json& s, const std::string& file)
{
    const std::string policy = Str(s, "switch.buffer.policy");
    TypeId tid;
    if (!BufferPolicy::Find(policy, tid))
    {
        FailKey(file, s, "switch.buffer.policy", "no such policy");
    }
    // Another policy's parameter set away from its default would be silently ignored:
    // refuse it. (At its default it is what config.json holds for every policy.)
    for (const auto& [key, owner] : BufferPolicyKeys())
    {
        if (owner != policy && At(s, key) != ScenarioSchema::Find(key)->defaultValue)
        {
            FailKey(file,
                    s,
                    key,
                    "applies to switch.buffer.policy " + owner + " only; the policy is " + policy);
        }
    }
}

std::vector<std::pair<std::string, std::string>>
FabricStage::BufferPolicyKeys()
{
    return {
        {"switch.buffer.static_kb", "static"},
        {"switch.buffer.abm.alpha", "abm"},
        {"switch.buffer.abm.update_interval_us", "abm"},
        {"switch.buffer.abm.congested_bytes", "abm"},
        {"switch.buffer.abm.min_drain_rate", "abm"},
    };
}

ObjectFactory
FabricStage::BufferPolicyFactory(const json& s)
{
    const std::string policy = Str(s, "switch.buffer.policy");
    TypeId tid;
    BufferPolicy::Find(policy, tid); // checked by Resolve
    ObjectFactory f;
    f.SetTypeId(tid);
    if (policy == "static")
    {
        f.Set("QueueLimit", KiB(s, "switch.buffer.static_kb"));
    }
    if (policy == "abm")
    {
        f.Set("Alpha", DoubleValue(Num(s, "switch.buffer.abm.alpha")));
        f.Set("UpdateInterval", TimeValue(Us(Num(s, "switch.buffer.abm.update_interval_us"))));
        f.Set("CongestedBytes", UintegerValue(Int(s, "switch.buffer.abm.congested_bytes")));
        f.Set("MinDrainRate", DoubleValue(Num(s, "switch.buffer.abm.min_drain_rate")));
    }
    return f;
}

void
FabricStage::Check(const json& s, const std::string& file, uint32_t hosts) const
{
    auto fail = [&](const std::string& key, const std::string& why) { FailKey(file, s, key, why); };
    CheckHostArray(s, file, "nic.host_rx.nodes", hosts);
    if (Int(s, "nic.data_priority") == Int(s, "nic.control_priority"))
    {
        fail("nic.data_priority", "must differ from nic.control_priority");
    }
    if (Num(s, "switch.ecn.kmin_kb") > Num(s, "switch.ecn.kmax_kb"))
    {
        fail("switch.ecn.kmin_kb", "must not exceed switch.ecn.kmax_kb");
    }
    // What the controller's class needs of the fabric: its hook bits, asked once.
    ObjectFactory ccFactory;
    ccFactory.SetTypeId(PluginRegistry::CongestionControls().Find(Str(s, "cc.algorithm"))->tid);
    const uint16_t ccHooks = ccFactory.Create<CongestionControl>()->ImplementedHooks();
    // Controllers that read INT need every link rate to be one an INT record can carry.
    if (ccHooks & CongestionControl::HOOK_INT)
    {
        for (const char* key : {"topology.host_rate_gbps", "topology.fabric_rate_gbps"})
        {
            if (!IntHop::IsEncodableRate(Gbps(Num(s, key)).GetBitRate()))
            {
                fail(key,
                     Str(s, "cc.algorithm") + " uses INT, whose records carry 10, 25, 40, 50, "
                                              "100, 200, 400 or 800 Gb/s");
            }
        }
    }
    // A controller that counts each ACK's ECN echo as the mark of the bytes it
    // acknowledges (DCTCP's alpha) needs an ACK per packet: the responder echoes the mark
    // of the one packet an ACK answers.
    if ((ccHooks & CongestionControl::HOOK_ECN_PER_PACKET) && Int(s, "nic.ack_interval") != 1)
    {
        fail("nic.ack_interval",
             "must be 1 with cc.algorithm " + Str(s, "cc.algorithm") +
                 ", whose ECN echo must be per packet: an ACK echoes only the mark of the "
                 "packet it answers");
    }
    // Only the default changes the QP's own port every N packets: elsewhere the key
    // would be silently ignored.
    if (Int(s, "nic.entropy_change_packets") != 0 && Str(s, "nic.load_balancer") != kPerQp)
    {
        fail("nic.entropy_change_packets",
             "applies to nic.load_balancer per_qp only; the policy is " +
                 Str(s, "nic.load_balancer"));
    }
    if (Str(s, "nic.load_balancer") != kPerQp && Str(s, "nic.loss_recovery") == "go_back_n")
    {
        std::cerr << "rdma-run: warning: " << file << ": nic.load_balancer "
                  << Str(s, "nic.load_balancer")
                  << " reorders packets, which go_back_n resends (nic.loss_recovery "
                     "selective_repeat or direct_placement accept them)\n";
    }
    CheckCcParameters(s, file);
    CheckLinkEvents(s, file);
    CheckTrim(s, file);
    if (Bool(s, "switch.pfc.watchdog.enabled") && !Bool(s, "switch.pfc.enabled"))
    {
        std::cerr << "rdma-run: warning: " << file
                  << ": switch.pfc.watchdog.enabled has no effect with switch.pfc.enabled "
                     "false (nothing pauses)\n";
    }
}

void
FabricStage::CheckCcParameters(const json& s, const std::string& file)
{
    const std::string algorithm = Str(s, "cc.algorithm");
    const json::json_pointer section("/cc/" + algorithm);
    if (!s.contains(section))
    {
        return;
    }
    const json& params = s.at(section);
    auto text = [&](const char* name) {
        const json& v = params.at(name);
        return v.is_string() ? v.get<std::string>() : v.dump();
    };
    // A rate floor of 0 would let a QP stop for good.
    if (params.contains("MinRate"))
    {
        DataRateValue rate;
        if (rate.DeserializeFromString(text("MinRate"), MakeDataRateChecker()) &&
            rate.Get().GetBitRate() == 0)
        {
            FailKey(file, s, "cc." + algorithm + ".MinRate", "must be above 0 bps");
        }
    }
    // A window range must not be empty (MaxCwnd 0 means derived from the line rate).
    for (const auto& [lo, hi] : {std::pair<const char*, const char*>{"MinCwnd", "MaxCwnd"},
                                 std::pair<const char*, const char*>{"FsMinCwnd", "FsMaxCwnd"}})
    {
        if (params.contains(lo) && params.contains(hi))
        {
            double min = 0;
            double max = 0;
            try
            {
                min = std::stod(text(lo));
                max = std::stod(text(hi));
            }
            catch (const std::exception&)
            {
                continue;
            }
            if (max > 0 && min > max)
            {
                FailKey(file,
                        s,
                        "cc." + algorithm + "." + lo,
                        std::string("must not exceed cc.") + algorithm + "." + hi + " (" +
                            text(hi) + ")");
            }
        }
    }
}

void
FabricStage::CheckLinkEvents(const json& s, const std::string& file)
{
    // Replay the events in time order: "up" needs the link down, "down" needs it up.
    std::vector<const json*> events;
    for (const json& e : At(s, "topology.link_events"))
    {
        events.push_back(&e);
    }
    std::stable_sort(events.begin(), events.end(), [](const json* a, const json* b) {
        return a->at("at_us").get<double>() < b->at("at_us").get<double>();
    });
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, bool> down;
    for (const json* e : events)
    {
        const std::string action = e->at("action").get<std::string>();
        if (action != "up" && action != "down")
        {
            continue;
        }
        const uint32_t a = e->at("a").get<uint32_t>();
        const uint32_t b = e->at("b").get<uint32_t>();
        const uint32_t nth = e->contains("nth") ? e->at("nth").get<uint32_t>() : 0;
        bool& isDown = down[{std::min(a, b), std::max(a, b), nth}];
        if ((action == "up") != isDown)
        {
            throw ScenarioError(file + ": key 'topology.link_events' has invalid value " +
                                e->dump() + " (the link is already " + (isDown ? "down" : "up") +
                                " then)");
        }
        isDown = action == "down";
    }
}

void
FabricStage::Configure(const json& s, RdmaTopology& topo) const
{
    const uint8_t control = Int(s, "nic.control_priority");
    topo.SetDeviceAttribute("StrictPriority", UintegerValue(control));

    topo.SetNicAttribute("Mtu", UintegerValue(Int(s, "nic.mtu_bytes")));
    topo.SetNicAttribute("AckInterval", UintegerValue(Int(s, "nic.ack_interval")));
    topo.SetNicAttribute("CnpInterval", TimeValue(Us(Num(s, "nic.cnp_interval_us"))));
    topo.SetNicAttribute("Window", UintegerValue(Int(s, "nic.window_bytes")));
    topo.SetNicAttribute("EcnCapable", BooleanValue(Bool(s, "nic.ecn_capable")));
    topo.SetNicAttribute("CnpOnOutOfOrder", BooleanValue(Bool(s, "nic.cnp_on_out_of_order")));
    topo.SetNicAttribute("RateLimitPerDestination",
                         BooleanValue(Str(s, "nic.rate_limit") == "per_destination"));
    topo.SetNicAttribute("ProbeTimeout", TimeValue(Us(Num(s, "nic.probe_timeout_us"))));
    topo.SetNicAttribute("ProbeRequestPriority",
                         IntegerValue(Int(s, "nic.probe_request_priority")));
    topo.SetNicAttribute("ProbeResponsePriority",
                         IntegerValue(Int(s, "nic.probe_response_priority")));
    ObjectFactory paths = PluginKeys::Factory(s, PluginRegistry::PathSelectors());
    paths.Set("Paths", UintegerValue(Int(s, "nic.paths")));
    if (Str(s, "nic.load_balancer") == kPerQp)
    {
        paths.Set("ChangePackets", UintegerValue(Int(s, "nic.entropy_change_packets")));
    }
    topo.SetNicAttribute("PathSelector", ObjectFactoryValue(paths));
    topo.SetLossRecovery(PluginKeys::Factory(s, PluginRegistry::LossRecoveries()));
    topo.SetCongestionControl(PluginKeys::Factory(s, PluginRegistry::CongestionControls()));

    topo.SetMmuAttribute(
        "BufferSize",
        UintegerValue(static_cast<uint64_t>(Num(s, "switch.buffer_mb") * 1024 * 1024)));
    topo.SetMmuAttribute("PfcEnabled", BooleanValue(Bool(s, "switch.pfc.enabled")));
    topo.SetMmuAttribute("DynamicXoff", BooleanValue(Bool(s, "switch.pfc.dynamic_xoff")));
    topo.SetMmuAttribute("StaticXoff", KiB(s, "switch.pfc.static_xoff_kb"));
    topo.SetMmuAttribute("PfcAlpha", DoubleValue(Num(s, "switch.pfc.alpha")));
    topo.SetMmuAttribute("XonDelta", KiB(s, "switch.pfc.xon_delta_kb"));
    topo.SetMmuAttribute("EgressAlpha", DoubleValue(Num(s, "switch.lossy_alpha")));
    topo.SetBufferPolicy(BufferPolicyFactory(s));
    topo.SetMmuAttribute("LosslessClasses", UintegerValue(0xffu & ~(1u << control)));
    topo.SetMmuAttribute("EcnEnabled", BooleanValue(Bool(s, "switch.ecn.enabled")));
    topo.SetMmuAttribute("Kmin", UintegerValue(EcnThresholdBytes(s, "switch.ecn.kmin_kb")));
    topo.SetMmuAttribute("Kmax", UintegerValue(EcnThresholdBytes(s, "switch.ecn.kmax_kb")));
    topo.SetMmuAttribute("Pmax", DoubleValue(Num(s, "switch.ecn.pmax")));
    topo.SetMmuAttribute("EcnScaleWithRate", BooleanValue(Bool(s, "switch.ecn.scale_with_rate")));
    topo.SetSwitchAttribute("PauseQuanta", UintegerValue(Int(s, "switch.pfc.pause_quanta")));
    // PINT's bit budget: the switches encode with it, the NICs size the field and decode.
    topo.SetSwitchAttribute("PintBits", UintegerValue(Int(s, "switch.pint_bits")));
    topo.SetNicAttribute("PintBits", UintegerValue(Int(s, "switch.pint_bits")));
    ConfigureTrim(s, topo);

    topo.SetEcmpSaltPerSwitch(Bool(s, "routing.ecmp_salt_per_switch"),
                              static_cast<uint32_t>(Int(s, "seed")));
    topo.SetLoadBalancer(PluginKeys::Factory(s, PluginRegistry::LoadBalancers()));
}

void
FabricStage::Finish(const json& s, RdmaTopology& topo, int64_t& stream)
{
    if (Num(s, "nic.host_rx.rate_gbps") > 0 || Num(s, "nic.host_rx.delay_us") > 0)
    {
        for (uint32_t h : HostsOrAll(s, "nic.host_rx.nodes", topo.GetHosts().size()))
        {
            if (!topo.GetNic(h))
            {
                continue; // another rank's host
            }
            Ptr<HostRxModel> host = CreateObject<HostRxModel>();
            host->SetAttribute("Rate", DataRateValue(Gbps(Num(s, "nic.host_rx.rate_gbps"))));
            host->SetAttribute("Delay", TimeValue(Us(Num(s, "nic.host_rx.delay_us"))));
            topo.GetNic(h)->SetAttribute("HostRx", PointerValue(host));
        }
    }
    // IRN's BDP-FC: at most ceil(BDP / MTU) packets in flight, BDP of the longest path.
    int64_t cap = Int(s, "nic.inflight_cap_packets");
    if (cap < 0)
    {
        const double bdp = Gbps(Num(s, "topology.host_rate_gbps")).GetBitRate() / 8.0 *
                           topo.GetMaxBaseRtt().GetSeconds();
        cap = Str(s, "nic.loss_recovery") == "selective_repeat"
                  ? static_cast<int64_t>(std::ceil(bdp / Int(s, "nic.mtu_bytes")))
                  : 0;
    }
    for (uint32_t h : topo.GetLocalHosts())
    {
        topo.GetNic(h)->SetAttribute("InflightCap", UintegerValue(cap));
    }
    stream += topo.AssignSwitchStreams(stream);
    m_watchdogs.clear();
    if (Bool(s, "switch.pfc.enabled") && Bool(s, "switch.pfc.watchdog.enabled"))
    {
        for (uint32_t sw : topo.GetLocalSwitches())
        {
            Ptr<RdmaSwitch> x = topo.GetSwitch(sw);
            Ptr<PfcWatchdog> wd = CreateObject<PfcWatchdog>();
            wd->SetAttribute("DetectionTime",
                             TimeValue(Us(Num(s, "switch.pfc.watchdog.detect_ms") * 1000)));
            wd->SetAttribute("RestorationTime",
                             TimeValue(Us(Num(s, "switch.pfc.watchdog.restore_ms") * 1000)));
            wd->SetAttribute("PollInterval", TimeValue(Us(Num(s, "switch.pfc.watchdog.poll_us"))));
            wd->SetAttribute("Action", StringValue(Str(s, "switch.pfc.watchdog.action")));
            wd->Install(x, x->GetMmu()->GetLosslessMask());
            m_watchdogs.push_back(wd);
        }
    }
    // Link events name existing links.
    m_linkEvents.clear();
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
        m_linkEvents.push_back({Us(e["at_us"].get<double>()),
                                link,
                                action,
                                action == "rate" ? e["rate_gbps"].get<double>() : 0.0});
    }
}

void
FabricStage::Start(RdmaTopology& topo) const
{
    for (const Ptr<PfcWatchdog>& wd : m_watchdogs)
    {
        wd->Start();
    }
    for (const LinkEvent& e : m_linkEvents)
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
}

} // namespace ns3
