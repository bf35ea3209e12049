/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-runner.h"

#include "ns3/fabric-stage.h"
#include "ns3/global-value.h"
#include "ns3/input-fields.h"
#include "ns3/object-factory.h"
#include "ns3/output-stage.h"
#include "ns3/pcap-stage.h"
#include "ns3/plugin-registry.h"
#include "ns3/rank-end-check.h"
#include "ns3/rdma-ranks.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/run-output.h"
#include "ns3/run-progress.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-schema.h"
#include "ns3/scenario-stages.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-stage.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <unistd.h>

namespace ns3
{

using json = nlohmann::json;
namespace fs = std::filesystem;
using namespace scenario;

namespace
{
/**
 * Make the simulator use the `simulator.scheduler` choice \p name: rdma is
 * ns3::RdmaSimulatorImpl (its own timing wheel and heap, reserved uids for the links),
 * which takes no ns-3 scheduler; the others are ns-3's DefaultSimulatorImpl with that
 * ns-3 scheduler. A simulator of another kind left from before (it could not take the
 * choice) is destroyed first. \p distributed: the simulator is ns-3's distributed
 * engine (bound by RdmaRanks::Enable), which takes the ns-3 scheduler, heap for rdma.
 */
void
UseScheduler(const std::string& name, bool distributed)
{
    static const std::map<std::string, std::string> schedulers = {
        {"map", "ns3::MapScheduler"},
        {"heap", "ns3::HeapScheduler"},
        {"calendar", "ns3::CalendarScheduler"},
        {"priority_queue", "ns3::PriorityQueueScheduler"},
        {"list", "ns3::ListScheduler"},
    };
    if (distributed)
    {
        ObjectFactory scheduler;
        scheduler.SetTypeId(schedulers.at(name == "rdma" ? "heap" : name));
        Simulator::SetScheduler(scheduler);
        return;
    }
    const std::string impl =
        name == "rdma" ? "ns3::RdmaSimulatorImpl" : "ns3::DefaultSimulatorImpl";
    StringValue before;
    GlobalValue::GetValueByName("SimulatorImplementationType", before);
    GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
    if (Simulator::GetImplementation()->GetInstanceTypeId().GetName() != impl)
    {
        Simulator::Destroy();
    }
    Ptr<SimulatorImpl> sim = Simulator::GetImplementation(); // created with the choice
    GlobalValue::Bind("SimulatorImplementationType", before);
    if (name != "rdma")
    {
        ObjectFactory scheduler;
        scheduler.SetTypeId(schedulers.at(name));
        Simulator::SetScheduler(scheduler);
    }
}

/**
 * The JSON of scenario \p file, read from \p in. A key given twice in one object is an
 * error (the parser would keep the last one), as is any syntax error.
 */
json
ParseUniqueKeys(std::istream& in, const std::string& file)
{
    std::vector<std::set<std::string>> seen;
    std::vector<std::string> path;
    std::string pendingKey;
    const json::parser_callback_t noDuplicates =
        [&](int /* depth */, json::parse_event_t event, json& parsed) {
            switch (event)
            {
            case json::parse_event_t::object_start:
            case json::parse_event_t::array_start:
                path.push_back(pendingKey);
                seen.emplace_back();
                break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                seen.pop_back();
                path.pop_back();
                break;
            case json::parse_event_t::key: {
                pendingKey = parsed.get<std::string>();
                if (!seen.empty() && !seen.back().insert(pendingKey).second)
                {
                    std::string dotted;
                    for (std::size_t i = 1; i < path.size(); ++i)
                    {
                        dotted += path[i].empty() ? "" : path[i] + ".";
                    }
                    throw ScenarioError(file + ": key '" + dotted + pendingKey +
                                        "' is given twice (a JSON object's keys must be "
                                        "unique)");
                }
                break;
            }
            default:
                break;
            }
            return true;
        };
    try
    {
        return json::parse(in, noDuplicates);
    }
    catch (const json::exception& e)
    {
        // Syntax errors, and numbers out of range (1e999999).
        throw ScenarioError(file + ": not valid JSON: " + e.what());
    }
}

/// The traffic of the enabled \p stages, in their order, into \p driver; then the
/// controllers' random streams, numbered from \p stream.
void
AddTraffic(const std::vector<std::unique_ptr<TrafficStage>>& stages,
           const json& s,
           RdmaTopology& topo,
           TrafficDriver& driver,
           int64_t& stream)
{
    for (const auto& stage : stages)
    {
        if (stage->Enabled(s))
        {
            stage->AddTraffic(s, topo, driver, stream);
        }
    }
    // The controllers' draws: numbered here, so that the same scenario run twice in one
    // process draws the same values (ns-3 numbers unassigned streams process-wide).
    stream += topo.AssignNicStreams(stream);
    // PINT's rounding at the switches, after every other stream (PintMeter).
    stream += topo.AssignPintStreams(stream);
}

/// Run the simulator until \p stop (or until it is stopped); what the run cost.
OutputStage::Timing
Simulate(Time stop)
{
    const auto wall0 = std::chrono::steady_clock::now();
    const std::clock_t cpu0 = std::clock();
    const uint64_t events0 = Simulator::GetEventCount();
    Simulator::Stop(stop);
    Simulator::Run();
    OutputStage::Timing timing;
    timing.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    timing.cpuSeconds = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
    timing.events = Simulator::GetEventCount() - events0;
    return timing;
}

/// Checks of simulator.end_check_us after the one that finds every rank done, at which
/// the ranks stop (RankEndCheck's grace).
constexpr int kEndChecksOfGrace = 10;

/// Where a rank other than 0 stages its part of the outputs: a folder of its own.
std::string
RankScratch()
{
    return (fs::temp_directory_path() / ("rdma-run-rank" + std::to_string(RdmaRanks::Rank()) + "-" +
                                         std::to_string(::getpid())))
        .string();
}

/// The run's warnings, and unless \p quiet one line on what was simulated.
void
ReportRun(const json& s,
          const std::vector<std::string>& warnings,
          bool quiet,
          const json& sum,
          const OutputStage::Timing& timing)
{
    for (const std::string& warning : warnings)
    {
        if (!warning.empty())
        {
            std::cerr << "rdma-run: warning: " << Str(s, "name") << ": " << warning << "\n";
        }
    }
    if (!quiet)
    {
        std::cerr << "[rdma] " << Str(s, "name") << ": " << sum["flows_completed"] << "/"
                  << sum["flows_total"] << " flows in " << sum["sim_time_s"].get<double>() * 1e3
                  << " ms simulated, " << timing.wallSeconds << " s wall, " << sum["events"]
                  << " events\n";
    }
}
} // namespace

// ------------------------------------------------------------------ loading

void
ScenarioRunner::WarnUnusedCcKeys(const json& s, const std::string& file)
{
    const std::string algorithm = Str(s, "cc.algorithm");
    std::string keys;
    for (const std::string& name : PluginRegistry::CongestionControls().Names())
    {
        if (name == algorithm)
        {
            continue;
        }
        const json params = ScenarioSchema::CcParameters(s, name);
        for (auto it = params.begin(); it != params.end(); ++it)
        {
            keys += (keys.empty() ? "" : ", ") + ("cc." + name + "." + it.key());
        }
    }
    if (!keys.empty())
    {
        std::cerr << "rdma-run: warning: " << file << ": " << keys.substr(0, 300)
                  << (keys.size() > 300 ? "..." : "") << " ignored: cc.algorithm is " << algorithm
                  << "\n";
    }
}

json
ScenarioRunner::Load(const std::string& file,
                     const std::vector<std::string>& overrides,
                     const SizeGuard::Limits* limits)
{
    std::ifstream in = inputfields::OpenInputFile(file, "scenario file");
    const json user = ParseUniqueKeys(in, file);
    json s = ScenarioSchema::Validate(user, file);
    for (const std::string& o : overrides)
    {
        ScenarioSchema::ApplyOverride(s, o);
    }
    WarnUnusedCcKeys(s, file);
    if (Str(s, "name").empty())
    {
        Set(s, "name", fs::path(file).stem().string());
    }
    const std::vector<std::unique_ptr<TrafficStage>> traffic = TrafficStage::CreateAll();
    for (const auto& stage : TopologyStage::All())
    {
        stage->ResolvePaths(s, file);
    }
    for (const auto& stage : traffic)
    {
        stage->ResolvePaths(s, file);
    }
    Resolve(s, file);
    if (limits)
    {
        SizeGuard::Check(s, file, ScenarioStages::Estimate(s), *limits);
    }
    Check(s, file);
    return s;
}

void
ScenarioRunner::Resolve(json& s, const std::string& file)
{
    FabricStage().Resolve(s, file);
    for (const auto& stage : TrafficStage::CreateAll())
    {
        stage->Resolve(s, file);
    }
}

uint32_t
ScenarioRunner::HostCount(const json& s)
{
    return TopologyStage::For(s).HostCount(s);
}

void
ScenarioRunner::Check(const json& s, const std::string& file)
{
    for (const char* key :
         {"simulator.port_prefetch", "simulator.warm_next", "simulator.tie_order"})
    {
        if (At(s, key) != ScenarioSchema::Find(key)->defaultValue &&
            Str(s, "simulator.scheduler") != "rdma")
        {
            throw ScenarioError(file + ": key '" + key + "' has value '" + Str(s, key) +
                                "', which only simulator.scheduler rdma takes (it is '" +
                                Str(s, "simulator.scheduler") + "')");
        }
    }
    const TopologyStage& topology = TopologyStage::For(s);
    topology.Check(s, file, 0);
    const uint32_t hosts = topology.HostCount(s);
    FabricStage().Check(s, file, hosts);
    bool traffic = false;
    for (const auto& stage : TrafficStage::CreateAll())
    {
        stage->Check(s, file, hosts);
        traffic = traffic || stage->Enabled(s);
    }
    if (!traffic)
    {
        throw ScenarioError(file + ": no traffic: enable traffic.incast or traffic.probe, or "
                                   "set traffic.flows_csv");
    }
}

// ------------------------------------------------------------------ running

ScenarioRunner::ScenarioRunner(json scenario)
    : m_scenario(std::move(scenario)),
      m_traffic(TrafficStage::CreateAll()),
      m_prepared(false),
      m_ranks(0)
{
}

ScenarioRunner::~ScenarioRunner() = default;

void
ScenarioRunner::Prepare()
{
    const uint32_t hosts = HostCount(m_scenario);
    for (const auto& stage : m_traffic)
    {
        stage->Prepare(m_scenario, hosts);
    }
    m_prepared = true;
}

void
ScenarioRunner::SetOrigin(const std::string& file)
{
    m_origin = file;
}

void
ScenarioRunner::BuildFabric(RdmaTopology& topo, FabricStage& fabric, int64_t& stream) const
{
    const json& s = m_scenario;
    const uint32_t seed = static_cast<uint32_t>(Int(s, "seed"));
    RngSeedManager::SetSeed(std::max<uint32_t>(seed, 1));
    RngSeedManager::SetRun(seed + 1);
    // Over ranks on ns-3's engines, the engine is bound already and takes a scheduler.
    const bool ns3Engine = m_ranks > 0 && Str(s, "simulator.engine") != "rdma";
    UseScheduler(Str(s, "simulator.scheduler"), ns3Engine);
    if (Str(s, "simulator.scheduler") == "rdma" && !ns3Engine)
    {
        // The core's enum attributes, by their names (the scenario's values, capitalised).
        const auto aid = [&](const char* key) {
            const std::string v = Str(s, key);
            return StringValue(v == "always" ? "Always" : v == "never" ? "Never" : "Auto");
        };
        Simulator::GetImplementation()->SetAttribute("PortPrefetch",
                                                     aid("simulator.port_prefetch"));
        Simulator::GetImplementation()->SetAttribute("WarmNext", aid("simulator.warm_next"));
        Simulator::GetImplementation()->SetAttribute(
            "TieOrder",
            StringValue(Str(s, "simulator.tie_order") == "by_node" ? "ByNode" : "Fifo"));
    }
    fabric.Configure(s, topo);
    TopologyStage::For(s).Build(s, topo);
    const std::string file = m_origin.empty() ? Str(s, "name") : m_origin;
    std::vector<uint32_t> given;
    for (const json& r : At(s, "topology.partition"))
    {
        given.push_back(r.get<uint32_t>());
    }
    std::string why;
    if (m_ranks > 0)
    {
        why = given.empty() ? topo.Partition(m_ranks) : topo.Partition(m_ranks, given);
    }
    else if (!given.empty())
    {
        // A serial run is one rank: the split is checked, as for the largest rank it names.
        why = topo.CheckPartition(*std::max_element(given.begin(), given.end()) + 1, given);
    }
    const std::string ranks = m_ranks > 0 ? "--ranks " + std::to_string(m_ranks) + ": " : "";
    if (!why.empty() && given.empty())
    {
        throw ScenarioError(file + ": " + ranks + why);
    }
    if (!why.empty())
    {
        const std::string value = At(s, "topology.partition").dump();
        throw ScenarioError(
            file + ": key 'topology.partition' has invalid value " +
            (value.size() <= 80 ? value : "[" + std::to_string(given.size()) + " ranks]") + " (" +
            ranks + why + ")");
    }
    topo.Finalize();
    fabric.Finish(s, topo, stream);
    PcapStage::Check(s, topo, file);
}

void
ScenarioRunner::CheckFabric()
{
    RdmaTopology topo;
    FabricStage fabric;
    int64_t stream = 0;
    BuildFabric(topo, fabric, stream);
    Simulator::Destroy();
}

json
ScenarioRunner::Run(const std::string& outDir, bool quiet)
{
    if (!m_prepared)
    {
        Prepare();
    }
    const json& s = m_scenario;
    const bool root = RdmaRanks::Rank() == 0;
    std::unique_ptr<RunOutput> out;
    json sum;
    json rankFacts;
    json rankState;
    uint32_t cutLinks = 0;
    std::vector<std::string> warnings;
    OutputStage::Timing timing;
    Time end;
    {
        // The model lives in this scope only: over ranks, its memory is returned before
        // rank 0 holds every rank's files to merge them.
        RdmaTopology topo;
        FabricStage fabric;
        int64_t stream = 0;
        BuildFabric(topo, fabric, stream); // input checks: nothing is written before them

        // Over ranks, rank 0 writes the folder; the others stage their parts privately.
        out = std::make_unique<RunOutput>(root ? outDir : RankScratch());
        // ns-3 records every Time object alive before the first Simulator::Run (in case the
        // time resolution changes) in a std::set: with many flows, setting the run up
        // would cost a set insert and erase per Time. Running the still-empty simulator
        // ends that. (It must be empty: an event scheduled before it would run now, and
        // the traffic would start only after it.) Over ranks, on the rdma engine only:
        // ns-3's engines cannot run an empty simulator (null messages would never end it).
        if (m_ranks == 0 || Str(s, "simulator.engine") == "rdma")
        {
            Simulator::Run();
        }
        fabric.Start(topo);
        out->WriteFile("config.json", s.dump(2) + "\n");

        // The traffic, source by source (their order fixes flow ids and random streams).
        TrafficDriver driver(topo);
        AddTraffic(m_traffic, s, topo, driver, stream);
        for (const auto& stage : m_traffic)
        {
            stage->WriteInputs(*out);
        }

        // The outputs, then the run.
        OutputStage output(s, topo, driver, *out);
        if (m_ranks > 0)
        {
            output.KeepRankState();
        }
        output.Start();
        const Time stop = Us(Num(s, "stop_time_ms") * 1000);
        RunProgress progress(stop, driver, Bool(s, "output.progress") && !quiet && root);
        progress.Start();
        // A serial run stops at its last completion; ranks stop together once all are done.
        const Time check = Us(Num(s, "simulator.end_check_us"));
        RankEndCheck ranksDone(driver, check, check * kEndChecksOfGrace);
        if (m_ranks == 0)
        {
            driver.SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
        }
        driver.Start();
        if (m_ranks > 0)
        {
            ranksDone.Start();
        }

        timing = Simulate(stop);
        ranksDone.Finish();
        end = ranksDone.GetEnd(Simulator::Now());
        output.Stop();
        progress.Stop();

        sum = output.Summarize(end, timing);
        const std::string stall = output.WriteEndFiles(*out, end);
        warnings = {output.DeadlockMessage(), stall};
        for (const auto& stage : m_traffic)
        {
            stage->Summarize(sum, end);
            stage->WriteFiles(*out);
        }
        if (m_ranks > 0)
        {
            rankFacts = RankFacts(sum, topo, driver);
            rankState = output.RankState();
            cutLinks = topo.GetNCutLinks();
        }
        Simulator::Destroy();
    }
    if (m_ranks > 0)
    {
        // The stages hold the run's traffic (a collective trace): dropped before the merge
        // (a next Run prepares them again).
        m_traffic = TrafficStage::CreateAll();
        m_prepared = false;
        sum = MergeRanks(*out, sum, rankFacts, rankState, cutLinks, end, warnings);
    }
    if (root)
    {
        out->WriteFile("summary.json", sum.dump(2) + "\n");
        out->Commit();
        ReportRun(s, warnings, quiet, sum, timing);
    }
    return sum;
}

} // namespace ns3
