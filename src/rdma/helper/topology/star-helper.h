/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_STAR_HELPER_H
#define RDMA_STAR_HELPER_H

#include "ns3/rdma-topology.h"

namespace ns3
{

/**
 * \ingroup rdma
 * N hosts on one switch (the classic incast testbed).
 */
class StarHelper
{
  public:
    uint32_t hosts = 8;
    DataRate hostRate = DataRate("100Gb/s");
    Time hostDelay = MicroSeconds(1);

    /// Add the switch, hosts and links to \p topo (not finalized).
    void Build(RdmaTopology& topo) const;
};

} // namespace ns3

#endif /* RDMA_STAR_HELPER_H */
