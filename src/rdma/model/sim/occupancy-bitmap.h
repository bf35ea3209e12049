/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_OCCUPANCY_BITMAP_H
#define RDMA_OCCUPANCY_BITMAP_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Which of \p N slots are occupied, in two levels: a bit per slot, and a summary bit per
 * 64-bit word of slots that is not zero. The first occupied slot at or after any slot is
 * then found in a few word operations, however sparse the slots are (EventWheel: its
 * non-empty buckets).
 */
template <uint32_t N>
class OccupancyBitmap
{
  public:
    static_assert(N % 4096 == 0, "whole summary words");

    /// What FirstSetFrom and FirstSetCircular return when no slot is occupied.
    static constexpr uint32_t kNone = ~0u;

    OccupancyBitmap()
        : m_bits(N / 64, 0)
    {
    }

    /// Slot \p b (< N) is occupied.
    void Set(uint32_t b)
    {
        m_bits[b / 64] |= uint64_t(1) << (b % 64);
        m_summary[b / 4096] |= uint64_t(1) << ((b / 64) % 64);
    }

    /// Slot \p b (< N) is free.
    void Clear(uint32_t b)
    {
        m_bits[b / 64] &= ~(uint64_t(1) << (b % 64));
        if (m_bits[b / 64] == 0)
        {
            m_summary[b / 4096] &= ~(uint64_t(1) << ((b / 64) % 64));
        }
    }

    /// The first occupied slot at or after \p from (< N), wrapping around, or kNone.
    uint32_t FirstSetCircular(uint32_t from) const
    {
        const uint32_t b = FirstSetFrom(from);
        return b != kNone ? b : FirstSetFrom(0);
    }

    /// The first occupied slot at or after \p from (< N), no wrap, or kNone.
    uint32_t FirstSetFrom(uint32_t from) const
    {
        uint32_t word = from / 64;
        const uint64_t bits = m_bits[word] & (~uint64_t(0) << (from % 64));
        if (bits != 0)
        {
            return word * 64 + __builtin_ctzll(bits);
        }
        // Whole words after it, through the summary (bit w: word w non-empty).
        ++word;
        for (uint32_t s = word / 64; s < kSummaryWords; ++s)
        {
            const uint64_t mask = s == word / 64 ? ~uint64_t(0) << (word % 64) : ~uint64_t(0);
            const uint64_t words = m_summary[s] & mask;
            if (words != 0)
            {
                const uint32_t w = s * 64 + __builtin_ctzll(words);
                return w * 64 + __builtin_ctzll(m_bits[w]);
            }
        }
        return kNone;
    }

  private:
    static constexpr uint32_t kSummaryWords = N / 64 / 64;

    std::vector<uint64_t> m_bits;           ///< bit b: slot b is occupied
    uint64_t m_summary[kSummaryWords] = {}; ///< bit w: m_bits[w] is not zero
};

} // namespace ns3

#endif /* RDMA_OCCUPANCY_BITMAP_H */
