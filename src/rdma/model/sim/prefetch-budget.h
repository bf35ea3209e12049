/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PREFETCH_BUDGET_H
#define RDMA_PREFETCH_BUDGET_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What the fast event core loads into the cache ahead of an event scheduled with
 * hints (EventHints, found by FabricLayout::HintsFor), in cache lines: of the event
 * object, of its first hint, of its third and of its fourth. (The second hint's lines
 * are the ports' own count: FabricLayout::PortLines.) FabricLayout checks the layouts it
 * loads against these in static_asserts.
 */
struct PrefetchBudget
{
    static constexpr uint32_t kObjectLines = 2;     ///< of the event object
    static constexpr uint32_t kFirstHintLines = 2;  ///< of its first hint
    static constexpr uint32_t kThirdHintLines = 2;  ///< of its third hint
    static constexpr uint32_t kFourthHintLines = 2; ///< of its fourth hint
};

} // namespace ns3

#endif /* RDMA_PREFETCH_BUDGET_H */
