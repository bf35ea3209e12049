/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/spray-load-balancer.h"

#include "ns3/enum.h"
#include "ns3/ns3-compat.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SprayLoadBalancer);

TypeId
SprayLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SprayLoadBalancer")
            .SetParent<LoadBalancer>()
            .SetGroupName("Rdma")
            .AddConstructor<SprayLoadBalancer>()
            .AddAttribute("Mode",
                          "Random: a uniform draw per packet; RoundRobin: the next port in turn.",
                          EnumValue(RANDOM),
                          compat::MakeEnumAccessor(&SprayLoadBalancer::m_mode),
                          MakeEnumChecker(RANDOM, "Random", ROUND_ROBIN, "RoundRobin"));
    return tid;
}

SprayLoadBalancer::SprayLoadBalancer()
    : m_mode(RANDOM),
      m_next(0)
{
}

uint32_t
SprayLoadBalancer::SelectPort(const RdmaHeader& /* h */, const std::vector<uint32_t>& candidates)
{
    if (m_mode == ROUND_ROBIN)
    {
        return candidates[m_next++ % candidates.size()];
    }
    return candidates[GetRng()->GetInteger(0, candidates.size() - 1)];
}

int64_t
SprayLoadBalancer::AssignStreams(int64_t stream)
{
    GetRng()->SetStream(stream);
    return 1;
}

std::string
SprayLoadBalancer::GetName() const
{
    return "spray";
}

} // namespace ns3
