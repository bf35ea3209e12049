/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-remote-channel.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-ranks.h"
#include "ns3/rdma-sim.h"
#include "ns3/simulator.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRemoteChannel");
NS_OBJECT_ENSURE_REGISTERED(RdmaRemoteChannel);

TypeId
RdmaRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRemoteChannel")
                            .SetParent<RdmaChannel>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaRemoteChannel>();
    return tid;
}

void
RdmaRemoteChannel::Deliver(const Ptr<RdmaFrame>& f, RdmaNetDevice* dst, uint64_t txSteps)
{
    const Time arrival = Simulator::Now() + TimeStep(static_cast<int64_t>(txSteps)) + Delay();
    NS_LOG_FUNCTION(this << dst->GetNode()->GetId() << arrival);
    if (RdmaRanks::OwnEngine())
    {
        // Under the module's own core only the header crosses: the payload is virtual.
        thread_local std::vector<uint8_t> wire;
        wire.clear();
        f->AppendHeaderBytes(wire);
        RdmaRanks::SendRecord(dst->GetNode()->GetId(),
                              dst->GetIfIndex(),
                              arrival,
                              RdmaSim::OrdersByNode() ? RdmaSim::ReserveUid() : 0,
                              wire.data(),
                              static_cast<uint32_t>(wire.size()));
        return;
    }
    RdmaRanks::Send(f->GetPacket(), arrival, dst->GetNode()->GetId(), dst->GetIfIndex());
}

bool
RdmaRemoteChannel::KeepsFramesInFlight() const
{
    return false;
}

} // namespace ns3
