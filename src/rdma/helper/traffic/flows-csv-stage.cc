/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/flow-csv-reader.h"
#include "ns3/flow-list-stage.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.flows_csv: a flow list "src,dst,bytes,start_ns[,priority]" (FlowCsvReader),
 * relative to the scenario file; read in Prepare, so its errors come before any output.
 */
class FlowsCsvStage : public FlowListStage
{
  public:
    /// Make traffic.flows_csv absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    /// Read the flow list (errors: file:line, or a flow in the control class).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioKey> Keys() const override;
    /// Flows and QPs: a flow per line of the list.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
// Its order among the sources fixes when it adds its flows (flow ids, streams).
const StageRegistration<TrafficStage, FlowsCsvStage> g_stage(30);
} // namespace

void
FlowsCsvStage::ResolvePaths(json& s, const std::string& file) const
{
    ResolvePathKey(s, "traffic.flows_csv", file);
}

void
FlowsCsvStage::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    CheckFileKey(s, file, "traffic.flows_csv");
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

std::vector<ScenarioKey>
FlowsCsvStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"traffic.flows_csv", T::STRING, "", 0, 0, {}, "path", "Flow list (src,dst,bytes,start_ns[,priority]), relative to the scenario file; empty = none."},
    };
    // clang-format on
}

void
FlowsCsvStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    const double n = SizeGuard::DataLines(Str(s, "traffic.flows_csv"));
    e.AddFlows(n, n, "traffic.flows_csv");
}

} // namespace ns3
