/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The Sniffer trace of RdmaNetDevice: frames as the bytes of a real RoCEv2 link, built
 * only while a sink (a capture) is connected.
 */
#include "ns3/rdma-channel.h"
#include "ns3/rdma-net-device.h"
#include "ns3/roce-wire-image.h"

namespace ns3
{

void
RdmaNetDevice::Sniff(const RdmaFrame& f, bool tx)
{
    Ptr<RdmaNetDevice> peer = m_channel ? m_channel->GetPeer(this) : nullptr;
    const Mac48Address peerAddress = peer ? peer->m_address : Mac48Address();
    const Mac48Address& src = tx ? m_address : peerAddress;
    const Mac48Address& dst = tx ? peerAddress : m_address;
    m_snifferTrace(rocewire::MakePacket(f.header, f.GetSize(), src, dst));
}

} // namespace ns3
