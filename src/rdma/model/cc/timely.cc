/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/timely.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(Timely);

TypeId
Timely::GetTypeId()
{
    static TypeId tid = TypeId("ns3::Timely")
                            .SetParent<CongestionControl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<Timely>();
    return tid;
}

uint64_t
Timely::GetRate()
{
    return m_ctx.lineRate;
}

std::string
Timely::GetName() const
{
    return "timely";
}

} // namespace ns3
