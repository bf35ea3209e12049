/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_STAGE_H
#define RDMA_SCENARIO_STAGE_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * One part of a scenario: the keys it owns and what it does with them. ScenarioRunner is
 * a pipeline of stages (the fabric, one topology, the traffic sources, the outputs) and
 * calls each at every step of a run, in this order:
 *
 *  1. ResolvePaths: make the stage's file keys absolute (relative to the scenario file);
 *  2. Resolve: fill the stage's derived (null) keys from the others;
 *  3. Check: cross-key checks, against the topology's host count;
 *
 * then the steps of its kind (TopologyStage, TrafficStage, FabricStage). Steps 1-3 and
 * the reading of input files happen before any output exists: every input error is a
 * ScenarioError naming the file, the key and the value, and nothing is written.
 */
class ScenarioStage
{
  public:
    virtual ~ScenarioStage() = default;

    /**
     * Make the stage's file keys absolute.
     * \param scenario the validated scenario, updated
     * \param file the scenario file the keys are relative to
     */
    virtual void ResolvePaths(nlohmann::json& scenario, const std::string& file) const;

    /**
     * Fill the stage's derived (null) keys from the others.
     * \param scenario the validated scenario, updated
     * \param file the scenario file (for error messages)
     */
    virtual void Resolve(nlohmann::json& scenario, const std::string& file) const;

    /**
     * Cross-key checks. Throws ScenarioError naming \p file, the key and the value.
     * \param scenario the resolved scenario
     * \param file the scenario file (for error messages)
     * \param hosts the number of hosts of the scenario's topology
     */
    virtual void Check(const nlohmann::json& scenario,
                       const std::string& file,
                       uint32_t hosts) const;
};

} // namespace ns3

#endif /* RDMA_SCENARIO_STAGE_H */
