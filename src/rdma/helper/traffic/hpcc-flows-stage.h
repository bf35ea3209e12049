/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HPCC_FLOWS_STAGE_H
#define RDMA_HPCC_FLOWS_STAGE_H

#include "ns3/flow-list-stage.h"
#include "ns3/flow-spec.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.hpcc_flow_file: the flow file of the HPCC simulator (HpccFlowReader; node ids
 * mapped to hosts through the topology), relative to the scenario file; read in Prepare,
 * so its errors come before any output. Owns the key traffic.hpcc_flow_file.
 */
class HpccFlowsStage : public FlowListStage
{
  public:
    /// Make traffic.hpcc_flow_file absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// The file must exist.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioSchema::Key> Keys() const override;
    /// Flows and QPs: a flow per line of the file.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    /// Read the flow file (errors: file:line, or a flow in the control class).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
};

} // namespace ns3

#endif /* RDMA_HPCC_FLOWS_STAGE_H */
