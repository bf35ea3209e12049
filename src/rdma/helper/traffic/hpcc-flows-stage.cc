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
class HpccFlowsStage : public FileFlowListStage
{
  public:
    HpccFlowsStage()
        : FileFlowListStage("traffic.hpcc_flow_file")
    {
    }

    /// The keys traffic.* of this source.
    std::vector<ScenarioKey> Keys() const override;
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

} // namespace ns3
