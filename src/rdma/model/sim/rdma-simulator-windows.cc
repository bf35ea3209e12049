/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaSimulatorImpl over MPI ranks (simulator.engine rdma): granted-time windows. A unit
 * of its own, so that the serial loop (rdma-simulator-impl.cc) is compiled as it is alone.
 */
#include "ns3/rdma-ranks.h"
#include "ns3/rdma-simulator-impl.h"
#include "ns3/rdma-simulator-step.h"

#include <limits>

namespace ns3
{

template <bool kWarm>
void
RdmaSimulatorImpl::RunWindows()
{
    // All ranks agree on the earliest next event of any, and each runs its events up to
    // it plus the lookahead (no frame from another rank can arrive sooner). Frames
    // between ranks cross in between windows (RdmaRanks::Grant).
    while (!m_stop)
    {
        const uint64_t next =
            m_events.Empty() ? std::numeric_limits<uint64_t>::max() : m_events.NextTs();
        if (!RdmaRanks::Grant(next, &m_granted))
        {
            return; // no events left anywhere
        }
        while (!m_events.Empty() && !m_stop && m_events.NextTs() <= m_granted)
        {
            Step<kWarm>();
        }
    }
}

template void RdmaSimulatorImpl::RunWindows<true>();
template void RdmaSimulatorImpl::RunWindows<false>();

} // namespace ns3
