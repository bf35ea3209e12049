/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/star-helper.h"

namespace ns3
{

void
StarHelper::Build(RdmaTopology& topo) const
{
    // Hosts first, so that host i is node i of the topology.
    std::vector<uint32_t> hostIds;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        hostIds.push_back(topo.AddHost());
    }
    const uint32_t sw = topo.AddSwitch();
    for (uint32_t h : hostIds)
    {
        topo.AddLink(h, sw, hostRate, hostDelay);
    }
}

} // namespace ns3
