/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/flowlet-load-balancer.h"

#include "ns3/ecmp-load-balancer.h"
#include "ns3/rdma-sim.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FlowletLoadBalancer);

TypeId
FlowletLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowletLoadBalancer")
            .SetParent<LoadBalancer>()
            .SetGroupName("Rdma")
            .AddConstructor<FlowletLoadBalancer>()
            .AddAttribute("Gap",
                          "Inactivity gap that ends a flowlet (LetFlow/CONGA: tens of us; "
                          "the RDMA LB survey: even 10 us loses to ECMP for RDMA).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&FlowletLoadBalancer::m_gap),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TableSize",
                          "Flowlet table entries (indexed by the flow hash).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&FlowletLoadBalancer::m_tableSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Salt",
                          "Per-switch hash seed (set by the helper like ECMP's).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FlowletLoadBalancer::m_salt),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

FlowletLoadBalancer::FlowletLoadBalancer()
    : m_tableSize(4096),
      m_salt(0)
{
}

uint32_t
FlowletLoadBalancer::SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates)
{
    if (m_table.size() != m_tableSize)
    {
        m_table.assign(m_tableSize, Slot{});
    }
    Slot& slot = m_table[EcmpLoadBalancer::Hash(h, m_salt) % m_tableSize];
    const Time now = RdmaSim::Now();
    const bool valid =
        std::find(candidates.begin(), candidates.end(), slot.port) != candidates.end();
    if (!valid || now - slot.lastSeen > m_gap)
    {
        slot.port = candidates[GetRng()->GetInteger(0, candidates.size() - 1)];
    }
    slot.lastSeen = now;
    return slot.port;
}

int64_t
FlowletLoadBalancer::AssignStreams(int64_t stream)
{
    GetRng()->SetStream(stream);
    return 1;
}

std::string
FlowletLoadBalancer::GetName() const
{
    return "flowlet";
}

} // namespace ns3
