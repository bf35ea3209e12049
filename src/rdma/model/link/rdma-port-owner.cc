/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-port-owner.h"

namespace ns3
{

void
RdmaPortOwner::FrameDequeued(uint32_t /* port */, RdmaFrame& /* f */, uint8_t /* priority */)
{
}

Ptr<RdmaFrame>
RdmaPortOwner::PullFrame(uint32_t /* port */, uint8_t /* pausedMask */)
{
    return nullptr;
}

const void*
RdmaPortOwner::PullHint(uint32_t /* port */, const void** /* more */) const
{
    return nullptr;
}

const RdmaArrivalHints*
RdmaPortOwner::GetArrivalHints(uint32_t /* port */) const
{
    return nullptr;
}

void
RdmaPortOwner::WarmPull(uint32_t /* port */) const
{
}

void
RdmaPortOwner::WarmArrival(uint32_t /* port */, const RdmaFrame& /* f */) const
{
}

bool
RdmaPortOwner::HasFramesToPull(uint32_t /* port */) const
{
    return true;
}

} // namespace ns3
