/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Two bare ports joined by one link, for the port tests.
 */
#ifndef RDMA_TEST_TWO_PORT_LINK_H
#define RDMA_TEST_TWO_PORT_LINK_H

#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-net-device.h"

namespace rdmatest
{

using namespace ns3;

/// Two bare ports, A and B, each on a node of its own, joined by one link (the
/// channel's defaults); Data makes the header of a 512-byte data frame from A to B.
struct TwoPortLink
{
    Ptr<RdmaNetDevice> a = CreateObject<RdmaNetDevice>();
    Ptr<RdmaNetDevice> b = CreateObject<RdmaNetDevice>();

    TwoPortLink()
    {
        Ptr<RdmaChannel> ch = CreateObject<RdmaChannel>();
        for (const Ptr<RdmaNetDevice>& dev : {a, b})
        {
            CreateObject<Node>()->AddDevice(dev);
            dev->Attach(ch);
        }
    }

    RdmaHeader Data(uint32_t psn) const
    {
        RdmaHeader h;
        h.type = RdmaPacketType::DATA;
        h.priority = 3;
        h.src = a->GetNode()->GetId();
        h.dst = b->GetNode()->GetId();
        h.psn = psn;
        h.payload = 512;
        return h;
    }
};

} // namespace rdmatest

#endif /* RDMA_TEST_TWO_PORT_LINK_H */
