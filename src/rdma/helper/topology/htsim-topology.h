/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HTSIM_TOPOLOGY_H
#define RDMA_HTSIM_TOPOLOGY_H

#include "ns3/fat-tree-helper.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/rdma-topology.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * The fat-tree of htsim (uet-htsim, htsim/sim/datacenter/fat_tree_topology.cpp), either
 * read from one of its topology files (topologies/ *.topo) or htsim's default fabric for
 * a number of hosts (main_uec.cpp without -topo), built with FatTreeHelper (3 tiers) or
 * LeafSpineHelper (2 tiers).
 *
 * The file format (htsim's FatTreeTopologyCfg::read_cfg): a header of `Nodes N`,
 * `Tiers T` (2 or 3) and `Podsize P`, then one section per tier, `Tier t` (0: ToR, 1:
 * aggregation, 2: core), with the attributes `Downlink_speed_Gbps`, `Radix_Down`,
 * `Radix_Up` (not the top tier), `Downlink_Latency_ns`, `Switch_Latency_ns`,
 * `Oversubscribed`, `Bundle`, `Queue_Up`, `Queue_Down`; keywords in any case, `#`
 * comments. The shape follows htsim's set_custom_params: N / P pods, P / Radix_Down(0)
 * ToRs per pod; N x speed(0) / (speed(1) x Oversubscribed(0)) ToR uplinks, spread over
 * the pods' aggregation switches of Radix_Down(1) ports; with 3 tiers, the aggregation
 * uplinks (ToR uplinks x speed(1) / (speed(2) x Oversubscribed(1))) over cores of
 * Radix_Down(2) ports; Bundle(t): parallel links between a tier-t switch and each switch
 * below it. Every consistency check of htsim is made.
 *
 * What the module's fabric cannot hold is refused rather than approximated: per-tier
 * queue sizes (Queue_Up, Queue_Down: the module's switches take switch.buffer.*), a
 * non-zero Switch_Latency_ns, different latencies on tiers 1 and 2, and a Bundle on tier
 * 0. htsim's core wiring (aggregation switch j to cores j, j + A, j + 2A, ...) and
 * FatTreeHelper's (aggregation switch j to the j-th block of cores) differ only by the
 * cores' numbering. Every error throws ScenarioError naming file:line, the attribute and
 * its value.
 */
class HtsimTopology
{
  public:
    /// One tier's attributes as the file gives them (0: not given).
    struct Tier
    {
        uint64_t speedGbps = 0;
        uint32_t radixDown = 0;
        uint32_t radixUp = 0;
        int64_t latencyNs = -1; ///< -1: not given
        int64_t switchLatencyNs = 0;
        uint32_t oversubscribed = 1;
        uint32_t bundle = 1;
        int line = 0;                      ///< the `Tier t` line (0: no section)
        std::map<std::string, int> lineOf; ///< line of each attribute given (lower case)
    };

    /// Read and check \p path. Throws ScenarioError naming file:line.
    static HtsimTopology Read(const std::string& path);

    /**
     * htsim's default fabric (main_uec.cpp without -topo, FatTreeTopologyCfg::set_params)
     * for \p nodes hosts: \p tiers 3, the k-ary fat-tree with k^3 / 4 = nodes; \p tiers 2,
     * k leaves of k / 2 hosts under k / 2 spines, k^2 / 2 = nodes. Every link at
     * \p speedGbps and \p latencyNs. Throws ScenarioError (naming \p where) if no k fits.
     */
    static HtsimTopology Default(uint32_t nodes,
                                 uint32_t tiers,
                                 uint64_t speedGbps,
                                 int64_t latencyNs,
                                 const std::string& where);

    /**
     * The N of the `Nodes N` line of htsim connection matrix \p path (htsim sizes its
     * default fabric by it; the matrix's other lines are traffic.htsim_cm's). Throws
     * ScenarioError naming file:line if the line is missing or N is not a positive number.
     */
    static uint32_t MatrixNodes(const std::string& path);

    uint32_t Hosts() const;
    uint32_t Tiers() const;
    uint32_t HostsPerTor() const;
    uint32_t Switches() const;
    uint32_t Links() const;
    /// Host link rate (bit/s).
    double HostBitRate() const;
    /// Total rate of one ToR's uplinks (bit/s).
    double TorUplinkBitRate() const;
    /// One way host-to-host latency across the fabric's diameter, as htsim computes it
    /// (get_diameter_latency: 2 x the sum of the tiers' link latencies, ns).
    int64_t DiameterLatencyNs() const;
    /// 3 tiers: the fabric as FatTreeHelper.
    FatTreeHelper AsFatTree() const;
    /// 2 tiers: the fabric as LeafSpineHelper.
    LeafSpineHelper AsLeafSpine() const;
    /// Add the hosts, switches and links to \p topo.
    void Build(RdmaTopology& topo) const;

  private:
    /// Derive the shape from the tiers as htsim's set_custom_params does. Throws.
    void Derive(const std::string& path);

    uint32_t m_nodes = 0;
    uint32_t m_tiers = 0;
    uint32_t m_podsize = 0;
    std::array<Tier, 3> m_tier;
    uint32_t m_pods = 0;
    uint32_t m_torsPerPod = 0;
    uint32_t m_aggsPerPod = 0;
    uint32_t m_cores = 0;
};

} // namespace ns3

#endif /* RDMA_HTSIM_TOPOLOGY_H */
