/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PFC_SAFETY_REPORT_H
#define RDMA_PFC_SAFETY_REPORT_H

#include "ns3/pfc-deadlock-detector.h"
#include "ns3/rdma-topology.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * What a run says about PFC going wrong: the deadlocks the detector found (summary.json
 * `pfc_deadlocks`, and one stderr line) and what the PFC watchdogs did
 * (`pfc_watchdog`). The detector runs when PFC and switch.pfc.deadlock_detection.enabled
 * are on; it only looks, so the run is the same with or without it.
 */
class PfcSafetyReport
{
  public:
    /// At most this many deadlocks are listed in summary.json (all are counted).
    static constexpr std::size_t kMaxListed = 100;

    /// Set up the detector over every switch of \p topo (finalized) if \p scenario asks.
    PfcSafetyReport(const nlohmann::json& scenario, RdmaTopology& topo);

    /// Start looking (the simulator clock has started).
    void Start();
    /// pfc_deadlocks (and pfc_watchdog when watchdogs run) into \p summary.
    void Summarize(nlohmann::json& summary) const;
    /// "PFC deadlock at T: ..." naming the first cycle, if any was found; else empty.
    std::string DeadlockMessage() const;

    /// The cycle as text: "node 5 port 2 -> node 6 port 1 -> ..." (each hop's switch and
    /// egress port).
    static std::string CycleText(const PfcDeadlockDetector::Deadlock& deadlock);

  private:
    RdmaTopology& m_topo;
    Ptr<PfcDeadlockDetector> m_detector;
};

} // namespace ns3

#endif /* RDMA_PFC_SAFETY_REPORT_H */
