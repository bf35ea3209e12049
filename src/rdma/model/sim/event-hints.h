/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_EVENT_HINTS_H
#define RDMA_EVENT_HINTS_H

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What an event will read first, for the fast core to load into the cache while
 * the events before it run (PrefetchBudget says how many lines of each). Only addresses:
 * nothing is read through them when they are loaded, any of them may be null, and a
 * wrong one costs a useless load, never a wrong result. The core finds them itself
 * (FabricLayout::HintsFor) when the event is scheduled.
 */
struct EventHints
{
    const void* first = nullptr;  ///< read first (PrefetchBudget::kFirstHintLines)
    const void* second = nullptr; ///< a port's hot fields (the ports' own line count)
    const void* third = nullptr;  ///< read after those (PrefetchBudget::kThirdHintLines)
    /// what the event's warm-up (FabricLayout::Warm) reads (kFourthHintLines)
    const void* fourth = nullptr;
};

} // namespace ns3

#endif /* RDMA_EVENT_HINTS_H */
