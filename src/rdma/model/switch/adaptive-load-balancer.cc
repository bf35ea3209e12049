/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/adaptive-load-balancer.h"

#include "ns3/boolean.h"

#include <limits>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdaptiveLoadBalancer);

TypeId
AdaptiveLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdaptiveLoadBalancer")
            .SetParent<LoadBalancer>()
            .SetGroupName("Rdma")
            .AddConstructor<AdaptiveLoadBalancer>()
            .AddAttribute("PausedAsFull",
                          "A port whose class is paused by PFC is never chosen while another "
                          "is not.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdaptiveLoadBalancer::m_pausedAsFull),
                          MakeBooleanChecker());
    return tid;
}

AdaptiveLoadBalancer::AdaptiveLoadBalancer()
    : m_ports(nullptr),
      m_pausedAsFull(true)
{
}

void
AdaptiveLoadBalancer::Attach(const PortLoadView* ports)
{
    m_ports = ports;
}

uint32_t
AdaptiveLoadBalancer::SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates)
{
    // Two passes and no allocation: the least load, then a random one among the ties.
    auto load = [&](uint32_t port) {
        if (m_pausedAsFull && m_ports->IsPaused(port, h.priority))
        {
            return std::numeric_limits<uint64_t>::max();
        }
        return m_ports->GetQueuedBytes(port);
    };
    uint64_t best = std::numeric_limits<uint64_t>::max();
    uint32_t ties = 0;
    for (uint32_t port : candidates)
    {
        const uint64_t l = load(port);
        if (l < best)
        {
            best = l;
            ties = 1;
        }
        else if (l == best)
        {
            ++ties;
        }
    }
    uint32_t pick = ties > 1 ? GetRng()->GetInteger(0, ties - 1) : 0;
    for (uint32_t port : candidates)
    {
        if (load(port) == best && pick-- == 0)
        {
            return port;
        }
    }
    return candidates[0];
}

int64_t
AdaptiveLoadBalancer::AssignStreams(int64_t stream)
{
    GetRng()->SetStream(stream);
    return 1;
}

std::string
AdaptiveLoadBalancer::GetName() const
{
    return "adaptive";
}

} // namespace ns3
