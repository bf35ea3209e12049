/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rank-end-check.h"

#include "ns3/rdma-ranks.h"
#include "ns3/simulator.h"

#include <vector>

namespace ns3
{

RankEndCheck::RankEndCheck(const TrafficDriver& driver, Time period, Time grace)
    : m_driver(driver),
      m_period(period),
      m_grace(grace),
      m_localDone(false),
      m_decided(false)
{
}

void
RankEndCheck::Start()
{
    // A rank with no flow of its own is done from the start.
    m_localDone = m_driver.GetLocalFlows() == 0;
    m_event = Simulator::Schedule(m_period, &RankEndCheck::Check, this);
}

void
RankEndCheck::LocalDone()
{
    m_localDone = true;
    m_localEnd = Simulator::Now();
}

void
RankEndCheck::Check()
{
    const Time now = Simulator::Now();
    m_pending.emplace_back(RdmaRanks::StartMax({m_localDone ? 0 : 1, m_localEnd.GetTimeStep()}),
                           now);
    ReadReductions(now);
    m_event = Simulator::Schedule(m_period, &RankEndCheck::Check, this);
}

void
RankEndCheck::ReadReductions(Time now)
{
    while (!m_pending.empty())
    {
        const auto [handle, instant] = m_pending.front();
        std::vector<int64_t> all;
        if (!RdmaRanks::FinishMax(handle, !m_decided && now >= instant + m_grace, &all))
        {
            return;
        }
        m_pending.pop_front();
        if (!m_decided && all[0] == 0)
        {
            m_decided = true;
            m_end = TimeStep(all[1]);
            const Time stop = instant + m_grace + m_period / 2;
            Simulator::Stop(stop - now);
        }
    }
}

void
RankEndCheck::Finish()
{
    m_event.Cancel();
    while (!m_pending.empty())
    {
        std::vector<int64_t> all;
        RdmaRanks::FinishMax(m_pending.front().first, true, &all);
        m_pending.pop_front();
    }
}

Time
RankEndCheck::GetEnd(Time stopped) const
{
    return m_decided ? m_end : stopped;
}

} // namespace ns3
