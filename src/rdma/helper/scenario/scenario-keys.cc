/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The table of scenario keys (ScenarioSchema::Keys): every key with its type, range,
 * default, unit and meaning: the run's own, then those of the stages that own them
 * (ScenarioStages::Keys).
 * docs/scenario-keys.md is generated from it.
 */
#include "ns3/scenario-schema.h"
#include "ns3/scenario-stages.h"

#include <limits>

namespace ns3
{

using json = nlohmann::json;

namespace
{
constexpr double kInf = std::numeric_limits<double>::infinity();
using T = ScenarioSchema::Type;

/// The run's own keys (the others are the stages').
std::vector<ScenarioSchema::Key>
RunKeys()
{
    // clang-format off
    return {
        {"name", T::STRING, "", 0, 0, {}, "", "Scenario name (default: the file name without .json)."},
        {"seed", T::INT, 1, 0, 4294967295.0, {}, "", "Random seed (ECN marking, start jitter). Same seed, same results."},
        {"stop_time_ms", T::NUMBER, 100, 1e-6, kInf, {}, "ms", "Hard end of the simulation; the run ends earlier once every non-probe flow has completed."},
        {"simulator.port_prefetch", T::CHOICE, "auto", 0, 0, {"auto", "always", "never"}, "", "With simulator.scheduler rdma: whether the event loop loads a port's hot fields into the cache while the event before its own runs, and a switch an egress port's as soon as it has routed a frame (ns3::RdmaSimulatorImpl::PortPrefetch). auto: when the fabric's ports hold more of them than this core's L2 cache. Results do not depend on it: only the speed does."},
        {"simulator.warm_next", T::CHOICE, "auto", 0, 0, {"auto", "always", "never"}, "", "With simulator.scheduler rdma: whether the event loop warms the next event while the one before it runs: a port's end of transmission or a frame's arrival starts loading what its owner reads after the event's own hints, such as the QP's controller and rate limiter or the switch's egress port (ns3::RdmaSimulatorImpl::WarmNext). auto: as simulator.port_prefetch, when the fabric's ports hold more hot fields than this core's L2 cache. Results do not depend on it: only the speed does."},
        {"simulator.tie_order", T::CHOICE, "fifo", 0, 0, {"fifo", "by_node"}, "", "With simulator.scheduler rdma: the order of events due at the same instant (ns3::RdmaSimulatorImpl::TieOrder). fifo: the order they were scheduled in, as ns-3's simulators. by_node: by the node they are for, then in the order they were scheduled for it; a run over MPI ranks (--ranks, simulator.engine rdma) then runs every event in the serial run's order and writes its files byte for byte, whatever the number of ranks. Either order is as valid physically; they differ in ties, and so in results as two runs with another seed would (slightly, or more where the workload is chaotic)."},
        {"simulator.engine", T::CHOICE, "rdma", 0, 0, {"rdma", "granted_time", "null_message"}, "", "With rdma-run --ranks N (./rdma run --ranks N): the engine of each rank. rdma: the module's own event core (ns3::RdmaSimulatorImpl) in granted-time windows (all ranks agree on the earliest next event of any; each runs up to it plus the smallest delay of a link between ranks), frames crossing on its own MPI communicator; it takes simulator.scheduler rdma. granted_time: ns-3's ns3::DistributedSimulatorImpl (the same windows, on the ns-3 scheduler simulator.scheduler names; rdma stands for heap there); null_message: ns-3's ns3::NullMessageSimulatorImpl (each rank runs as far as its neighbours' promises allow). Results do not depend on it beyond the order of simultaneous events. A serial run has no engine to choose and warns that the key is unused."},
        {"simulator.end_check_us", T::NUMBER, 10, 0.001, 1e9, {}, "us", "With --ranks: how often (simulated time) the ranks compare whether all their flows are done; they stop 10 checks after the first that says so, and the run's end is the last completion."},
        {"simulator.scheduler", T::CHOICE, "rdma", 0, 0, {"rdma", "map", "heap", "calendar", "priority_queue", "list"}, "", "Event core: rdma (ns3::RdmaSimulatorImpl, the module's own: a timing wheel for the near events and a 4-ary heap for the others, with one event per busy link direction; the fastest here) or ns-3's DefaultSimulatorImpl with one of ns-3's schedulers (map: ns3::MapScheduler, heap: ns3::HeapScheduler, ...). Every one orders events identically (by time, then by scheduling order), so results do not depend on it: only the speed does."},
    };
    // clang-format on
}
} // namespace

const std::vector<ScenarioSchema::Key>&
ScenarioSchema::Keys()
{
    static const std::vector<Key> keys = []() {
        // The run's keys, then every stage's in the order of a run (ScenarioStages).
        std::vector<Key> all = RunKeys();
        for (Key& k : ScenarioStages::Keys())
        {
            all.push_back(std::move(k));
        }
        return all;
    }();
    return keys;
}

const ScenarioSchema::Key*
ScenarioSchema::Find(const std::string& path)
{
    for (const Key& k : Keys())
    {
        if (k.path == path)
        {
            return &k;
        }
    }
    return nullptr;
}

} // namespace ns3
