/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/swift.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(Swift);

TypeId
Swift::GetTypeId()
{
    static TypeId tid = TypeId("ns3::Swift")
                            .SetParent<CongestionControl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<Swift>();
    return tid;
}

uint64_t
Swift::GetRate()
{
    return m_ctx.lineRate;
}

std::string
Swift::GetName() const
{
    return "swift";
}

} // namespace ns3
