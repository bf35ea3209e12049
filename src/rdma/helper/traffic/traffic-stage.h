/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TRAFFIC_STAGE_H
#define RDMA_TRAFFIC_STAGE_H

#include "ns3/nstime.h"
#include "ns3/rdma-topology.h"
#include "ns3/scenario-stage.h"
#include "ns3/stage-list.h"
#include "ns3/traffic-driver.h"

#include <memory>
#include <vector>

namespace ns3
{

class RunOutput;

/**
 * \ingroup rdma
 * A scenario stage that is one source of traffic (traffic.incast, traffic.permutation,
 * traffic.flows_csv, traffic.hpcc_flow_file, traffic.incast_groups_csv, traffic.cdf,
 * the collectives of traffic.moe or traffic.trace, traffic.probe). After the
 * ScenarioStage steps, the runner calls, on every source: Prepare (read its input files:
 * errors before any output), AddTraffic (if Enabled; the fabric is built), and after the
 * run Summarize and WriteFiles (enabled or not). Sources add their flows in the order of
 * CreateAll(), by the order each registers with, which fixes the flow ids and the random
 * streams each takes.
 *
 * A new source is one file: a subclass declaring its keys and its estimate
 * (ScenarioStage), registered with `static const StageRegistration<TrafficStage, T>
 * g_stage(ORDER);` at an order after the shipped ones.
 */
class TrafficStage : public ScenarioStage
{
  public:
    /// Whether \p scenario enables this source.
    virtual bool Enabled(const nlohmann::json& scenario) const = 0;

    /**
     * Read the files the source's keys name. Throws ScenarioError (file:line).
     * \param scenario the resolved and checked scenario
     * \param hosts the number of hosts of its topology
     */
    virtual void Prepare(const nlohmann::json& scenario, uint32_t hosts);

    /**
     * Add the source's flows (and probes, collectives) to \p driver.
     * \param scenario the resolved and checked scenario
     * \param topo the finalized topology
     * \param driver the run's traffic driver (not started)
     * \param stream the next free random stream, advanced past those used
     */
    virtual void AddTraffic(const nlohmann::json& scenario,
                            RdmaTopology& topo,
                            TrafficDriver& driver,
                            int64_t& stream) = 0;

    /**
     * Write the files that record the traffic as added (a generated trace), before the
     * run; the source may then drop what the run no longer needs.
     */
    virtual void WriteInputs(RunOutput& out);
    /// Add the source's figures to \p summary; \p end is the simulated end.
    virtual void Summarize(nlohmann::json& summary, Time end) const;
    /// Write the source's own files of the run.
    virtual void WriteFiles(RunOutput& out) const;

    /// A new instance of every registered traffic source, in the order their flows are
    /// added.
    static std::vector<std::unique_ptr<TrafficStage>> CreateAll();
};

extern template class StageList<TrafficStage>; // instantiated in traffic-stage.cc

} // namespace ns3

#endif /* RDMA_TRAFFIC_STAGE_H */
