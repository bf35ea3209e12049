/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/traffic-stage.h"

namespace ns3
{

void
TrafficStage::Prepare(const nlohmann::json& /* scenario */, uint32_t /* hosts */)
{
}

void
TrafficStage::WriteInputs(RunOutput& /* out */)
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
    return StageList<TrafficStage>::Create();
}

template class StageList<TrafficStage>;

} // namespace ns3
