/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-stage.h"

namespace ns3
{

std::vector<ScenarioKey>
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

} // namespace ns3
