/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CDF_WORKLOAD_GENERATOR_H
#define RDMA_CDF_WORKLOAD_GENERATOR_H

#include "ns3/flow-size-cdf.h"
#include "ns3/flow-spec.h"
#include "ns3/random-variable-stream.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Open-loop background traffic: every sender starts flows as a Poisson process whose
 * sizes follow a flow-size CDF, at the rate that offers a target load, towards
 * destinations drawn uniformly (among all receivers, or only those in another rack).
 *
 * Load is counted as the literature (HPCC, DCTCP) counts it: payload bytes offered per
 * second over the link's bit rate. A sender offering R bit/s starts flows at
 * R / (8 x mean size) per second. LoadOnHostLinks() and LoadOnUplinks() give the rates
 * for a load of the senders' own links, or of their racks' uplinks.
 *
 * Flows arrive in [start, stop); the result is sorted by start time.
 */
class CdfWorkloadGenerator
{
  public:
    enum class Destination
    {
        UNIFORM,    ///< any receiver but the sender
        OTHER_RACK, ///< any receiver under another ToR than the sender's
    };

    const FlowSizeCdf* cdf = nullptr;
    std::vector<uint32_t> senders;   ///< host indices
    std::vector<uint32_t> receivers; ///< host indices (destination candidates)
    /// Rack (ToR) of every host index; needed by OTHER_RACK and LoadOnUplinks.
    std::vector<uint32_t> rackOf;
    Destination destination = Destination::UNIFORM;
    /// Offered payload bit rate of each sender (same order as senders).
    std::vector<double> senderBitRate;
    Time start;
    Time stop;
    uint8_t priority = 3;

    /// Destination candidates of \p sender under the current settings.
    std::vector<uint32_t> Candidates(uint32_t sender) const;

    /// senderBitRate for \p load of each sender's host link (\p hostBitRate per sender).
    void LoadOnHostLinks(double load, const std::vector<double>& hostBitRate);
    /**
     * senderBitRate such that the traffic leaving each rack loads the rack's uplinks
     * (uplinkBitRate[rack], bit/s) to \p load. The senders of a rack offer equal rates;
     * their flows to destinations in their own rack do not cross the uplinks (with
     * UNIFORM: the share of a sender's candidates that sit in its rack). Returns false,
     * leaving senderBitRate unchanged, if a rack's senders can send nothing out of it.
     */
    bool LoadOnUplinks(double load, const std::vector<double>& uplinkBitRate);

    /// The flows (kind CDF); \p rng draws inter-arrival times, sizes and destinations.
    std::vector<FlowSpec> Generate(Ptr<UniformRandomVariable> rng) const;
};

} // namespace ns3

#endif /* RDMA_CDF_WORKLOAD_GENERATOR_H */
