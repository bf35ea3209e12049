/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_OUTPUT_STAGE_H
#define RDMA_OUTPUT_STAGE_H

#include "ns3/byte-ledger.h"
#include "ns3/output-file.h"
#include "ns3/pcap-stage.h"
#include "ns3/periodic-sampler.h"
#include "ns3/pfc-safety-report.h"
#include "ns3/queue-sampler.h"
#include "ns3/rdma-topology.h"
#include "ns3/run-output.h"
#include "ns3/run-recorder.h"
#include "ns3/stall-report.h"
#include "ns3/traffic-driver.h"
#include "ns3/uplink-meter.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The output stage of a run: what it records while it runs (fct.csv and pfc.csv through
 * RunRecorder, links.csv, and the samplers of queue.csv, ports.csv and cc.csv, per the
 * output.* keys; the uplink meter; the writer of every declared file that has one,
 * OutputFile::make) and the figures of summary.json it computes at the
 * end from the NICs', switches' and driver's counters, the packet captures (PcapStage), with the
 * byte conservation check (ByteLedger) and what was left unfinished (StallReport, unfinished.csv).
 *
 * Call order: construct once every traffic source has added its flows (the cc.csv
 * sampler picks QPs among them), Start before the traffic starts, Stop when the run
 * ends, then Summarize and WriteEndFiles.
 */
class OutputStage
{
  public:
    /// Cost of a run, measured by the runner around Simulator::Run.
    struct Timing
    {
        double wallSeconds = 0;
        double cpuSeconds = 0;
        uint64_t events = 0;
    };

    /**
     * \param scenario the resolved scenario (output.* keys)
     * \param topo the finalized topology
     * \param driver the run's traffic driver, every flow added, not started
     * \param out the run's output folder
     */
    OutputStage(const nlohmann::json& scenario,
                RdmaTopology& topo,
                TrafficDriver& driver,
                RunOutput& out);

    /// Start the samplers and the uplink meter.
    void Start();
    /// Stop them (the simulation has ended).
    void Stop();

    /**
     * The run's figures for summary.json (traffic sources add their own).
     * \param end the simulated end time
     * \param timing the run's wall, CPU and event counts
     */
    nlohmann::json Summarize(Time end, const Timing& timing) const;
    /// summary.json's host_rx (packets, mean and max hold time) when a host is modelled.
    void SummarizeHostRx(nlohmann::json& sum) const;
    /// In a run over MPI ranks: keep what RankState gives (call before Start).
    void KeepRankState();
    /**
     * In a run over MPI ranks, what the merge of the ranks' summaries needs beyond them
     * (RankMerge): each queue sample's largest queue, the leaves' uplink bytes, the
     * probe and small-flow completion times, the hosts' total receive hold time, the
     * order of cc.csv's QPs.
     */
    nlohmann::json RankState() const;
    /// summary.json's probe_latency_* and small_flow_* from the completion times (ns) of
    /// the probes \p probes and of the small flows \p small.
    static void SummarizeLatencies(nlohmann::json& sum,
                                   const std::vector<int64_t>& probes,
                                   const std::vector<int64_t>& small);

    /**
     * Write the files of the run's end into \p out: unfinished.csv (the flows that did not
     * complete) and those of the declared writers (OutputWriter::Finish at \p end).
     * \return the "no progress since T" line when the run stalled, else empty
     */
    std::string WriteEndFiles(RunOutput& out, Time end);
    /// The "PFC deadlock at T ..." line when a deadlock was found, else empty.
    std::string DeadlockMessage() const;

  private:
    const nlohmann::json& m_scenario;
    RdmaTopology& m_topo;
    const TrafficDriver& m_driver;
    RunRecorder m_recorder;
    std::vector<std::unique_ptr<PeriodicSampler>> m_samplers;
    std::vector<std::unique_ptr<OutputWriter>> m_writers; ///< of the declared files
    std::vector<std::pair<uint32_t, uint32_t>> m_ccQps;   ///< cc.csv's QPs (node, QP), in order
    QueueSampler* m_queues;
    UplinkMeter m_uplinks;
    ByteLedger m_ledger;
    StallReport m_stall;
    PfcSafetyReport m_pfcSafety;
    PcapStage m_pcap;
};

} // namespace ns3

#endif /* RDMA_OUTPUT_STAGE_H */
