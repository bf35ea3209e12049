/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rtt-probe.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RttProbe);

TypeId
RttProbe::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RttProbe")
                            .SetParent<CongestionControl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RttProbe>();
    return tid;
}

uint64_t
RttProbe::GetRate()
{
    return m_ctx.lineRate;
}

std::string
RttProbe::GetName() const
{
    return "rtt-probe";
}

} // namespace ns3
