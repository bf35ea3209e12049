/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/serialization-clock.h"

#include "ns3/fatal-error.h"
#include "ns3/ns3-compat.h"

namespace ns3
{

SerializationClock::SerializationClock(uint64_t bitRate)
    : m_bitRate(bitRate),
      m_remainder(0)
{
}

void
SerializationClock::SetBitRate(uint64_t bitRate)
{
    m_bitRate = bitRate;
    m_remainder = 0;
}

uint64_t
SerializationClock::GetBitRate() const
{
    return m_bitRate;
}

void
SerializationClock::RateNotSet()
{
    NS_FATAL_ERROR("SerializationClock: bit rate not set");
}

uint64_t
SerializationClock::Picoseconds(uint64_t bytes, uint64_t bitRate)
{
    // 128-bit product: bytes * 8e12 overflows 64 bits above ~2.3 MB.
    return static_cast<uint64_t>(static_cast<compat::Uint128>(bytes) * 8 * 1000000000000ULL /
                                 bitRate);
}

} // namespace ns3
