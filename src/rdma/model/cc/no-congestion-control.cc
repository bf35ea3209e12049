/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/no-congestion-control.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NoCongestionControl);

TypeId
NoCongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NoCongestionControl")
                            .SetParent<CongestionControl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<NoCongestionControl>();
    return tid;
}

uint64_t
NoCongestionControl::DoGetRate()
{
    return m_ctx.lineRate;
}

std::string
NoCongestionControl::DoGetName() const
{
    return "none";
}

uint16_t
NoCongestionControl::DoImplementedHooks() const
{
    return 0;
}

} // namespace ns3
