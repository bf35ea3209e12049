/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/leaf-spine-helper.h"

namespace ns3
{

void
LeafSpineHelper::Build(RdmaTopology& topo) const
{
    std::vector<uint32_t> hostIds;
    for (uint32_t i = 0; i < leaves * hostsPerLeaf; ++i)
    {
        hostIds.push_back(topo.AddHost());
    }
    std::vector<uint32_t> leafIds;
    for (uint32_t l = 0; l < leaves; ++l)
    {
        leafIds.push_back(topo.AddSwitch("leaf"));
    }
    std::vector<uint32_t> spineIds;
    for (uint32_t s = 0; s < spines; ++s)
    {
        spineIds.push_back(topo.AddSwitch("spine"));
    }
    for (uint32_t i = 0; i < hostIds.size(); ++i)
    {
        topo.AddLink(hostIds[i], leafIds[i / hostsPerLeaf], hostRate, hostDelay);
    }
    for (uint32_t leaf : leafIds)
    {
        for (uint32_t spine : spineIds)
        {
            for (uint32_t k = 0; k < linksPerSpine; ++k)
            {
                topo.AddLink(leaf, spine, fabricRate, fabricDelay);
            }
        }
    }
}

double
LeafSpineHelper::Oversubscription() const
{
    return double(hostsPerLeaf) * hostRate.GetBitRate() /
           (double(spines) * linksPerSpine * fabricRate.GetBitRate());
}

} // namespace ns3
