/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/hpcc.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(Hpcc);

TypeId
Hpcc::GetTypeId()
{
    static TypeId tid = TypeId("ns3::Hpcc")
                            .SetParent<CongestionControl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<Hpcc>();
    return tid;
}

uint64_t
Hpcc::GetRate()
{
    return m_ctx.lineRate;
}

std::string
Hpcc::GetName() const
{
    return "hpcc";
}

} // namespace ns3
