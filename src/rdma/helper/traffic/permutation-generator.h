/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PERMUTATION_GENERATOR_H
#define RDMA_PERMUTATION_GENERATOR_H

#include "ns3/flow-spec.h"
#include "ns3/random-variable-stream.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Permutation traffic, the load-balancing benchmark: every host sends one message to a
 * distinct host and receives one; with hostsPerLeaf > 0, never to a host under its own
 * leaf, so all traffic crosses the spines. Random, seeded.
 */
class PermutationGenerator
{
  public:
    uint32_t hosts = 8;
    uint32_t hostsPerLeaf = 0; ///< 0: no leaf constraint (a star)
    uint64_t messageBytes = 1000000;
    Time start;
    uint8_t priority = 3;

    /// The destination of each host (a permutation without fixed points).
    std::vector<uint32_t> Destinations(Ptr<UniformRandomVariable> rng) const;
    std::vector<FlowSpec> Generate(Ptr<UniformRandomVariable> rng) const;
};

} // namespace ns3

#endif /* RDMA_PERMUTATION_GENERATOR_H */
