/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INCAST_GROUPS_STAGE_H
#define RDMA_INCAST_GROUPS_STAGE_H

#include "ns3/incast-generator.h"
#include "ns3/traffic-stage.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.incast_groups_csv: incast groups that join and leave a run (IncastGroupReader),
 * relative to the scenario file; read in Prepare, so its errors come before any output.
 * Owns the key traffic.incast_groups_csv and writes incast_groups into summary.json.
 */
class IncastGroupsStage : public TrafficStage
{
  public:
    /// Make traffic.incast_groups_csv absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// The file must exist.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioSchema::Key> Keys() const override;
    /// Flows and QPs: senders x qps_per_sender of every group.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    /// Read the groups (errors: file:line, a group in the control class or leaving after
    /// stop_time_ms).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
    /// Add the groups' flows, one random stream per group, in file order.
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;
    /// incast_groups: the number of groups (if any).
    void Summarize(nlohmann::json& summary, Time end) const override;

  private:
    std::vector<IncastGenerator> m_groups;
};

} // namespace ns3

#endif /* RDMA_INCAST_GROUPS_STAGE_H */
