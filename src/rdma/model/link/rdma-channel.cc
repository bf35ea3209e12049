/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-channel.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rdma-net-device.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaChannel");
NS_OBJECT_ENSURE_REGISTERED(RdmaChannel);

TypeId
RdmaChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the link (one way).",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&RdmaChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

RdmaChannel::RdmaChannel()
    : m_nDevices(0)
{
}

void
RdmaChannel::Attach(Ptr<RdmaNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices == 2, "RdmaChannel: a link connects exactly two devices");
    m_devices[m_nDevices++] = device;
}

void
RdmaChannel::Transmit(Ptr<Packet> p, Ptr<RdmaNetDevice> src, Time txTime)
{
    Ptr<RdmaNetDevice> dst = m_devices[0] == src ? m_devices[1] : m_devices[0];
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &RdmaNetDevice::Receive,
                                   dst,
                                   p);
}

Ptr<RdmaNetDevice>
RdmaChannel::GetPeer(Ptr<const RdmaNetDevice> device) const
{
    return m_devices[0] == device ? m_devices[1] : m_devices[0];
}

Time
RdmaChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
RdmaChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
RdmaChannel::GetDevice(std::size_t i) const
{
    return m_devices[i];
}

} // namespace ns3
