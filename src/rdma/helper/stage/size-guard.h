/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SIZE_GUARD_H
#define RDMA_SIZE_GUARD_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * What a scenario will cost, estimated from its keys before anything is built: the
 * memory (nodes, switch ports, routes, QPs, flows, collective trace rows) and the bytes
 * of each output file (at most the stop time of sampling). Every stage adds its own share
 * (ScenarioStage::Estimate; the runner's ScenarioStages::Estimate asks them all); this
 * class only sums the shares and compares the sums with the limits. Check() refuses a scenario
 * whose estimate is above the machine's available memory, or above the limits the user sets
 * (rdma-run --max-memory-gb, --max-output-gb), with one line giving the estimate and the key that
 * drives it, and its value.
 *
 * The costs per item (SizeGuard::Cost; an output file's bytes per row are in its
 * declaration, OutputFile::rowBytes) were measured on this module's runs and rounded
 * up (see docs/design.md, "Size guards"): the estimate errs on the large side.
 */
class SizeGuard
{
  public:
    /// Costs per item in bytes: peak RSS against counts, rounded up.
    struct Cost
    {
        static constexpr double kBase = 64e6;       ///< the process: ns-3, the module
        static constexpr double kPerHost = 64e3;    ///< a host: node, NIC, device, tables
        static constexpr double kPerSwitch = 32e3;  ///< a switch: node, MMU, load balancer
        static constexpr double kPerPort = 8e3;     ///< a port: device, channel, queues
        static constexpr double kPerRoute = 48;     ///< a switch's route to a host
        static constexpr double kPerQp = 4e3;       ///< a QP: both sides, controller, limiter
        static constexpr double kPerFlow = 256;     ///< a flow: specification, driver state
        static constexpr double kPerTraceRow = 512; ///< a collective-trace row
        static constexpr double kPcapRecord = 16;   ///< pcap record header
    };

    /// One part of an estimate, and the key that drives it.
    struct Part
    {
        std::string what;
        double bytes;
        std::string key;
    };

    /// The estimate of one scenario, filled by its stages.
    struct Estimate
    {
        double hosts = 0;
        double switches = 0;
        double links = 0;
        double qps = 0;
        double flows = 0;
        double traceRows = 0;
        double probes = 0;         ///< probe messages (fct.csv rows besides the flows)
        std::string fabricKey;     ///< the key that sizes the fabric
        std::string qpKey;         ///< the key of the source with the most QPs
        std::vector<Part> memory;  ///< by component
        std::vector<Part> outputs; ///< by file
        double MemoryBytes() const;
        double OutputBytes() const;
        /// Both directions of every link.
        double Ports() const;

        /// A topology stage's fabric: the nodes and ports, and every switch's routes.
        void AddFabric(double hosts, double switches, double links, const std::string& key);
        /**
         * A traffic source's \p flows on \p qps QPs, \p traceRows of them collective-trace
         * rows; \p key is named if this source has the most QPs.
         */
        void AddFlows(double flows, double qps, const std::string& key, double traceRows = 0);

        /// The largest part of \p parts.
        static const Part& Largest(const std::vector<Part>& parts);
    };

    /// The limits a scenario must fit in (0: the machine's available memory, the free
    /// space of \p outDir's file system).
    struct Limits
    {
        double maxMemoryBytes = 0;
        double maxOutputBytes = 0;
        std::string outDir = ".";
    };

    /**
     * Throw ScenarioError (naming \p file, the key that drives the largest part and its
     * value) if \p scenario, whose stages estimated \p estimate (ScenarioStages::Estimate),
     * needs more memory or writes more than \p limits allow.
     */
    static void Check(const nlohmann::json& scenario,
                      const std::string& file,
                      const Estimate& estimate,
                      const Limits& limits);

    /// MemAvailable of /proc/meminfo (bytes; 0 if unknown).
    static double AvailableMemory();

    /**
     * Data lines of the CSV-like file \p path (not blank, not '#' comments), 0 if it
     * cannot be opened (the stage's Check reports that).
     */
    static double DataLines(const std::string& path);
};

} // namespace ns3

#endif /* RDMA_SIZE_GUARD_H */
