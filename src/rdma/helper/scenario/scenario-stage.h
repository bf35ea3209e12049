/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_STAGE_H
#define RDMA_SCENARIO_STAGE_H

#include "ns3/scenario-schema.h"
#include "ns3/size-guard.h"

#include <cstdint>
#include <memory>
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
 * and it registers itself with its kind's list (StageRegistration). The runner calls
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
    virtual std::vector<ScenarioSchema::Key> Keys() const;

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

/**
 * \ingroup rdma
 * The stages of one kind (\p Base: TopologyStage, TrafficStage), each registered once by
 * a StageRegistration in its own file, in the manner of PluginRegistry's controllers.
 * The rank orders them: a traffic source's rank fixes the flow ids and random streams it
 * takes, so ranks of shipped stages must not change (outputs would).
 */
template <class Base>
class StageList
{
  public:
    /// Makes one stage.
    using Factory = std::unique_ptr<Base> (*)();

    /// Register \p make at \p rank (ranks are unique within a kind).
    static void Add(int rank, Factory make);

    /// A new instance of every registered stage, by rank.
    static std::vector<std::unique_ptr<Base>> Create();

  private:
    struct Entry
    {
        int rank;
        Factory make;
    };

    /// Built on first use, so that registrations from any file's static initialisation
    /// find it constructed. Defined (and the lists instantiated) in the library only, so
    /// that a stage registered from another binary (a test's) joins the same list.
    static std::vector<Entry>& Entries();
};

/**
 * \ingroup rdma
 * Registers the stage \p T with the list of \p Base: one static instance in T's file,
 * `static const StageRegistration<TrafficStage, ProbeStage> g_probeStage(80);`.
 */
template <class Base, class T>
struct StageRegistration
{
    /// \param rank the stage's place in its list (see StageList)
    explicit StageRegistration(int rank)
    {
        StageList<Base>::Add(rank, []() -> std::unique_ptr<Base> { return std::make_unique<T>(); });
    }
};

} // namespace ns3

#endif /* RDMA_SCENARIO_STAGE_H */
