/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rtt-probe-start-budget.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

RttProbeStartBudget::RttProbeStartBudget(double rate, double burst)
    : m_rate(rate),
      m_burst(burst),
      m_due(Time::Min()) // full from the start
{
}

Time
RttProbeStartBudget::Reserve(Time now, uint32_t wireBytes)
{
    // m_due is when the bucket would hold nothing, given what it has granted; it is full
    // (Burst bytes) once that lies the burst's worth of time in the past.
    // (Both rounded alike, so that a bucket one packet deep lets one packet go now.)
    const Time burst = NanoSeconds(std::llround(m_burst * 8 / m_rate * 1e9));
    const Time empty = std::max(m_due, now - burst);
    m_due = empty + NanoSeconds(std::llround(wireBytes * 8 / m_rate * 1e9));
    // The packet may leave once the bucket holds its bytes.
    return std::max(now, m_due);
}

} // namespace ns3
