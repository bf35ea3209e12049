/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PROBE_STAGE_H
#define RDMA_PROBE_STAGE_H

#include "ns3/traffic-stage.h"

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.probe: a closed-loop latency probe, one small message from src to dst every
 * interval, running until the other traffic is done (kind "probe" in fct.csv).
 */
class ProbeStage : public TrafficStage
{
  public:
    /// traffic.<source>.priority defaults to nic.data_priority.
    void Resolve(nlohmann::json& scenario, const std::string& file) const override;
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioSchema::Key> Keys() const override;
    /// Flows and QPs: one QP, a probe per interval until the stop time.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;
};

} // namespace ns3

#endif /* RDMA_PROBE_STAGE_H */
