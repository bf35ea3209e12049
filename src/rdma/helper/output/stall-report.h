/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_STALL_REPORT_H
#define RDMA_STALL_REPORT_H

#include "ns3/rdma-topology.h"
#include "ns3/traffic-driver.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * What a run left unfinished: every foreground flow that did not complete, with the
 * payload bytes acknowledged so far (unfinished.csv), their count and the time new data
 * last reached a receiver (summary.json), and whether the run stalled: nothing new
 * delivered for at least StallThreshold() before the end while flows were unfinished.
 *
 * It only listens (the driver's completions) and reads the NICs' counters at the end
 * (RdmaNic::Stats::lastDelivery): the run is the same with or without it.
 */
class StallReport
{
  public:
    /// Listen to \p driver's completions and the NICs of \p topo.
    StallReport(RdmaTopology& topo, TrafficDriver& driver);

    /// Read, at the end of the run, when each NIC last accepted new data.
    void ReadDeliveries();
    /// Write unfinished.csv (header only when every flow completed).
    void WriteUnfinished(std::ostream& os) const;
    /// flows_unfinished, last_delivery_ns and stalled_since_ns into \p summary.
    void Summarize(nlohmann::json& summary, Time end) const;
    /// "no progress since T ..." when the run stalled, else empty.
    std::string StallMessage(Time end) const;
    /// The stall line of a run that delivered nothing new from \p lastDelivery to
    /// \p end, with \p unfinished of \p total flows unfinished.
    static std::string StallMessage(Time lastDelivery,
                                    Time end,
                                    uint64_t unfinished,
                                    uint64_t total);

    /// Shortest silence before the end that counts as a stall: 100 base RTTs, at least
    /// 100 us.
    Time StallThreshold() const;
    /// The same threshold for a fabric whose longest base RTT is \p maxBaseRtt.
    static Time StallThreshold(Time maxBaseRtt);

  private:
    void OnCompleted(const TrafficDriver::Record& r);
    uint64_t Acknowledged(uint64_t flowId) const;
    bool Stalled(Time end) const;

    RdmaTopology& m_topo;
    TrafficDriver& m_driver;
    std::vector<bool> m_completed;
    Time m_lastDelivery;
    bool m_delivered;
};

} // namespace ns3

#endif /* RDMA_STALL_REPORT_H */
