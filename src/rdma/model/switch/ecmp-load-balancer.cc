/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/ecmp-load-balancer.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(EcmpLoadBalancer);

TypeId
EcmpLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EcmpLoadBalancer")
                            .SetParent<LoadBalancer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<EcmpLoadBalancer>()
                            .AddAttribute("Salt",
                                          "Per-switch hash seed (the helper sets a distinct "
                                          "one on every switch).",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&EcmpLoadBalancer::m_salt),
                                          MakeUintegerChecker<uint32_t>());
    return tid;
}

EcmpLoadBalancer::EcmpLoadBalancer()
    : m_salt(0)
{
}

uint32_t
EcmpLoadBalancer::Hash(const RdmaHeader& h, uint32_t salt)
{
    // splitmix64 finalizer over the packed tuple; UDP is the only L4 protocol here.
    uint64_t x = (uint64_t(h.src) << 32) ^ h.dst;
    x ^= (uint64_t(h.sport) << 16 | h.dport) * 0x9E3779B97F4A7C15ULL;
    x ^= uint64_t(salt) * 0xD1B54A32D192ED03ULL + 17; // 17 = IP protocol number of UDP
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return static_cast<uint32_t>(x ^ (x >> 32));
}

uint32_t
EcmpLoadBalancer::SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates)
{
    return candidates[Hash(h, m_salt) % candidates.size()];
}

} // namespace ns3
