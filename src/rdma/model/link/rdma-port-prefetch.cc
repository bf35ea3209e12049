/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-port-prefetch.h"

namespace ns3
{

const void*
RdmaPortPrefetch::PullHint(uint32_t /* port */, const void** /* more */) const
{
    return nullptr;
}

const RdmaArrivalHints*
RdmaPortPrefetch::GetArrivalHints(uint32_t /* port */) const
{
    return nullptr;
}

void
RdmaPortPrefetch::WarmPull(uint32_t /* port */) const
{
}

void
RdmaPortPrefetch::WarmArrival(uint32_t /* port */, const RdmaFrame& /* f */) const
{
}

} // namespace ns3
