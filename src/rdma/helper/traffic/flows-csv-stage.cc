/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/flows-csv-stage.h"

#include "ns3/flow-csv-reader.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"

#include <filesystem>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;
namespace fs = std::filesystem;

void
FlowsCsvStage::ResolvePaths(json& s, const std::string& file) const
{
    // Relative to the scenario file; config.json keeps it absolute.
    const std::string csv = Str(s, "traffic.flows_csv");
    if (!csv.empty() && fs::path(csv).is_relative())
    {
        Set(s,
            "traffic.flows_csv",
            fs::absolute(fs::path(file).parent_path() / csv).lexically_normal().string());
    }
}

void
FlowsCsvStage::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    if (Enabled(s) && !fs::exists(Str(s, "traffic.flows_csv")))
    {
        throw ScenarioError(file + ": key 'traffic.flows_csv' has invalid value " +
                            At(s, "traffic.flows_csv").dump() + " (no such file)");
    }
}

bool
FlowsCsvStage::Enabled(const json& s) const
{
    return !Str(s, "traffic.flows_csv").empty();
}

void
FlowsCsvStage::Prepare(const json& s, uint32_t hosts)
{
    if (!Enabled(s))
    {
        return;
    }
    const std::string csv = Str(s, "traffic.flows_csv");
    SetFlows(FlowCsvReader::Read(csv, hosts, Int(s, "nic.data_priority")),
             csv,
             Int(s, "nic.control_priority"));
}

} // namespace ns3
