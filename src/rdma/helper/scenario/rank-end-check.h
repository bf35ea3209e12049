/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RANK_END_CHECK_H
#define RDMA_RANK_END_CHECK_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traffic-driver.h"

#include <cstdint>
#include <deque>
#include <utility>

namespace ns3
{

/**
 * \ingroup rdma
 * The end of a run split over MPI ranks: it stops every rank once every rank's flows
 * have completed, and the probes posted before that, at the same simulated time on all
 * of them.
 *
 * A serial run stops when its last flow completes. A rank cannot: its own flows may be
 * done while frames of other ranks' flows still cross its switches. So every \p period
 * of simulated time (the same instants on every rank) each rank starts a non-blocking
 * maximum over the ranks (RdmaRanks::StartMax) of its progress
 * (TrafficDriver::GetRankProgress): "foreground not done yet", "my foreground's last
 * completion", and the post time of its oldest probe in flight; it reads finished
 * reductions at its later checks. The first reduction that says every rank's foreground
 * was done gives the foreground's end (TrafficDriver::SetForegroundEnd: probes stop, and
 * those posted later are not reported). The first that also says no probe posted before
 * that end was in flight decides: all ranks stop \p grace plus half a period after its
 * instant (off the check grid, so that every rank has started the same reductions). A
 * rank that reaches that grace without the reduction's result waits for it; every rank
 * has then passed the reduction's instant, so under either ns-3 engine (granted-time
 * windows or null messages) the others can reach it.
 *
 * The run's end time is the last completion reported on any rank (what a serial run
 * ends at); the ranks simulate on until the stop, and what they count in that tail
 * (late acknowledgements, PFC resumes, probes posted after the foreground's end) is the
 * one difference from a serial run's counters.
 */
class RankEndCheck
{
  public:
    /**
     * \param driver the run's traffic driver (started)
     * \param period time between two checks (> 0)
     * \param grace time after a deciding check at which every rank stops
     */
    RankEndCheck(TrafficDriver& driver, Time period, Time grace);

    /// Schedule the checks; call before Simulator::Run.
    void Start();
    /**
     * After the run: finish the reductions still in flight (every rank started them),
     * and agree on the last completion. Collective.
     */
    void Finish();
    /**
     * After Finish: the run's end, the last completion on any rank if every flow
     * completed, else \p stopped (the time the run was stopped at, the same everywhere).
     */
    Time GetEnd(Time stopped) const;

  private:
    void Check();
    /// Read the oldest reductions that have finished; \p now decides whether to wait.
    void ReadReductions(Time now);

    TrafficDriver& m_driver;
    Time m_period;
    Time m_grace;
    bool m_started;
    bool m_foregroundEnded; ///< the driver has its end (SetForegroundEnd)
    bool m_decided;
    Time m_end;
    std::deque<std::pair<uint32_t, Time>> m_pending; ///< (handle, instant), oldest first
    EventId m_event;
};

} // namespace ns3

#endif /* RDMA_RANK_END_CHECK_H */
