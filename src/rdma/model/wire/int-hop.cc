/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/int-hop.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

bool
IntHop::IsEncodableRate(uint64_t bitRate)
{
    return std::find(std::begin(kRates), std::end(kRates), bitRate) != std::end(kRates);
}

uint64_t
IntHop::Pack(uint64_t bitRate, uint64_t timeNs, uint64_t txBytes, uint64_t qlenBytes)
{
    uint64_t code = 0;
    for (uint64_t i = 0; i < 8; ++i)
    {
        if (kRates[i] <= bitRate)
        {
            code = i; // the largest encodable rate not above the link's
        }
    }
    const uint64_t ts = timeNs & ((1ULL << kTsBits) - 1);
    const uint64_t tx = (txBytes / kTxUnit) & ((1ULL << kTxBits) - 1);
    const uint64_t qlen = std::min<uint64_t>(qlenBytes / kQlenUnit, (1ULL << kQlenBits) - 1);
    return code | (ts << 3) | (tx << (3 + kTsBits)) | (qlen << (3 + kTsBits + kTxBits));
}

IntHop::IntHop(uint64_t packed)
    : bitRate(kRates[packed & 7]),
      ts(static_cast<uint32_t>((packed >> 3) & ((1ULL << kTsBits) - 1))),
      tx(static_cast<uint32_t>((packed >> (3 + kTsBits)) & ((1ULL << kTxBits) - 1))),
      qlen(((packed >> (3 + kTsBits + kTxBits)) & ((1ULL << kQlenBits) - 1)) * kQlenUnit)
{
}

uint64_t
IntHop::TimeDelta(const IntHop& earlier) const
{
    return (ts - earlier.ts) & ((1ULL << kTsBits) - 1);
}

uint64_t
IntHop::TxDelta(const IntHop& earlier) const
{
    return ((tx - earlier.tx) & ((1ULL << kTxBits) - 1)) * uint64_t(kTxUnit);
}

} // namespace ns3
