/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLOWLET_LOAD_BALANCER_H
#define FLOWLET_LOAD_BALANCER_H

#include "ns3/load-balancer.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Flowlet switching (LetFlow-like): a flow keeps its port while its packets come closer
 * than the gap threshold; after a longer gap it may move to a random equal-cost port.
 * State is a fixed-size table indexed by the flow hash, as in switch hardware (two
 * flows sharing a slot share a flowlet). Paced RDMA traffic leaves few gaps, so flows
 * rarely move.
 */
class FlowletLoadBalancer : public LoadBalancer
{
  public:
    static TypeId GetTypeId();
    FlowletLoadBalancer();

    uint32_t SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates) override;
    std::string GetName() const override;
    int64_t AssignStreams(int64_t stream) override;

  private:
    struct Slot
    {
        uint32_t port = 0;
        Time lastSeen = Seconds(-1);
    };

    Time m_gap;
    uint32_t m_tableSize;
    uint32_t m_salt;
    std::vector<Slot> m_table;
};

} // namespace ns3

#endif /* FLOWLET_LOAD_BALANCER_H */
