/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/flow-list-stage.h"

#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"

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

FileFlowListStage::FileFlowListStage(const char* key)
    : m_key(key)
{
}

void
FileFlowListStage::ResolvePaths(nlohmann::json& s, const std::string& file) const
{
    scenario::ResolvePathKey(s, m_key, file);
}

void
FileFlowListStage::Check(const nlohmann::json& s,
                         const std::string& file,
                         uint32_t /* hosts */) const
{
    scenario::CheckFileKey(s, file, m_key);
}

bool
FileFlowListStage::Enabled(const nlohmann::json& s) const
{
    return !scenario::Str(s, m_key).empty();
}

void
FileFlowListStage::Estimate(const nlohmann::json& s, SizeGuard::Estimate& e) const
{
    const double n = SizeGuard::DataLines(scenario::Str(s, m_key));
    e.AddFlows(n, n, m_key);
}

} // namespace ns3
