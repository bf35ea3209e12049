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

} // namespace ns3

#endif /* RDMA_FLOW_LIST_STAGE_H */
