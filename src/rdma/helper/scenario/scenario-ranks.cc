/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The parts of ScenarioRunner that only a run over MPI ranks uses: what it refuses, and
 * the merge of the ranks' outputs at its end.
 */
#include "ns3/output-stage.h"
#include "ns3/pcap-stage.h"
#include "ns3/rank-merge.h"
#include "ns3/rdma-ranks.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-runner.h"
#include "ns3/stall-report.h"

#include <algorithm>
#include <malloc.h>
#include <sys/resource.h>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

void
ScenarioRunner::SetRanks(uint32_t ranks)
{
    m_ranks = ranks;
}

void
ScenarioRunner::CheckRanks(const json& s, const std::string& file)
{
    if (Str(s, "simulator.engine") == "rdma" && Str(s, "simulator.scheduler") != "rdma")
    {
        throw ScenarioError(file + ": key 'simulator.scheduler' has value '" +
                            Str(s, "simulator.scheduler") +
                            "', but simulator.engine rdma is the rdma event core (set "
                            "simulator.engine granted_time to run over ranks on an ns-3 "
                            "scheduler)");
    }
    if (Str(s, "simulator.tie_order") == "by_node" && Str(s, "simulator.engine") != "rdma")
    {
        throw ScenarioError(file +
                            ": key 'simulator.tie_order' has value 'by_node', which "
                            "over MPI ranks only simulator.engine rdma takes (it is '" +
                            Str(s, "simulator.engine") + "')");
    }
    // A collective waiting on acknowledgements would release a flow on one rank at the
    // instant an acknowledgement arrives on another: closer than any lookahead.
    const bool collective = Bool(s, "traffic.moe.enabled") || !Str(s, "traffic.trace.csv").empty();
    if (collective && Str(s, "traffic.collective_wait") != "delivered")
    {
        throw ScenarioError(file + ": key 'traffic.collective_wait' has value '" +
                            Str(s, "traffic.collective_wait") +
                            "', and collectives over MPI ranks (--ranks) need 'delivered' (a "
                            "host then waits only on what arrives at itself); set it, or run "
                            "without --ranks");
    }
}

json
ScenarioRunner::RankFacts(const json& sum, const RdmaTopology& topo, const TrafficDriver& driver)
{
    return {{"rank", RdmaRanks::Rank()},
            {"nodes", topo.GetLocalHosts().size() + topo.GetLocalSwitches().size()},
            {"flows", driver.GetLocalFlows()},
            {"wall_s", sum["wall_s"]},
            {"cpu_s", sum["cpu_s"]},
            {"events", sum["events"]},
            {"peak_rss_mb", sum["peak_rss_mb"]},
            {"late_probes", driver.GetLateProbes()},
            {"late_probe_bytes", driver.GetLateProbeBytes()},
            {"windows", RdmaRanks::GetWindows()},
            {"window_wait_s", RdmaRanks::GetWindowWaitSeconds()}};
}

json
ScenarioRunner::MergeRanks(RunOutput& out,
                           const json& sum,
                           const json& rank,
                           const json& state,
                           uint32_t cutLinks,
                           Time end,
                           std::vector<std::string>& warnings) const
{
    // The model is gone: its pages go back to the system before rank 0 holds every
    // rank's files (the allocator would otherwise keep them, and the files come on top).
    malloc_trim(0);
    PcapStage::GatherRanks(m_scenario, out, end);
    json merged = RankMerge::Merge(out, sum, state, rank, end);
    if (RdmaRanks::Rank() == 0)
    {
        // Rank 0's peak memory counts the merge too (the others only send).
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        const double peak = ru.ru_maxrss / 1024.0;
        merged["ranks"]["per_rank"][0]["peak_rss_mb"] = peak;
        merged["peak_rss_mb"] = std::max(merged["peak_rss_mb"].get<double>(), peak);
    }
    merged["ranks"]["engine"] = Str(m_scenario, "simulator.engine");
    merged["ranks"]["links_between_ranks"] = cutLinks;
    warnings.clear();
    if (!merged["stalled_since_ns"].is_null())
    {
        warnings.push_back(
            StallReport::StallMessage(NanoSeconds(merged["stalled_since_ns"].get<int64_t>()),
                                      end,
                                      merged["flows_unfinished"].get<uint64_t>(),
                                      merged["flows_total"].get<uint64_t>()));
    }
    if (merged.value("pfc_deadlocks_found", uint64_t(0)) > 0)
    {
        warnings.push_back("PFC deadlock: " + merged["pfc_deadlocks_found"].dump() +
                           " found (summary.json pfc_deadlocks)");
    }
    return merged;
}

} // namespace ns3
