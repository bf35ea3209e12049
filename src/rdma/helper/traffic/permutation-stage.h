/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PERMUTATION_STAGE_H
#define RDMA_PERMUTATION_STAGE_H

#include "ns3/traffic-stage.h"

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.permutation: every host sends one message to another host, a random
 * permutation (on a leaf-spine, always to another leaf) (PermutationGenerator).
 */
class PermutationStage : public TrafficStage
{
  public:
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioSchema::Key> Keys() const override;
    /// Flows and QPs: a message per host.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;
};

} // namespace ns3

#endif /* RDMA_PERMUTATION_STAGE_H */
