/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_TOPOLOGY_H
#define RDMA_SCENARIO_TOPOLOGY_H

#include "ns3/rdma-topology.h"
#include "ns3/topology-stage.h"

#include <nlohmann/json.hpp>
#include <string>
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
};

/**
 * \ingroup rdma
 * The topology stage of the types read or generated beside star and leaf_spine: fat_tree
 * (FatTreeHelper), file (TopologyFile, the module's format) and hpcc_file (the HPCC
 * simulator's topology.txt); and the fabric shape of every type.
 */
class ScenarioTopology : public TopologyStage
{
  public:
    /// Make topology.file absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// Checks of the fat_tree keys and of the topology file. Throws ScenarioError.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    /// fat_tree, file, hpcc_file.
    std::vector<Type> Types() const override;
    /// topology.fat_tree.* and topology.file (ScenarioTopologyKeys).
    std::vector<ScenarioSchema::Key> Keys() const override;
    /// A fat-tree's counts from its keys; a file's from its counts (TopologyFile::Count).
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    /// Hosts of a type built here.
    uint32_t HostCount(const nlohmann::json& scenario) const override;
    /// Add the nodes and links of a type built here to \p topo (not finalized).
    void Build(const nlohmann::json& scenario, RdmaTopology& topo) const override;
    /// Racks and rates of any topology type.
    static FabricShape Shape(const nlohmann::json& scenario);
    /// Host index (-1: a switch) of each node id of an hpcc_file topology; empty for the
    /// other types, whose flow files name hosts by their index.
    static std::vector<int64_t> HostIndexOfHpccNode(const nlohmann::json& scenario);
};

} // namespace ns3

#endif /* RDMA_SCENARIO_TOPOLOGY_H */
