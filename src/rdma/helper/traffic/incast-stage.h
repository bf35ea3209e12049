/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INCAST_STAGE_H
#define RDMA_INCAST_STAGE_H

#include "ns3/traffic-stage.h"

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.incast: N senders x Q QPs into one receiver, one message per QP or streaming
 * until traffic.incast.until_ms, QP starts spread by jitter (IncastGenerator).
 */
class IncastStage : public TrafficStage
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
    /// Flows and QPs: senders x qps_per_sender QPs, a message each.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;
};

} // namespace ns3

#endif /* RDMA_INCAST_STAGE_H */
