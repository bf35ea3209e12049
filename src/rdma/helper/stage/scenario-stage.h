/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_STAGE_H
#define RDMA_SCENARIO_STAGE_H

#include "ns3/scenario-key.h"
#include "ns3/size-guard.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * One part of a scenario: the keys it owns and what it does with them. ScenarioRunner is
 * a pipeline of stages (the fabric, one topology, the traffic sources, the outputs).
 *
 * A stage describes itself, so that adding one is one file (and its test):
 *
 *  - Keys: the keys it owns, with their type, range, default, unit and meaning
 *    (ScenarioSchema::Keys gathers them; docs/scenario-keys.md is generated from them);
 *  - Estimate: what it will cost (hosts, switches, links, QPs, flows, memory, output
 *    bytes), from its keys alone and cheaply (no fabric built, no list generated), so
 *    that SizeGuard refuses a scenario too large before anything else is done with it;
 *
 * and it registers itself with its kind's list (StageRegistration, stage-list.h). The runner calls
 * every stage at each step of a run, in this order:
 *
 *  1. ResolvePaths: make the stage's file keys absolute (relative to the scenario file);
 *  2. Resolve: fill the stage's derived (null) keys from the others;
 *  3. Estimate (through SizeGuard): refuse a scenario above the memory or output limits;
 *  4. Check: cross-key checks, against the topology's host count;
 *
 * then the steps of its kind (TopologyStage, TrafficStage, FabricStage). Steps 1-4 and
 * the reading of input files happen before any output exists: every input error is a
 * ScenarioError naming the file, the key and the value, and nothing is written.
 */
class ScenarioStage
{
  public:
    virtual ~ScenarioStage() = default;

    /// The keys this stage owns (none by default). Each key has exactly one owner.
    virtual std::vector<ScenarioKey> Keys() const;

    /**
     * Add this stage's share to \p estimate: the fabric (a topology stage), flows and QPs
     * (a traffic source), output files (the outputs). Must not build or generate
     * anything, nor fail on keys that Check would refuse (Check reports those): a file
     * that cannot be read counts as empty. The stages are asked in the order fabric,
     * topology, traffic, outputs, so a later one may use what an earlier one added.
     * \param scenario the resolved, not yet checked scenario
     * \param estimate the estimate so far, updated
     */
    virtual void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const;

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
