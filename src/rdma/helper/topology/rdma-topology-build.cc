/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What RdmaTopology::Finalize builds: the NICs, switches, devices and channels (over MPI
 * ranks, of this rank's nodes and links only), and the random streams of what it built,
 * numbered as if every node were built here.
 */
#include "ns3/buffer-policy.h"
#include "ns3/mac48-address.h"
#include "ns3/pointer.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-ranks.h"
#include "ns3/rdma-remote-channel.h"
#include "ns3/rdma-topology.h"

#include <tuple>

namespace ns3
{

void
RdmaTopology::BuildNodes()
{
    for (uint32_t v = 0; v < m_nodes.GetN(); ++v)
    {
        if (!IsLocal(m_firstId + v))
        {
            continue; // another rank's: its Node only, which keeps ns-3's numbering
        }
        Ptr<Node> node = m_nodes.Get(v);
        if (m_isHost[v])
        {
            if (!m_recovery)
            {
                m_recovery = m_recoveryFactory.Create<LossRecovery>();
            }
            Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
            nic->SetAttribute("LossRecovery", PointerValue(m_recovery));
            node->AggregateObject(nic);
            if (m_ccFactory.GetTypeId() != TypeId())
            {
                nic->SetCongestionControl(m_ccFactory);
            }
            m_nics[v] = nic;
            m_localHosts.push_back(node->GetId());
        }
        else
        {
            Ptr<RdmaSwitch> sw = m_switchFactory.Create<RdmaSwitch>();
            Ptr<SwitchMmu> mmu = m_mmuFactory.Create<SwitchMmu>();
            mmu->SetBufferPolicy(m_bufferPolicyFactory.Create<BufferPolicy>());
            sw->SetAttribute("Mmu", PointerValue(mmu));
            node->AggregateObject(sw);
            m_switchObjs[v] = sw;
            m_localSwitches.push_back(node->GetId());
        }
    }
}

void
RdmaTopology::BuildLinks()
{
    using ReceivePacket = void (RdmaNetDevice::*)(Ptr<Packet>);
    for (const Link& l : m_links)
    {
        const bool localA = IsLocal(l.a);
        const bool localB = IsLocal(l.b);
        if (!localA && !localB)
        {
            // Between two other ranks' nodes: not built. Its devices' MAC addresses are
            // skipped, so that every device has the serial run's (captures name them).
            Mac48Address::Allocate();
            Mac48Address::Allocate();
            continue;
        }
        // A link cut by the partition carries its frames between ranks.
        Ptr<RdmaChannel> channel;
        if (localA == localB)
        {
            channel = CreateObject<RdmaChannel>();
        }
        else
        {
            channel = CreateObject<RdmaRemoteChannel>();
        }
        channel->SetAttribute("Delay", TimeValue(l.delay));
        for (const auto& [id, port, local] :
             {std::tuple{l.a, l.portA, localA}, std::tuple{l.b, l.portB, localB}})
        {
            Ptr<Node> node = m_nodes.Get(Local(id));
            Ptr<RdmaNetDevice> dev = m_deviceFactory.Create<RdmaNetDevice>();
            dev->SetDataRate(DataRate(l.bitRate));
            if (!local)
            {
                // The far end of a link between ranks: it only names where the frames
                // go (node and port, as its own rank numbers them), and is never stepped.
                dev->SetNode(node);
                dev->SetIfIndex(port);
                dev->Attach(channel);
                continue;
            }
            node->AddDevice(dev);
            dev->Attach(channel);
            if (m_isHost[Local(id)])
            {
                m_nics[Local(id)]->SetDevice(dev);
            }
            else
            {
                m_switchObjs[Local(id)]->AddPort(dev);
            }
            if (localA != localB)
            {
                // This end hears what the other rank sends.
                RdmaRanks::Listen(dev,
                                  MakeCallback(static_cast<ReceivePacket>(&RdmaNetDevice::Receive),
                                               PeekPointer(dev)));
                RdmaRanks::ListenRecords(
                    id,
                    dev->GetIfIndex(),
                    MakeCallback(&RdmaNetDevice::ReceiveRemote, PeekPointer(dev)));
            }
        }
    }
}

namespace
{
/**
 * Number the streams of \p nodes (ids) from \p stream, \p assign(node, first) numbering
 * a node's from first and returning how many it takes (null: another rank's node). Every
 * node takes as many as the first built one (they come from one factory), so another
 * rank's node skips that many.
 */
template <typename Assign>
int64_t
AssignInOrder(const std::vector<uint32_t>& nodes,
              const std::vector<uint32_t>& built,
              int64_t stream,
              Assign assign)
{
    if (built.empty())
    {
        return 0;
    }
    const int64_t each = assign(built.front(), stream); // its own place follows
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        assign(nodes[i], stream + static_cast<int64_t>(i) * each);
    }
    return static_cast<int64_t>(nodes.size()) * each;
}
} // namespace

int64_t
RdmaTopology::AssignNicStreams(int64_t stream) const
{
    return AssignInOrder(m_hosts, m_localHosts, stream, [this](uint32_t h, int64_t first) {
        Ptr<RdmaNic> nic = GetNic(h);
        return nic ? nic->AssignStreams(first) : 0;
    });
}

int64_t
RdmaTopology::AssignSwitchStreams(int64_t stream) const
{
    return AssignInOrder(m_switches, m_localSwitches, stream, [this](uint32_t s, int64_t first) {
        Ptr<RdmaSwitch> sw = GetSwitch(s);
        if (!sw)
        {
            return int64_t(0);
        }
        const int64_t mmu = sw->GetMmu()->AssignStreams(first);
        return mmu + sw->GetLoadBalancer()->AssignStreams(first + mmu);
    });
}

int64_t
RdmaTopology::AssignPintStreams(int64_t stream) const
{
    return AssignInOrder(m_switches, m_localSwitches, stream, [this](uint32_t s, int64_t first) {
        Ptr<RdmaSwitch> sw = GetSwitch(s);
        return sw ? sw->AssignPintStream(first) : int64_t(0);
    });
}

} // namespace ns3
