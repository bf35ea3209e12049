/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RUN_RECORDER_H
#define RDMA_RUN_RECORDER_H

#include "ns3/traffic-driver.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Writes the run's event files as the simulation produces them: one fct.csv row per
 * completed message (TrafficDriver records), one pfc.csv row per PFC frame a switch
 * sends (RdmaSwitch "Pfc" trace); keeps the probe latencies and those of small flows for
 * the summary.
 */
class RunRecorder
{
  public:
    /**
     * Write the headers of \p fct and \p pfc. With \p eventOrder (a rank's part of a run
     * over MPI ranks whose events are ordered by node), each row ends with one more
     * column, event_order: the uid of the event that wrote it (of a record: of its
     * completion), which RankMerge orders the rows of one instant by, then drops.
     */
    RunRecorder(std::ostream& fct, std::ostream& pfc, bool eventOrder = false);

    /// One completed message (TrafficDriver record callback).
    void OnRecord(const TrafficDriver::Record& r);
    /// A PFC frame sent by \p port of switch \p node (RdmaSwitch::PfcEvent \p event).
    void OnPfc(uint32_t node, uint32_t port, uint8_t prio, uint8_t event);
    /// The PFC watchdog of switch \p node declared egress (\p port, \p prio) stormed
    /// (\p stormed) or restored: a pfc.csv row "storm_detected" or "storm_restored".
    void OnStorm(uint32_t node, uint32_t port, uint8_t prio, bool stormed);

    /// Completion times of the latency probes so far (ns).
    const std::vector<int64_t>& GetProbeFcts() const;
    /// Completion times of the other messages of at most kSmallFlowBytes so far (ns).
    const std::vector<int64_t>& GetSmallFlowFcts() const;

    /// The largest message the summary counts as a small flow (bytes): a few packets,
    /// a request or a completion rather than a transfer.
    static constexpr uint64_t kSmallFlowBytes = 4096;

  private:
    /// The end of a row: its event_order column if kept, and the newline.
    void EndRow(std::ostream& out, uint32_t order) const;

    std::ostream& m_fct;
    std::ostream& m_pfc;
    bool m_eventOrder;
    std::vector<int64_t> m_probeFct;
    std::vector<int64_t> m_smallFct;
};

} // namespace ns3

#endif /* RDMA_RUN_RECORDER_H */
