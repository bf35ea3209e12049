/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/fat-tree-helper.h"

#include "ns3/abort.h"

namespace ns3
{

void
FatTreeHelper::SetK(uint32_t k)
{
    NS_ABORT_MSG_IF(k < 2 || k % 2, "FatTreeHelper: k must be even and >= 2");
    pods = k;
    torsPerPod = k / 2;
    aggsPerPod = k / 2;
    hostsPerTor = k / 2;
    cores = (k / 2) * (k / 2);
}

uint32_t
FatTreeHelper::Hosts() const
{
    return pods * torsPerPod * hostsPerTor;
}

bool
FatTreeHelper::IsValid() const
{
    return pods > 0 && torsPerPod > 0 && aggsPerPod > 0 && hostsPerTor > 0 && cores > 0 &&
           cores % aggsPerPod == 0 && torAggLinks > 0 && aggCoreLinks > 0;
}

void
FatTreeHelper::Build(RdmaTopology& topo) const
{
    NS_ABORT_MSG_IF(!IsValid(), "FatTreeHelper: cores must be a non-zero multiple of aggsPerPod");
    std::vector<uint32_t> hostIds;
    for (uint32_t i = 0; i < Hosts(); ++i)
    {
        hostIds.push_back(topo.AddHost());
    }
    std::vector<uint32_t> tors;
    for (uint32_t i = 0; i < pods * torsPerPod; ++i)
    {
        tors.push_back(topo.AddSwitch("tor"));
    }
    std::vector<uint32_t> aggs;
    for (uint32_t i = 0; i < pods * aggsPerPod; ++i)
    {
        aggs.push_back(topo.AddSwitch("agg"));
    }
    std::vector<uint32_t> coreIds;
    for (uint32_t i = 0; i < cores; ++i)
    {
        coreIds.push_back(topo.AddSwitch("core"));
    }
    for (uint32_t i = 0; i < hostIds.size(); ++i)
    {
        topo.AddLink(hostIds[i], tors[i / hostsPerTor], hostRate, hostDelay);
    }
    const uint32_t coresPerAgg = cores / aggsPerPod;
    for (uint32_t p = 0; p < pods; ++p)
    {
        for (uint32_t t = 0; t < torsPerPod; ++t)
        {
            for (uint32_t a = 0; a < aggsPerPod; ++a)
            {
                for (uint32_t l = 0; l < torAggLinks; ++l)
                {
                    topo.AddLink(tors[p * torsPerPod + t],
                                 aggs[p * aggsPerPod + a],
                                 torAggRate,
                                 fabricDelay);
                }
            }
        }
        for (uint32_t a = 0; a < aggsPerPod; ++a)
        {
            for (uint32_t c = 0; c < coresPerAgg; ++c)
            {
                for (uint32_t l = 0; l < aggCoreLinks; ++l)
                {
                    topo.AddLink(aggs[p * aggsPerPod + a],
                                 coreIds[a * coresPerAgg + c],
                                 aggCoreRate,
                                 fabricDelay);
                }
            }
        }
    }
}

double
FatTreeHelper::TorOversubscription() const
{
    return double(hostsPerTor) * hostRate.GetBitRate() /
           (double(aggsPerPod) * torAggLinks * torAggRate.GetBitRate());
}

} // namespace ns3
