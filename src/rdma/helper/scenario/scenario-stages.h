/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_STAGES_H
#define RDMA_SCENARIO_STAGES_H

#include "ns3/scenario-key.h"
#include "ns3/size-guard.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Every stage of a run, asked in the order of a run: the one place that knows all the
 * kinds of stage (the FabricStage, the TopologyStage list, the TrafficStage list, the
 * OutputDescription). The stage framework (helper/stage) knows none of them; the schema
 * and the size guard of the runner ask this class.
 */
class ScenarioStages
{
  public:
    /// The keys of every stage: the topologies, the fabric, the traffic sources (by
    /// order), the outputs.
    static std::vector<ScenarioKey> Keys();

    /**
     * The estimate of a resolved \p scenario (not yet checked): the fabric, its topology,
     * every traffic source (by order), the memory of their QPs and flows, the outputs.
     */
    static SizeGuard::Estimate Estimate(const nlohmann::json& scenario);
};

} // namespace ns3

#endif /* RDMA_SCENARIO_STAGES_H */
