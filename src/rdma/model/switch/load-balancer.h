/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LOAD_BALANCER_H
#define RDMA_LOAD_BALANCER_H

#include "ns3/object.h"
#include "ns3/rdma-header.h"

#include <vector>

namespace ns3
{

class RdmaSwitch;

/**
 * \ingroup rdma
 * Chooses the egress port of a frame among the equal-cost candidates of its destination
 * (one instance per switch). Subclasses: ECMP (flow hash); later per-packet spraying,
 * adaptive routing and flowlets.
 */
class LoadBalancer : public Object
{
  public:
    static TypeId GetTypeId();

    /// Called once when installed on a switch (adaptive schemes read its queues).
    virtual void Attach(RdmaSwitch* sw);
    /// Pick one of \p candidates (never empty, size >= 2) for a frame with header \p h.
    virtual uint32_t SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates) = 0;
    /// Fix the random streams used (returns how many); deterministic schemes use none.
    virtual int64_t AssignStreams(int64_t stream);
};

} // namespace ns3

#endif /* RDMA_LOAD_BALANCER_H */
