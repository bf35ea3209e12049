/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_RUNNER_H
#define RDMA_SCENARIO_RUNNER_H

#include "ns3/size-guard.h"
#include "ns3/traffic-stage.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

class FabricStage;
class OutputStage;
class RdmaTopology;

/**
 * \ingroup rdma
 * Runs one scenario as a pipeline of stages (ScenarioStage): the fabric (FabricStage:
 * NIC, switch, routing and congestion-control keys, link events), one topology
 * (TopologyStage), the traffic sources (TrafficStage: incast, permutation, flow list,
 * HPCC flow file, incast groups, flow-size CDF, collectives, probe) and the outputs
 * (OutputStage, RunProgress). Load resolves and checks the scenario through every stage;
 * Run builds, runs and writes the output folder (summary.json, fct.csv, queue.csv,
 * pfc.csv, config.json, ...). The runner itself only orders the stages.
 *
 * Every input error is raised as ScenarioError before the output folder is touched.
 */
class ScenarioRunner
{
  public:
    /**
     * Read \p file, apply the KEY=VALUE \p overrides, fill derived defaults and check
     * the whole. Returns the fully resolved scenario (what config.json will hold).
     * With \p limits, the stages' size estimate is compared with them once the keys are
     * resolved, before any check that would read input files or count hosts one by one:
     * a scenario too large is refused at once, whatever else is wrong with it.
     */
    static nlohmann::json Load(const std::string& file,
                               const std::vector<std::string>& overrides,
                               const SizeGuard::Limits* limits = nullptr);

    /// Fill the derived (null) keys of a validated scenario from the others.
    static void Resolve(nlohmann::json& scenario, const std::string& file);

    /// One warning line on stderr naming the cc.<algo>.* keys of controllers that are not
    /// cc.algorithm (ignored; not an error, since sweeps set them across algorithms).
    static void WarnUnusedCcKeys(const nlohmann::json& scenario, const std::string& file);

    /// Cross-key checks (hosts in range, priorities, thresholds). Throws ScenarioError.
    static void Check(const nlohmann::json& scenario, const std::string& file);

    /// \param scenario a scenario returned by Load.
    explicit ScenarioRunner(nlohmann::json scenario);
    ~ScenarioRunner();

    /// Read the traffic sources' files now (errors before any output); Run() calls it if
    /// needed.
    void Prepare();

    /// The scenario's file, named by errors found once the fabric is built (default: the
    /// scenario's name).
    void SetOrigin(const std::string& file);

    /**
     * Run over \p ranks MPI ranks (rdma-run --ranks; RdmaRanks::Enable already called,
     * as first thing in main): the fabric is split (RdmaTopology::Partition), ns-3's
     * distributed engine (simulator.engine) steps it, the run ends once every rank's
     * flows are done (RankEndCheck), and rank 0 merges the ranks' outputs (RankMerge)
     * into the folder. 0, the default: a serial run on simulator.scheduler.
     */
    void SetRanks(uint32_t ranks);

    /**
     * Throws ScenarioError if \p scenario asks for what a run over ranks does not do
     * yet: probes, packet captures, collectives that wait on acknowledgements.
     */
    static void CheckRanks(const nlohmann::json& scenario, const std::string& file);

    /// Simulate and write \p outDir; returns the summary. \p quiet silences progress.
    nlohmann::json Run(const std::string& outDir, bool quiet);

    /// The checks that need the built fabric (output.pcap.nodes against its nodes), as
    /// Run() makes them, without running or writing anything (rdma-run --check).
    void CheckFabric();

    /// Number of hosts the scenario's topology has.
    static uint32_t HostCount(const nlohmann::json& scenario);

  private:
    /// Seed, scheduler, then the fabric: attributes, nodes and links, the per-host
    /// settings and the checks against the built fabric. Throws ScenarioError.
    void BuildFabric(RdmaTopology& topo, FabricStage& fabric, int64_t& stream) const;

    /// In a run over ranks: this rank's part (\p sum), as summary.json's ranks.per_rank
    /// lists it.
    static nlohmann::json RankFacts(const nlohmann::json& sum,
                                    const RdmaTopology& topo,
                                    const TrafficDriver& driver);

    /**
     * In a run over ranks, after each rank summarized its own part into \p sum and its
     * model is gone: the merged files into \p out and the merged summary (on rank 0),
     * and the warnings into \p warnings. \p rank is RankFacts(), \p state the output
     * stage's RankState(), \p cutLinks the links between ranks.
     */
    nlohmann::json MergeRanks(RunOutput& out,
                              const nlohmann::json& sum,
                              const nlohmann::json& rank,
                              const nlohmann::json& state,
                              uint32_t cutLinks,
                              Time end,
                              std::vector<std::string>& warnings) const;

    nlohmann::json m_scenario;
    std::vector<std::unique_ptr<TrafficStage>> m_traffic;
    bool m_prepared;
    std::string m_origin;
    uint32_t m_ranks;
};

} // namespace ns3

#endif /* RDMA_SCENARIO_RUNNER_H */
