/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/flow-list-stage.h"
#include "ns3/hpcc-flow-reader.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/topology-stage.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.hpcc_flow_file: the flow file of the HPCC simulator (HpccFlowReader; node ids
 * mapped to hosts through the topology), relative to the scenario file; read in Prepare,
 * so its errors come before any output. Owns the key traffic.hpcc_flow_file.
 */
class HpccFlowsStage : public FlowListStage
{
  public:
    /// Make traffic.hpcc_flow_file absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// The file must exist.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioKey> Keys() const override;
    /// Flows and QPs: a flow per line of the file.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    /// Read the flow file (errors: file:line, or a flow in the control class).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
// Its order among the sources fixes when it adds its flows (flow ids, streams).
const StageRegistration<TrafficStage, HpccFlowsStage> g_stage(40);
} // namespace

void
HpccFlowsStage::ResolvePaths(json& s, const std::string& file) const
{
    ResolvePathKey(s, "traffic.hpcc_flow_file", file);
}

void
HpccFlowsStage::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    CheckFileKey(s, file, "traffic.hpcc_flow_file");
}

bool
HpccFlowsStage::Enabled(const json& s) const
{
    return !Str(s, "traffic.hpcc_flow_file").empty();
}

void
HpccFlowsStage::Prepare(const json& s, uint32_t hosts)
{
    if (!Enabled(s))
    {
        return;
    }
    const std::string hpcc = Str(s, "traffic.hpcc_flow_file");
    SetFlows(HpccFlowReader::Read(hpcc, hosts, TopologyStage::For(s).HostIndexOfFileNode(s)),
             hpcc,
             Int(s, "nic.control_priority"));
}

std::vector<ScenarioKey>
HpccFlowsStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"traffic.hpcc_flow_file", T::STRING, "", 0, 0, {}, "path", "The HPCC simulator's flow.txt (a count, then 'src dst priority dport bytes start_s' lines) as plain flows; node ids as in an hpcc_file topology, else host indices. Relative to the scenario file; empty = none."},
    };
    // clang-format on
}

void
HpccFlowsStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    const double n = SizeGuard::DataLines(Str(s, "traffic.hpcc_flow_file"));
    e.AddFlows(n, n, "traffic.hpcc_flow_file");
}

} // namespace ns3
