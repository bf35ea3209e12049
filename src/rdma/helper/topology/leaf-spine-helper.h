/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LEAF_SPINE_HELPER_H
#define RDMA_LEAF_SPINE_HELPER_H

#include "ns3/rdma-topology.h"

namespace ns3
{

/**
 * \ingroup rdma
 * A two-tier Clos: every leaf (ToR) connects to every spine with `linksPerSpine`
 * parallel links, and to `hostsPerLeaf` hosts. Oversubscription of a leaf is
 * hostsPerLeaf x hostRate / (spines x linksPerSpine x fabricRate). Any rates and delays.
 * Hosts are created first (host i under leaf i / hostsPerLeaf), then leaves, then spines.
 */
class LeafSpineHelper
{
  public:
    uint32_t leaves = 2;
    uint32_t spines = 2;
    uint32_t hostsPerLeaf = 4;
    uint32_t linksPerSpine = 1;
    DataRate hostRate = DataRate("100Gb/s");
    Time hostDelay = MicroSeconds(1);
    DataRate fabricRate = DataRate("100Gb/s");
    Time fabricDelay = MicroSeconds(1);

    void Build(RdmaTopology& topo) const;
    double Oversubscription() const;
};

} // namespace ns3

#endif /* RDMA_LEAF_SPINE_HELPER_H */
