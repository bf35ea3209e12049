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
 * of each output file (at most the stop time of sampling). Check() refuses a scenario
 * whose estimate is above the machine's available memory, or above the limits the user
 * sets (rdma-run --max-memory-gb, --max-output-gb), with one line giving the estimate and
 * the key that drives it.
 *
 * The costs per item were measured on this module's runs and rounded up (see
 * docs/design.md, "Size guards"): the estimate errs on the large side.
 */
class SizeGuard
{
  public:
    /// One part of an estimate, and the key that drives it.
    struct Part
    {
        std::string what;
        double bytes;
        std::string key;
    };

    /// The estimate of one scenario.
    struct Estimate
    {
        uint64_t hosts = 0;
        uint64_t switches = 0;
        uint64_t links = 0;
        double qps = 0;
        double flows = 0;
        double traceRows = 0;
        std::vector<Part> memory;  ///< by component
        std::vector<Part> outputs; ///< by file
        double MemoryBytes() const;
        double OutputBytes() const;
        /// The largest part of \p parts.
        static const Part& Largest(const std::vector<Part>& parts);
    };

    /// Estimate the cost of a resolved and checked \p scenario.
    static Estimate Compute(const nlohmann::json& scenario);

    /**
     * Throw ScenarioError (naming \p file) if \p scenario needs more memory than
     * \p maxMemoryBytes (0: the machine's available memory) or writes more than
     * \p maxOutputBytes (0: no limit but the free space of \p outDir's file system).
     */
    static void Check(const nlohmann::json& scenario,
                      const std::string& file,
                      double maxMemoryBytes,
                      double maxOutputBytes,
                      const std::string& outDir);

    /// MemAvailable of /proc/meminfo (bytes; 0 if unknown).
    static double AvailableMemory();
};

} // namespace ns3

#endif /* RDMA_SIZE_GUARD_H */
