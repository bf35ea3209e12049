/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TOPOLOGY_STAGE_H
#define RDMA_TOPOLOGY_STAGE_H

#include "ns3/rdma-topology.h"
#include "ns3/scenario-stage.h"
#include "ns3/stage-list.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * What workload generators need to know about a fabric before it is built: the rack
 * (ToR) of every host, the rate of every host's link and of every rack's uplinks.
 */
struct FabricShape
{
    std::vector<uint32_t> rackOf;          ///< per host index
    std::vector<double> hostBitRate;       ///< per host index
    std::vector<double> rackUplinkBitRate; ///< per rack

    /**
     * Racks of \p perRack hosts each, in host order.
     * \param hosts the number of hosts
     * \param perRack hosts under each rack (ToR)
     * \param hostBitRate every host link's rate (bit/s)
     * \param uplinkBitRate every rack's total uplink rate (bit/s; 0: no uplinks)
     */
    static FabricShape Uniform(uint32_t hosts,
                               uint32_t perRack,
                               double hostBitRate,
                               double uplinkBitRate);
};

/**
 * \ingroup rdma
 * A scenario stage that builds one family of fabrics (topology.type): star, leaf_spine,
 * fat_tree, or a topology file (file, hpcc_file). Exactly one stage handles each type;
 * the runner asks it for its size estimate (from its keys, before anything else), the
 * host count (checks), then has it add the hosts, switches and links to the RdmaTopology
 * the FabricStage configured. Traffic stages ask it for the fabric's shape.
 *
 * A new topology is one file: a subclass declaring its types, its keys, its estimate
 * (ScenarioStage) and its shape, registered with `static const
 * StageRegistration<TopologyStage, T> g_stage(ORDER);`. The choices of topology.type are
 * the types of the registered stages.
 */
class TopologyStage : public ScenarioStage
{
  public:
    /// One value of topology.type and what it builds (for the key's documentation).
    struct Type
    {
        std::string name;
        std::string doc;
    };

    /// The topology.type values this stage builds.
    virtual std::vector<Type> Types() const = 0;
    /// Whether this stage builds \p scenario's topology.type (one of Types()).
    bool Handles(const nlohmann::json& scenario) const;
    /// The number of hosts the scenario's fabric has (before it is built).
    virtual uint32_t HostCount(const nlohmann::json& scenario) const = 0;
    /**
     * Add the scenario's nodes and links to \p topo (attributes set, not finalized).
     * \param scenario the resolved and checked scenario
     * \param topo the fabric to build into
     */
    virtual void Build(const nlohmann::json& scenario, RdmaTopology& topo) const = 0;
    /// Racks and rates of the scenario's fabric (before it is built).
    virtual FabricShape Shape(const nlohmann::json& scenario) const = 0;
    /**
     * Host index (-1: a switch) of each node id of a topology whose files name nodes by
     * their own ids (hpcc_file); empty (the default) where flow files name hosts by their
     * index.
     */
    virtual std::vector<int64_t> HostIndexOfFileNode(const nlohmann::json& scenario) const;

    /// Every topology stage (registered), by order.
    static const std::vector<std::unique_ptr<TopologyStage>>& All();
    /// The stage that handles \p scenario's topology.type (the schema admits no other).
    static const TopologyStage& For(const nlohmann::json& scenario);
    /// The shape of \p scenario's fabric: For(scenario).Shape(scenario).
    static FabricShape ShapeOf(const nlohmann::json& scenario);
    /// The keys every topology shares: topology.type (its choices: every stage's types),
    /// the host and fabric link rates and delays.
    static std::vector<ScenarioKey> CommonKeys();
    /// The keys of every topology: CommonKeys(), then each stage's, by order.
    static std::vector<ScenarioKey> AllKeys();
};

extern template class StageList<TopologyStage>; // instantiated in topology-stage.cc

} // namespace ns3

#endif /* RDMA_TOPOLOGY_STAGE_H */
