/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INCAST_GENERATOR_H
#define RDMA_INCAST_GENERATOR_H

#include "ns3/flow-spec.h"
#include "ns3/random-variable-stream.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * N senders x Q QPs each, all towards one receiver: one message per QP, either of
 * `messageBytes` or running until `until` (then truncated). Each QP starts at
 * start + U(0, jitter).
 */
class IncastGenerator
{
  public:
    std::vector<uint32_t> senders; ///< host indices
    uint32_t receiver = 0;
    uint32_t qpsPerSender = 1;
    uint64_t messageBytes = 65536;
    Time until; ///< > 0: unbounded messages that stop then
    Time start;
    Time jitter;
    uint8_t priority = 3;

    /// The flows, in sender-major order; \p rng draws the start jitter.
    std::vector<FlowSpec> Generate(Ptr<UniformRandomVariable> rng) const;
};

} // namespace ns3

#endif /* RDMA_INCAST_GENERATOR_H */
