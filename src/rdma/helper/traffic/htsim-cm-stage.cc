/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/flow-list-stage.h"
#include "ns3/htsim-cm-reader.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.htsim_cm: a connection matrix of htsim (HtsimCmReader; its hosts are the
 * topology's host indices), relative to the scenario file; read in Prepare, so its errors
 * come before any output. Owns the key traffic.htsim_cm.
 */
class HtsimCmStage : public FileFlowListStage
{
  public:
    HtsimCmStage()
        : FileFlowListStage("traffic.htsim_cm")
    {
    }

    /// The key traffic.htsim_cm.
    std::vector<ScenarioKey> Keys() const override;
    /// Read the matrix (errors: file:line).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
// The order in which the sources add their flows (flow ids, streams).
const StageRegistration<TrafficStage, HtsimCmStage> g_stage(45);
} // namespace

void
HtsimCmStage::Prepare(const json& s, uint32_t hosts)
{
    if (!Enabled(s))
    {
        return;
    }
    const std::string cm = Str(s, "traffic.htsim_cm");
    SetFlows(HtsimCmReader::Read(cm, hosts), cm, Int(s, "nic.control_priority"));
}

std::vector<ScenarioKey>
HtsimCmStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"traffic.htsim_cm", T::STRING, "", 0, 0, {}, "path", "A connection matrix of htsim (uet-htsim's connection_matrices/*.cm: 'Nodes N', 'Connections C', then 'a->b start <us> size <bytes>' lines, optionally 'id I') as plain flows; hosts are host indices. Triggers, failures, 'msg' and 'prio' are refused. Relative to the scenario file; empty = none."},
    };
    // clang-format on
}

} // namespace ns3
