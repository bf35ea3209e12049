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

bool
RdmaPortOwner::HasFramesToPull(uint32_t /* port */) const
{
    return true;
}

} // namespace ns3
