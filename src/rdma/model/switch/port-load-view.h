/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PORT_LOAD_VIEW_H
#define RDMA_PORT_LOAD_VIEW_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * What a load balancer may see of its switch: per egress port, the bytes queued and
 * whether a class is paused by PFC. A narrow, read-only view, so that a balancer depends
 * on no switch internals (RdmaSwitch implements it; a test can fake it).
 */
class PortLoadView
{
  public:
    virtual ~PortLoadView() = default;
    /// Bytes queued at egress \p port over all its classes.
    virtual uint64_t GetQueuedBytes(uint32_t port) const = 0;
    /// Whether class \p priority of egress \p port is paused by the downstream's PFC.
    virtual bool IsPaused(uint32_t port, uint8_t priority) const = 0;
};

} // namespace ns3

#endif /* RDMA_PORT_LOAD_VIEW_H */
