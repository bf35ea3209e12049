/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/permutation-generator.h"

#include "ns3/abort.h"

#include <numeric>

namespace ns3
{

std::vector<uint32_t>
PermutationGenerator::Destinations(Ptr<UniformRandomVariable> rng) const
{
    auto group = [this](uint32_t h) { return hostsPerLeaf > 0 ? h / hostsPerLeaf : h; };
    NS_ABORT_MSG_IF(hostsPerLeaf > 0 && hostsPerLeaf * 2 > hosts,
                    "PermutationGenerator: needs at least two leaves");
    std::vector<uint32_t> dst(hosts);
    std::iota(dst.begin(), dst.end(), 0);
    // Fisher-Yates, then repair: swap each host that maps into its own leaf (or to
    // itself) with a random partner for which the swap removes the conflict on both
    // sides. Terminates quickly: most partners qualify.
    for (uint32_t i = hosts - 1; i > 0; --i)
    {
        std::swap(dst[i], dst[rng->GetInteger(0, i)]);
    }
    for (uint32_t i = 0; i < hosts; ++i)
    {
        while (group(dst[i]) == group(i))
        {
            const uint32_t j = rng->GetInteger(0, hosts - 1);
            if (group(dst[j]) != group(i) && group(dst[i]) != group(j))
            {
                std::swap(dst[i], dst[j]);
            }
        }
    }
    return dst;
}

std::vector<FlowSpec>
PermutationGenerator::Generate(Ptr<UniformRandomVariable> rng) const
{
    std::vector<FlowSpec> flows;
    const std::vector<uint32_t> dst = Destinations(rng);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        FlowSpec f;
        f.src = h;
        f.dst = dst[h];
        f.bytes = messageBytes;
        f.start = start;
        f.priority = priority;
        f.kind = FlowKind::PERMUTATION;
        flows.push_back(f);
    }
    return flows;
}

} // namespace ns3
