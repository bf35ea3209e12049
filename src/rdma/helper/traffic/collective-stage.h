/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_COLLECTIVE_STAGE_H
#define RDMA_COLLECTIVE_STAGE_H

#include "ns3/collective-replay.h"
#include "ns3/collective-trace.h"
#include "ns3/moe-generator.h"
#include "ns3/traffic-stage.h"

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
 * traffic.trace.* and traffic.collective_qps; writes the collective_* keys of
 * summary.json (and moe_* for the generator) and the files collectives.csv and, for the
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
    std::vector<ScenarioSchema::Key> Keys() const override;
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
    /// collectives.csv; moe-trace.csv for the MoE generator.
    void WriteFiles(RunOutput& out) const override;

  private:
    std::unique_ptr<CollectiveTrace> m_trace;        ///< MoE generator's or replayed
    std::unique_ptr<MoeGenerator::Stats> m_moeStats; ///< MoE generator only
    std::vector<uint32_t> m_rankHosts;
    std::unique_ptr<CollectiveReplay> m_replay;
};

} // namespace ns3

#endif /* RDMA_COLLECTIVE_STAGE_H */
