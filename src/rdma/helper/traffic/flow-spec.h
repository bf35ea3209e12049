/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_SPEC_H
#define RDMA_FLOW_SPEC_H

#include "ns3/nstime.h"
#include "ns3/queue-pair.h"

#include <cstdint>
#include <string>

namespace ns3
{

/// What produced a flow; written to fct.csv so analysis can separate them.
enum class FlowKind : uint8_t
{
    FLOW,        ///< from a flow list
    INCAST,      ///< incast generator
    PROBE,       ///< small-message latency probe
    PERMUTATION, ///< permutation traffic (load-balancing benchmark)
    CDF,         ///< flow-size CDF workload (Poisson arrivals)
    COLLECTIVE,  ///< MoE all-to-all generator or trace replay
};

const char* FlowKindName(FlowKind kind);

/**
 * \ingroup rdma
 * One message to send: (src, dst, bytes, start, priority) (docs/design.md, "Traffic").
 * src and dst are host indices (0 .. hosts-1). A flow of RdmaMessage::kUnbounded bytes
 * sends until its stop time. Each flow gets its own QP unless it names a shared one.
 */
struct FlowSpec
{
    uint32_t src = 0;
    uint32_t dst = 0;
    uint64_t bytes = 0;
    Time start;
    Time stop; ///< unbounded flows only
    uint8_t priority = 3;
    FlowKind kind = FlowKind::FLOW;
};

} // namespace ns3

#endif /* RDMA_FLOW_SPEC_H */
