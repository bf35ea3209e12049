/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/fabric-layout.h"

#include "ns3/fabric-layout-inline.h"
#include "ns3/node-list.h"
#include "ns3/prefetch-budget.h"
#include "ns3/rdma-channel-direction.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"

#include <algorithm>

namespace ns3
{

uint32_t FabricLayout::s_ccLines = FabricLayout::kCcMostLines;

namespace
{
/// Every RdmaNetDevice on a node, in node and device order.
template <class F>
void
ForEachPort(F f)
{
    for (auto n = NodeList::Begin(); n != NodeList::End(); ++n)
    {
        for (uint32_t i = 0; i < (*n)->GetNDevices(); ++i)
        {
            if (auto* dev = dynamic_cast<RdmaNetDevice*>(PeekPointer((*n)->GetDevice(i))))
            {
                f(*dev);
            }
        }
    }
}
} // namespace

int64_t
FabricLayout::PortBytes()
{
    int64_t ports = 0;
    ForEachPort([&ports](RdmaNetDevice&) { ++ports; });
    return ports * RdmaNetDevice::kHotLines * 64;
}

uint32_t
FabricLayout::PortLines()
{
    return RdmaNetDevice::kHotLines;
}

uint32_t
FabricLayout::ControllerLines(const Object& cc)
{
    const std::size_t size = cc.GetInstanceTypeId().GetSize();
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(&cc) % 64;
    const std::size_t lines = (offset + size + 63) / 64;
    return size == 0 ? kCcMostLines : std::min<uint32_t>(lines, kCcMostLines);
}

void
FabricLayout::Setup()
{
    // What the core loads ahead holds what is read.
    static_assert(PrefetchBudget::kFirstHintLines >= RdmaFrame::kLines,
                  "an arrival's first hint (the frame) loads all of the frame");
    static_assert(PrefetchBudget::kFirstHintLines >= RdmaNic::kQpLines,
                  "a pull's first hint (its QP) loads what a pull reads of it");
    static_assert(PrefetchBudget::kFourthHintLines * 64 >= sizeof(RdmaChannel::Direction) &&
                      alignof(RdmaChannel::Direction) == 64,
                  "a port's fourth hint (its link's direction) loads all of the direction");
    static_assert(PrefetchBudget::kObjectLines * 64 >= sizeof(RdmaChannel::Direction),
                  "the lines the core loads for an event hold all of a link's direction");
    uint32_t ccLines = 0;
    ForEachPort([&](RdmaNetDevice& dev) {
        RdmaPortOwner* owner = dev.m_owner;
        const auto* nic = dynamic_cast<const RdmaNic*>(owner);
        const auto* sw = dynamic_cast<const RdmaSwitch*>(owner);
        const void* object = nic != nullptr ? static_cast<const void*>(nic) : sw;
        // Its end of transmission.
        if (dev.m_txComplete)
        {
            DirectEvent& tx = *dev.m_txComplete;
            tx.m_role = nic != nullptr ? TX_END_NIC : sw != nullptr ? TX_END_SWITCH : TX_END_PORT;
            tx.m_roleOwner = object;
        }
        // The arrivals of the frames its link brings it (the link's direction to it,
        // made now if the link has not carried a frame yet; never for a link between
        // ranks, which has none).
        if (dev.m_channel && !dev.m_channel->m_remote && dev.m_channel->GetNDevices() == 2)
        {
            RdmaChannel& ch = *dev.m_channel;
            DirectEvent& arrival = ch.DirectionTo(PeekPointer(ch.m_devices[0]) == &dev ? 0 : 1);
            arrival.m_role = nic != nullptr  ? ARRIVAL_NIC
                             : sw != nullptr ? ARRIVAL_SWITCH
                                             : ARRIVAL_PORT;
            arrival.m_roleOwner = object;
        }
        if (nic != nullptr)
        {
            // (A NIC has one port: each is measured once.)
            for (const RateLimiter& limiter : nic->m_limiters)
            {
                if (limiter.cc)
                {
                    ccLines = std::max(ccLines, ControllerLines(*limiter.cc));
                }
            }
        }
    });
    s_ccLines = ccLines != 0 ? ccLines : kCcMostLines;
}

FabricLayout::Role
FabricLayout::RoleOfTxEnd(const RdmaNetDevice& dev)
{
    return dev.m_txComplete ? RoleOf(*dev.m_txComplete) : NONE;
}

FabricLayout::Role
FabricLayout::RoleOfArrivalAt(const RdmaNetDevice& dev)
{
    const Ptr<RdmaChannel>& ch = dev.m_channel;
    if (!ch)
    {
        return NONE;
    }
    const Ptr<RdmaChannel::Direction>& d =
        ch->m_dirs[PeekPointer(ch->m_devices[0]) == &dev ? 0 : 1];
    return d ? RoleOf(*d) : NONE;
}

const void*
FabricLayout::QpOf(const RdmaNic& nic, const RdmaHeader& h)
{
    return Inline::QpOf(nic, h);
}

} // namespace ns3
