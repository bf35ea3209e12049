/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-stage.h"

#include "ns3/topology-stage.h"
#include "ns3/traffic-stage.h"

#include <algorithm>

namespace ns3
{

std::vector<ScenarioSchema::Key>
ScenarioStage::Keys() const
{
    return {};
}

void
ScenarioStage::Estimate(const nlohmann::json& /* scenario */,
                        SizeGuard::Estimate& /* estimate */) const
{
}

void
ScenarioStage::ResolvePaths(nlohmann::json& /* scenario */, const std::string& /* file */) const
{
}

void
ScenarioStage::Resolve(nlohmann::json& /* scenario */, const std::string& /* file */) const
{
}

void
ScenarioStage::Check(const nlohmann::json& /* scenario */,
                     const std::string& /* file */,
                     uint32_t /* hosts */) const
{
}

template <class Base>
void
StageList<Base>::Add(int rank, Factory make)
{
    Entries().push_back({rank, make});
}

template <class Base>
std::vector<std::unique_ptr<Base>>
StageList<Base>::Create()
{
    std::vector<Entry> entries = Entries();
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.rank < b.rank;
    });
    std::vector<std::unique_ptr<Base>> stages;
    for (const Entry& e : entries)
    {
        stages.push_back(e.make());
    }
    return stages;
}

template <class Base>
std::vector<typename StageList<Base>::Entry>&
StageList<Base>::Entries()
{
    static std::vector<Entry> entries;
    return entries;
}

template class StageList<TopologyStage>;
template class StageList<TrafficStage>;

} // namespace ns3
