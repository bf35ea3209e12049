/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/load-balancer.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(LoadBalancer);

TypeId
LoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LoadBalancer").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

void
LoadBalancer::Attach(const PortLoadView* /* ports */)
{
}

int64_t
LoadBalancer::AssignStreams(int64_t /* stream */)
{
    return 0;
}

Ptr<UniformRandomVariable>
LoadBalancer::GetRng()
{
    if (!m_rng)
    {
        m_rng = CreateObject<UniformRandomVariable>();
    }
    return m_rng;
}

} // namespace ns3
