/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HASH_CONSTANTS_H
#define RDMA_HASH_CONSTANTS_H

#include <cstdint>

/**
 * \ingroup rdma
 * The multipliers of the module's integer hashes (ECMP, per-switch salts, host-side
 * entropy), named once. None is a tunable: any odd constant with well-mixed bits would
 * do; these are the published ones.
 */
namespace rdmahash
{

/// Knuth's multiplicative hash: 2^32 / golden ratio (TAOCP vol. 3, 6.4).
constexpr uint32_t kFibonacci32 = 2654435761u;
/// An odd 16-bit multiplier that mixes a second value in before kFibonacci32.
constexpr uint32_t kMix16 = 40503u;

/// splitmix64 (Steele, Lea and Flood, OOPSLA 2014): the golden-ratio increment and the
/// two multipliers of its finalizer, plus a second odd constant for a salt.
constexpr uint64_t kGolden64 = 0x9E3779B97F4A7C15ULL;
constexpr uint64_t kSplitMixMul1 = 0xBF58476D1CE4E5B9ULL;
constexpr uint64_t kSplitMixMul2 = 0x94D049BB133111EBULL;
constexpr uint64_t kSaltMul64 = 0xD1B54A32D192ED03ULL;

/// splitmix64's finalizer: \p z with its bits mixed (a bijection on 64 bits).
constexpr uint64_t
SplitMix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * kSplitMixMul1;
    z = (z ^ (z >> 27)) * kSplitMixMul2;
    return z ^ (z >> 31);
}

} // namespace rdmahash

#endif /* RDMA_HASH_CONSTANTS_H */
