/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/qp-scheduler.h"

namespace ns3
{

void
QpScheduler::PushReady(uint32_t qpn)
{
    m_ready.push_back(qpn);
}

bool
QpScheduler::PopReady(uint32_t& qpn)
{
    if (!PeekReady(qpn))
    {
        return false;
    }
    m_ready.pop_front();
    return true;
}

void
QpScheduler::PushWaiting(uint32_t qpn, uint64_t readyPs, uint32_t generation)
{
    m_waiting.push({readyPs, qpn, generation});
}

void
QpScheduler::Park(uint32_t qpn, uint8_t priority)
{
    m_parked[priority].push_back(qpn);
    m_parkedMask |= (1u << priority);
}

void
QpScheduler::Unpark(uint8_t pausedMask)
{
    uint8_t free = m_parkedMask & ~pausedMask;
    for (uint32_t c = 0; free != 0; ++c, free >>= 1)
    {
        if (free & 1)
        {
            for (uint32_t qpn : m_parked[c])
            {
                m_ready.push_back(qpn);
            }
            m_parked[c].clear();
            m_parkedMask &= ~(1u << c);
        }
    }
}

bool
QpScheduler::HasWaiting() const
{
    return !m_waiting.empty();
}

uint64_t
QpScheduler::NextWaitingPs() const
{
    return m_waiting.top().ps;
}

} // namespace ns3
