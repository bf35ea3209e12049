/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SIM_SCHEDULE_H
#define RDMA_SIM_SCHEDULE_H

#include "ns3/fabric-layout-inline.h"
#include "ns3/rdma-sim.h"
#include "ns3/rdma-simulator-impl.h"

namespace ns3
{

/**
 * RdmaSim::ScheduleReserved: the fast core's ScheduleReserved, inline (a link's next
 * arrival and a port's end of transmission are scheduled this way at every frame). Fast
 * core only: under any other SimulatorImpl there are no reserved uids, and the model
 * schedules ordinary ns-3 events instead (it asks RdmaSim::IsFastCore() first).
 *
 * The core finds what a DirectEvent will read first itself, from the role it gave the
 * event when the run began (FabricLayout::HintsFor): the model names nothing.
 */
template <class E>
inline void
RdmaSim::ScheduleReserved(uint64_t ts, uint32_t uid, uint32_t context, E* event)
{
    EventHints h;
    if constexpr (std::is_base_of_v<DirectEvent, E>)
    {
        FabricLayout::HintsFor(*event, &h);
    }
    RdmaSimulatorImpl::Active()->ScheduleReserved(ts, uid, context, event, h);
}

} // namespace ns3

#endif /* RDMA_SIM_SCHEDULE_H */
