/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PCAP_STAGE_H
#define RDMA_PCAP_STAGE_H

#include "ns3/rdma-helper.h"
#include "ns3/rdma-topology.h"
#include "ns3/run-output.h"

#include <nlohmann/json.hpp>

namespace ns3
{

/**
 * \ingroup rdma
 * The packet captures of a run (output.pcap.* keys): with output.pcap.enabled, every
 * port of the nodes in output.pcap.nodes (all nodes if empty) is captured through
 * RdmaHelper into DIR/pcap/rdma-NODE-PORT.pcap (PORT: the device's index on its node,
 * as in links.csv), at most output.pcap.max_packets frames per file. Without it, nothing
 * is connected and the run renders no frame. Over MPI ranks, each rank captures the
 * ports of its own nodes, and GatherRanks brings the files to rank 0's folder.
 */
class PcapStage
{
  public:
    /**
     * Check output.pcap.nodes against the built fabric: every node exists and is listed
     * once. Throws ScenarioError naming \p file (the scenario's), the key and the value.
     */
    static void Check(const nlohmann::json& scenario,
                      const RdmaTopology& topo,
                      const std::string& file);

    /// Enable the captures (if output.pcap.enabled), files in \p out's staging folder.
    PcapStage(const nlohmann::json& scenario, const RdmaTopology& topo, RunOutput& out);

    /// Close the capture files (the run has ended; before Simulator::Destroy).
    void Stop();

    /**
     * Collective, at the end of a run over MPI ranks (after Stop): move every rank's
     * capture files out of its folder \p out into rank 0's (nothing if captures are off),
     * without the frames after the run's \p end (ranks simulate a little past it, a serial
     * run stops at it; as RankMerge leaves out CSV rows). Throws ScenarioError if rank 0
     * cannot write one.
     */
    static void GatherRanks(const nlohmann::json& scenario, RunOutput& out, Time end);

  private:
    RdmaHelper m_helper;
};

} // namespace ns3

#endif /* RDMA_PCAP_STAGE_H */
