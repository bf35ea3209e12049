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
 * hints (RdmaSim::ScheduleReserved), in cache lines: of the event object, of its first
 * hint and of its third. (The second hint's lines are the ports' own count:
 * RdmaSim::NotePortHotBytes.) A model that lays out an event object or the data it
 * reads first to be loaded whole fits them in these, and says so in a static_assert.
 */
struct PrefetchBudget
{
    static constexpr uint32_t kObjectLines = 2;    ///< of the event object
    static constexpr uint32_t kFirstHintLines = 2; ///< of its first hint
    static constexpr uint32_t kThirdHintLines = 2; ///< of its third hint
};

} // namespace ns3

#endif /* RDMA_PREFETCH_BUDGET_H */
