/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/incast-groups-stage.h"

#include "ns3/incast-group-reader.h"
#include "ns3/random-variable-stream.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

void
IncastGroupsStage::ResolvePaths(json& s, const std::string& file) const
{
    ResolvePathKey(s, "traffic.incast_groups_csv", file);
}

void
IncastGroupsStage::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    CheckFileKey(s, file, "traffic.incast_groups_csv");
}

bool
IncastGroupsStage::Enabled(const json& s) const
{
    return !Str(s, "traffic.incast_groups_csv").empty();
}

void
IncastGroupsStage::Prepare(const json& s, uint32_t hosts)
{
    if (!Enabled(s))
    {
        return;
    }
    const std::string groups = Str(s, "traffic.incast_groups_csv");
    m_groups = IncastGroupReader::Read(groups, hosts, Int(s, "nic.data_priority"));
    for (const IncastGenerator& g : m_groups)
    {
        if (g.priority == Int(s, "nic.control_priority"))
        {
            throw ScenarioError(groups + ": a group uses priority " + std::to_string(g.priority) +
                                ", the control class (nic.control_priority)");
        }
        if (g.until > Us(Num(s, "stop_time_ms") * 1000))
        {
            throw ScenarioError(groups + ": a group leaves at " +
                                std::to_string(g.until.GetMicroSeconds()) +
                                " us, after stop_time_ms");
        }
    }
}

void
IncastGroupsStage::AddTraffic(const json& /* scenario */,
                              RdmaTopology& /* topo */,
                              TrafficDriver& driver,
                              int64_t& stream)
{
    for (const IncastGenerator& g : m_groups)
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(stream++);
        for (const FlowSpec& f : g.Generate(rng))
        {
            driver.AddFlow(f);
        }
    }
}

void
IncastGroupsStage::Summarize(json& sum, Time /* end */) const
{
    if (!m_groups.empty())
    {
        sum["incast_groups"] = m_groups.size();
    }
}

} // namespace ns3
