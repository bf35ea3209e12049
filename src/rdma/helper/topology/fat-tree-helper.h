/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FAT_TREE_HELPER_H
#define RDMA_FAT_TREE_HELPER_H

#include "ns3/rdma-topology.h"

namespace ns3
{

/**
 * \ingroup rdma
 * A three-tier Clos (fat-tree): `pods` pods, each with `torsPerPod` ToRs and
 * `aggsPerPod` aggregation switches, every ToR linked to every aggregation switch of its
 * pod; `cores` core switches in `aggsPerPod` groups, aggregation switch j of every pod
 * linked to each core of group j (cores / aggsPerPod of them). `hostsPerTor` hosts
 * under each ToR.
 *
 * SetK(k) makes the classic k-ary fat-tree: k pods of k/2 ToRs and k/2 aggregation
 * switches, k/2 hosts per ToR, (k/2)^2 cores: k^3/4 hosts, non-blocking at equal rates.
 * The HPCC paper's fabric is pods = 5, torsPerPod = aggsPerPod = 4, hostsPerTor = 16,
 * cores = 16, hosts at 100G and fabric links at 400G (320 hosts).
 *
 * Hosts are created first (host i under ToR i / hostsPerTor, ToR t in pod
 * t / torsPerPod), then ToRs (kind "tor"), aggregation ("agg") and core ("core").
 * torAggLinks and aggCoreLinks (default 1) bundle parallel links between two switches
 * (htsim's Bundle of tiers 1 and 2).
 */
class FatTreeHelper
{
  public:
    uint32_t pods = 4;
    uint32_t torsPerPod = 2;
    uint32_t aggsPerPod = 2;
    uint32_t hostsPerTor = 2;
    uint32_t cores = 4;
    uint32_t torAggLinks = 1;  ///< parallel links between a ToR and each aggregation switch
    uint32_t aggCoreLinks = 1; ///< parallel links between an aggregation switch and each core
    DataRate hostRate = DataRate("100Gb/s");
    Time hostDelay = MicroSeconds(1);
    DataRate torAggRate = DataRate("100Gb/s");
    DataRate aggCoreRate = DataRate("100Gb/s");
    Time fabricDelay = MicroSeconds(1);

    /// The k-ary fat-tree (k even, >= 2).
    void SetK(uint32_t k);
    uint32_t Hosts() const;
    /// Whether the shape is valid: cores a non-zero multiple of aggsPerPod, all > 0.
    bool IsValid() const;
    void Build(RdmaTopology& topo) const;
    /// Host bandwidth under a ToR over its uplink bandwidth.
    double TorOversubscription() const;
};

} // namespace ns3

#endif /* RDMA_FAT_TREE_HELPER_H */
