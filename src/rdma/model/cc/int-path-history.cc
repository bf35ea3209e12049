/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/int-path-history.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IntPathHistory");

namespace
{

/// Wrap periods of the INT counters: 2^24 ns for the timestamp, 2^20 x 128 bytes for the
/// byte counter (the time that takes depends on the hop's rate).
constexpr double kTsWrapNs = double(1ULL << IntHop::kTsBits);
constexpr double kTxWrapBits = double(1ULL << IntHop::kTxBits) * IntHop::kTxUnit * 8;

} // namespace

void
IntPathHistory::Reset()
{
    m_started = false;
    m_nHops = 0;
}

void
IntPathHistory::Store(const CcAck& ack, uint32_t n, Time now)
{
    for (uint32_t i = 0; i < n; ++i)
    {
        m_hops[i] = IntHop(ack.intStack[i]);
    }
    m_nHops = n;
    m_lastIntAck = now;
    m_started = true;
}

bool
IntPathHistory::IsTooOld(Time now) const
{
    const double gapNs = double((now - m_lastIntAck).GetNanoSeconds());
    for (uint32_t i = 0; i < m_nHops; ++i)
    {
        const double txWrapNs = kTxWrapBits / double(m_hops[i].bitRate) * 1e9;
        if (gapNs >= std::min(kTsWrapNs, txWrapNs) / 4)
        {
            NS_LOG_LOGIC("INT records " << gapNs << " ns old: re-stored");
            return true;
        }
    }
    return false;
}

} // namespace ns3
