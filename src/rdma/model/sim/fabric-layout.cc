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
#include <unordered_map>

namespace ns3
{

uint32_t FabricLayout::s_ccLines = FabricLayout::kCcMostLines;
std::vector<FabricLayout::PortEntry> FabricLayout::s_ports;
std::vector<FabricLayout::SwitchEntry> FabricLayout::s_switches;

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
    // The tables are made anew, whole (events point into them: reserved first, so that
    // no entry moves while they are filled).
    size_t ports = 0;
    std::unordered_map<const RdmaSwitch*, size_t> switches;
    ForEachPort([&](RdmaNetDevice& dev) {
        ++ports;
        if (const auto* sw = dynamic_cast<const RdmaSwitch*>(dev.m_owner))
        {
            switches.emplace(sw, switches.size());
        }
    });
    s_ports.clear();
    s_ports.reserve(ports);
    s_switches.assign(switches.size(), SwitchEntry());
    ForEachPort([&](RdmaNetDevice& dev) {
        RdmaPortOwner* owner = dev.m_owner;
        const auto* nic = dynamic_cast<const RdmaNic*>(owner);
        const auto* sw = dynamic_cast<const RdmaSwitch*>(owner);
        // The link directions to it and from it (made now if the link has not carried a
        // frame yet; never for a link between ranks, which has none).
        RdmaChannel::Direction* to = nullptr;
        RdmaChannel::Direction* from = nullptr;
        if (dev.m_channel && dev.m_channel->KeepsFramesInFlight() &&
            dev.m_channel->GetNDevices() == 2)
        {
            RdmaChannel& ch = *dev.m_channel;
            const uint32_t self = PeekPointer(ch.m_devices[0]) == &dev ? 0 : 1;
            to = &ch.DirectionTo(self);
            from = &ch.DirectionTo(1 - self);
        }
        // Its end of transmission.
        s_ports.push_back(PortEntry{nic != nullptr ? static_cast<const void*>(nic) : sw, from});
        if (dev.m_txComplete)
        {
            DirectEvent& tx = *dev.m_txComplete;
            tx.m_role = nic != nullptr ? TX_END_NIC : sw != nullptr ? TX_END_SWITCH : TX_END_PORT;
            tx.m_roleOwner = &s_ports.back();
        }
        SwitchEntry* entry = nullptr;
        if (sw != nullptr)
        {
            entry = &s_switches[switches[sw]];
            entry->sw = sw;
            entry->out.resize(std::max<size_t>(entry->out.size(), sw->m_ports.size()));
            if (dev.m_ownerPort < entry->out.size())
            {
                entry->out[dev.m_ownerPort] = from;
            }
        }
        // The arrivals of the frames its link brings it.
        if (to != nullptr)
        {
            to->m_role = nic != nullptr  ? ARRIVAL_NIC
                         : sw != nullptr ? ARRIVAL_SWITCH
                                         : ARRIVAL_PORT;
            to->m_roleOwner = nic != nullptr ? static_cast<const void*>(nic) : entry;
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
