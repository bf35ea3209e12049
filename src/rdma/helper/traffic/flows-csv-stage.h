/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOWS_CSV_STAGE_H
#define RDMA_FLOWS_CSV_STAGE_H

#include "ns3/flow-list-stage.h"
#include "ns3/flow-spec.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.flows_csv: a flow list "src,dst,bytes,start_ns[,priority]" (FlowCsvReader),
 * relative to the scenario file; read in Prepare, so its errors come before any output.
 */
class FlowsCsvStage : public FlowListStage
{
  public:
    /// Make traffic.flows_csv absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    /// Read the flow list (errors: file:line, or a flow in the control class).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioSchema::Key> Keys() const override;
    /// Flows and QPs: a flow per line of the list.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
};

} // namespace ns3

#endif /* RDMA_FLOWS_CSV_STAGE_H */
