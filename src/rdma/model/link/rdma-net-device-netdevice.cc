/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaNetDevice: the ns3::NetDevice interface (addresses, MTU, link state, Send), which
 * the RDMA model itself does not use; the port's queues and transmission are in
 * rdma-net-device.cc.
 */
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-net-device.h"

namespace ns3
{

void
RdmaNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
RdmaNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
RdmaNetDevice::GetChannel() const
{
    return m_channel;
}

void
RdmaNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
RdmaNetDevice::GetAddress() const
{
    return m_address;
}

bool
RdmaNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
RdmaNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
RdmaNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && m_linkUp;
}

void
RdmaNetDevice::AddLinkChangeCallback(Callback<void> /* callback */)
{
}

bool
RdmaNetDevice::IsBroadcast() const
{
    return false;
}

Address
RdmaNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
RdmaNetDevice::IsMulticast() const
{
    return false;
}

Address
RdmaNetDevice::GetMulticast(Ipv4Address /* multicastGroup */) const
{
    return Mac48Address::GetMulticast(Ipv4Address("224.0.0.0"));
}

Address
RdmaNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
RdmaNetDevice::IsBridge() const
{
    return false;
}

bool
RdmaNetDevice::IsPointToPoint() const
{
    return true;
}

bool
RdmaNetDevice::Send(Ptr<Packet> packet, const Address& /* dest */, uint16_t /* protocol */)
{
    RdmaHeader h;
    packet->PeekHeader(h);
    Enqueue(packet, h.priority, 0);
    return true;
}

bool
RdmaNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& /* source */,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
RdmaNetDevice::GetNode() const
{
    return m_node;
}

void
RdmaNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
RdmaNetDevice::NeedsArp() const
{
    return false;
}

void
RdmaNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback /* cb */)
{
    // Frames go up through SetRdmaReceiveCallback, with their parsed header.
}

void
RdmaNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback /* cb */)
{
}

bool
RdmaNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
