/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A link of two bare ports between two nodes, for the tests that build a switch by hand.
 */
#ifndef RDMA_TEST_BARE_LINK_H
#define RDMA_TEST_BARE_LINK_H

#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-net-device.h"

#include <utility>

namespace rdmatest
{

/// A 100 Gb/s, 1 us link from a new port on \p a to a new port on \p b: {a's end, b's}.
inline std::pair<ns3::Ptr<ns3::RdmaNetDevice>, ns3::Ptr<ns3::RdmaNetDevice>>
BareLink(ns3::Ptr<ns3::Node> a, ns3::Ptr<ns3::Node> b)
{
    using namespace ns3;
    Ptr<RdmaChannel> ch = CreateObject<RdmaChannel>();
    ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
    std::pair<Ptr<RdmaNetDevice>, Ptr<RdmaNetDevice>> ends;
    for (Ptr<RdmaNetDevice>* end : {&ends.first, &ends.second})
    {
        *end = CreateObject<RdmaNetDevice>();
        (*end)->SetDataRate(DataRate(100000000000ULL));
        (end == &ends.first ? a : b)->AddDevice(*end);
        (*end)->Attach(ch);
    }
    return ends;
}

} // namespace rdmatest

#endif
