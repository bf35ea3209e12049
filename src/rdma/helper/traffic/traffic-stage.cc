/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/traffic-stage.h"

#include "ns3/cdf-stage.h"
#include "ns3/collective-stage.h"
#include "ns3/flows-csv-stage.h"
#include "ns3/hpcc-flows-stage.h"
#include "ns3/incast-groups-stage.h"
#include "ns3/incast-stage.h"
#include "ns3/permutation-stage.h"
#include "ns3/probe-stage.h"

namespace ns3
{

void
TrafficStage::Prepare(const nlohmann::json& /* scenario */, uint32_t /* hosts */)
{
}

void
TrafficStage::Summarize(nlohmann::json& /* summary */, Time /* end */) const
{
}

void
TrafficStage::WriteFiles(RunOutput& /* out */) const
{
}

std::vector<std::unique_ptr<TrafficStage>>
TrafficStage::CreateAll()
{
    std::vector<std::unique_ptr<TrafficStage>> v;
    v.push_back(std::make_unique<IncastStage>());
    v.push_back(std::make_unique<PermutationStage>());
    v.push_back(std::make_unique<FlowsCsvStage>());
    v.push_back(std::make_unique<HpccFlowsStage>());
    v.push_back(std::make_unique<IncastGroupsStage>());
    v.push_back(std::make_unique<CdfStage>());
    v.push_back(std::make_unique<CollectiveStage>());
    v.push_back(std::make_unique<ProbeStage>());
    return v;
}

} // namespace ns3
