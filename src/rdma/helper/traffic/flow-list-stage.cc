/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/flow-list-stage.h"

#include "ns3/scenario-error.h"

namespace ns3
{

void
FlowListStage::AddTraffic(const nlohmann::json& /* scenario */,
                          RdmaTopology& /* topo */,
                          TrafficDriver& driver,
                          int64_t& /* stream */)
{
    for (const FlowSpec& f : m_flows)
    {
        driver.AddFlow(f);
    }
}

void
FlowListStage::SetFlows(std::vector<FlowSpec> flows,
                        const std::string& file,
                        int64_t controlPriority)
{
    for (const FlowSpec& f : flows)
    {
        if (f.priority == controlPriority)
        {
            throw ScenarioError(file + ": a flow uses priority " + std::to_string(controlPriority) +
                                ", the control class (nic.control_priority)");
        }
    }
    m_flows = std::move(flows);
}

} // namespace ns3
