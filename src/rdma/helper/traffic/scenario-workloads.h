/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_WORKLOADS_H
#define RDMA_SCENARIO_WORKLOADS_H

#include "ns3/flow-size-cdf.h"
#include "ns3/flow-spec.h"
#include "ns3/collective-replay.h"
#include "ns3/incast-generator.h"
#include "ns3/moe-generator.h"
#include "ns3/rdma-topology.h"
#include "ns3/traffic-driver.h"
#include "ns3/traffic-stage.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class RunOutput;

/**
 * \ingroup rdma
 * The scenario side of the workload keys (traffic.cdf.*, traffic.incast_groups_csv,
 * traffic.moe.*, traffic.trace.*, traffic.collective_qps, traffic.hpcc_flow_file):
 * their cross-key checks, the files they name (read in Prepare, so that every input error
 * comes before any output), the flows they add to a run and what they write into
 * summary.json: the traffic stage of the workload sources.
 */
class ScenarioWorkloads : public TrafficStage
{
  public:
    ScenarioWorkloads();
    ~ScenarioWorkloads() override;
    /// Make the workload file keys absolute (they are relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// Fill the derived workload keys (priorities, the MoE preset's model keys).
    void Resolve(nlohmann::json& scenario, const std::string& file) const override;
    /// Cross-key checks against a topology of \p hosts hosts. Throws ScenarioError.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    /// Whether the scenario has workload traffic.
    bool Enabled(const nlohmann::json& scenario) const override;
    /// Read the files the keys name. Throws ScenarioError (file:line).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
    /**
     * Add the workload flows to \p driver (topology finalized) and schedule the
     * collective ones. Random streams are taken from \p stream upwards.
     */
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;
    /// Add the workload figures to \p summary; \p end is the simulated end.
    void Summarize(nlohmann::json& summary, Time end) const override;
    /// Write the workload files of the run (collectives.csv, moe-trace.csv).
    void WriteFiles(RunOutput& out) const override;

  private:
    struct CdfState;

    nlohmann::json m_scenario;
    std::unique_ptr<CdfState> m_cdf;
    std::vector<IncastGenerator> m_groups;
    std::vector<FlowSpec> m_hpccFlows;
    std::unique_ptr<CollectiveTrace> m_trace;       ///< MoE generator's or replayed
    std::unique_ptr<MoeGenerator::Stats> m_moeStats; ///< MoE generator only
    std::vector<uint32_t> m_rankHosts;
    std::unique_ptr<CollectiveReplay> m_replay;
};

} // namespace ns3

#endif /* RDMA_SCENARIO_WORKLOADS_H */
