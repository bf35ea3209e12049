/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CDF_STAGE_H
#define RDMA_CDF_STAGE_H

#include "ns3/flow-size-cdf.h"
#include "ns3/nstime.h"
#include "ns3/traffic-stage.h"

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
    std::vector<ScenarioSchema::Key> Keys() const override;
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

} // namespace ns3

#endif /* RDMA_CDF_STAGE_H */
