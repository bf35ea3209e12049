/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_LIST_STAGE_H
#define RDMA_FLOW_LIST_STAGE_H

#include "ns3/flow-spec.h"
#include "ns3/traffic-stage.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A traffic source that is a fixed list of flows read from a file in Prepare (a flow
 * list, the HPCC simulator's flow file): its flows are added in file order and take no
 * random stream. Subclasses read the file into SetFlows.
 */
class FlowListStage : public TrafficStage
{
  public:
    /// Add the file's flows, in file order (no random stream).
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;

  protected:
    /**
     * Keep \p flows, read from \p file. Throws ScenarioError (naming \p file) if one uses
     * \p controlPriority, the class of ACKs and CNPs.
     */
    void SetFlows(std::vector<FlowSpec> flows, const std::string& file, int64_t controlPriority);

  private:
    std::vector<FlowSpec> m_flows;
};

/**
 * \ingroup rdma
 * A flow list read from the one file that the string key \p key names, relative to the
 * scenario file (empty: the source is off): the key's path, existence and size estimate.
 */
class FileFlowListStage : public FlowListStage
{
  public:
    explicit FileFlowListStage(const char* key);
    /// Make the key's path absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// The file must exist.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// Flows and QPs: one per data line of the file.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;

  protected:
    const char* const m_key; ///< the scenario key naming the file
};

} // namespace ns3

#endif /* RDMA_FLOW_LIST_STAGE_H */
