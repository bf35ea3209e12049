/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SERIALIZATION_CLOCK_H
#define SERIALIZATION_CLOCK_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Serialization times at a fixed bit rate that do not drift.
 *
 * ns-3 counts time in whole nanoseconds: a 1048-byte frame at 100 Gb/s takes 83.84 ns,
 * and truncating it to 83 ns makes the link 1% fast (4.6% at 400 Gb/s). This clock
 * returns whole nanoseconds but carries the remainder (kept exactly, as a numerator over
 * the bit rate) into the next frame, so that N frames take exactly as long as one frame
 * of N times the size, to within one nanosecond.
 */
class SerializationClock
{
  public:
    explicit SerializationClock(uint64_t bitRate = 0);

    /// Change the rate; the carried remainder is dropped (it is below 1 ns).
    void SetBitRate(uint64_t bitRate);
    uint64_t GetBitRate() const;

    /// Time to put \p bytes on the link, in whole ns, with the remainder carried. (Inline:
    /// a port calls it for every frame it sends.)
    Time Next(uint32_t bytes)
    {
        return NanoSeconds(NextNs(bytes));
    }

    /// Next, in nanoseconds.
    uint64_t NextNs(uint32_t bytes)
    {
        if (m_bitRate == 0)
        {
            RateNotSet();
        }
        // bits * 1e9 / rate = ns; 9 KB jumbo frames stay far below 2^64 here.
        const uint64_t numerator = uint64_t(bytes) * 8 * 1000000000ULL + m_remainder;
        m_remainder = numerator % m_bitRate;
        return numerator / m_bitRate;
    }

    /// Exact time in picoseconds (truncated) to send \p bytes at \p bitRate; no state.
    static uint64_t Picoseconds(uint64_t bytes, uint64_t bitRate);

  private:
    /// Next without a rate: a fatal error.
    [[noreturn]] static void RateNotSet();

    uint64_t m_bitRate;   ///< bits per second
    uint64_t m_remainder; ///< carried fraction of a ns, as a numerator over m_bitRate
};

} // namespace ns3

#endif /* SERIALIZATION_CLOCK_H */
