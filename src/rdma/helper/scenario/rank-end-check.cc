/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rank-end-check.h"

#include "ns3/rdma-ranks.h"
#include "ns3/simulator.h"

#include <vector>

namespace ns3
{

RankEndCheck::RankEndCheck(TrafficDriver& driver, Time period, Time grace)
    : m_driver(driver),
      m_period(period),
      m_grace(grace),
      m_started(false),
      m_foregroundEnded(false),
      m_decided(false)
{
}

void
RankEndCheck::Start()
{
    m_started = true;
    m_event = Simulator::Schedule(m_period, &RankEndCheck::Check, this);
}

void
RankEndCheck::Check()
{
    const Time now = Simulator::Now();
    const TrafficDriver::RankProgress p = m_driver.GetRankProgress();
    // (A maximum of the negated post time is the minimum of the post times.)
    m_pending.emplace_back(RdmaRanks::StartMax({p.foregroundDone ? 0 : 1,
                                                p.foregroundEnd.GetTimeStep(),
                                                -p.oldestProbeInFlight.GetTimeStep()}),
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
        if (m_decided || all[0] != 0)
        {
            continue;
        }
        if (!m_foregroundEnded)
        {
            m_foregroundEnded = true;
            m_driver.SetForegroundEnd(TimeStep(all[1]));
        }
        if (-all[2] >= all[1])
        {
            m_decided = true;
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
    if (!m_started)
    {
        return;
    }
    if (!m_foregroundEnded)
    {
        // Stopped before the foreground's end: every probe was posted before it.
        m_driver.SetForegroundEnd(Time::Max());
    }
    std::vector<int64_t> last = {m_driver.GetLastRecordEnd().GetTimeStep()};
    RdmaRanks::AllReduce(last, RdmaRanks::Reduce::MAX);
    m_end = TimeStep(last[0]);
}

Time
RankEndCheck::GetEnd(Time stopped) const
{
    return m_decided ? m_end : stopped;
}

} // namespace ns3
