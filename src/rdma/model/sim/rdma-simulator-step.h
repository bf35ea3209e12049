/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SIMULATOR_STEP_H
#define RDMA_SIMULATOR_STEP_H

#include "ns3/fabric-layout-inline.h"
#include "ns3/rdma-simulator-impl.h"

namespace ns3
{

/**
 * One event of RdmaSimulatorImpl's loops (RunEvents, serial; RunWindows, over ranks):
 * the earliest is taken, the clock set, the next one warmed if \p kWarm, and the event
 * run. Always inlined, so that each loop is one function, as it was before there were
 * two.
 */
template <bool kWarm>
inline __attribute__((always_inline)) void
RdmaSimulatorImpl::Step()
{
    bool direct = false;
    // (The next event's object is likely cold: it is fetched meanwhile.)
    const Scheduler::Event next = m_events.Pop(&direct);
    ++m_eventCount;
    m_clock.currentTs = next.key.m_ts;
    m_clock.currentContext = next.key.m_context;
    m_clock.currentUid = next.key.m_uid;
    if constexpr (kWarm)
    {
        const void* fourth = nullptr;
        if (EventImpl* after = m_events.NextDirect(&fourth))
        {
            // Its hints were loaded one event ago: start loading what they point to.
            FabricLayout::Warm(*static_cast<DirectEvent*>(after), fourth, m_clock.loadingPorts);
        }
    }
    if (direct)
    {
        static_cast<DirectEvent*>(next.impl)->Fire();
    }
    else
    {
        next.impl->Invoke();
    }
    next.impl->Unref();
}

} // namespace ns3

#endif /* RDMA_SIMULATOR_STEP_H */
