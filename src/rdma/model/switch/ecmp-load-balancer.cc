/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/ecmp-load-balancer.h"

#include "ns3/hash-constants.h"
#include "ns3/uinteger.h"

namespace ns3
{

namespace
{
/// The IP protocol number of UDP, the 5-tuple's protocol field for RoCEv2.
constexpr uint64_t kIpProtocolUdp = 17;
} // namespace

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
    x ^= (uint64_t(h.sport) << 16 | h.dport) * rdmahash::kGolden64;
    x ^= uint64_t(salt) * rdmahash::kSaltMul64 + kIpProtocolUdp;
    x ^= x >> 30;
    x *= rdmahash::kSplitMixMul1;
    x ^= x >> 27;
    x *= rdmahash::kSplitMixMul2;
    x ^= x >> 31;
    return static_cast<uint32_t>(x ^ (x >> 32));
}

uint32_t
EcmpLoadBalancer::SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates)
{
    return candidates[Hash(h, m_salt) % candidates.size()];
}

std::string
EcmpLoadBalancer::GetName() const
{
    return "ecmp";
}

} // namespace ns3
