/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rtt-probe-path-trend.h"

namespace ns3
{

void
RttProbePathTrend::Note(const Point& p, Time span)
{
    if (m_count > 0 && p.sent < m_ring[m_head].sent + span)
    {
        return;
    }
    m_head = (m_head + 1) % m_ring.size();
    m_ring[m_head] = p;
    if (m_count < m_ring.size())
    {
        ++m_count;
    }
}

bool
RttProbePathTrend::Reference(const Point& p, Time span, Point& ref) const
{
    for (uint8_t i = 0; i < m_count; ++i)
    {
        const Point& q = m_ring[(m_head + m_ring.size() - i) % m_ring.size()];
        if (q.sent + span <= p.sent)
        {
            ref = q;
            return true;
        }
    }
    return false;
}

} // namespace ns3
