/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-topology.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/dynamic-threshold-policy.h"
#include "ns3/ecmp-load-balancer.h"
#include "ns3/go-back-n.h"
#include "ns3/hash-constants.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-file.h"
#include "ns3/pointer.h"
#include "ns3/rdma-wire.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTopology");

RdmaTopology::RdmaTopology()
    : m_saltPerSwitch(true),
      m_saltSeed(0),
      m_finalized(false),
      m_firstId(0)
{
    m_deviceFactory.SetTypeId(RdmaNetDevice::GetTypeId());
    m_nicFactory.SetTypeId(RdmaNic::GetTypeId());
    m_switchFactory.SetTypeId(RdmaSwitch::GetTypeId());
    m_mmuFactory.SetTypeId(SwitchMmu::GetTypeId());
    m_lbFactory.SetTypeId(EcmpLoadBalancer::GetTypeId());
    m_bufferPolicyFactory.SetTypeId(DynamicThresholdPolicy::GetTypeId());
    m_recoveryFactory.SetTypeId(GoBackN::GetTypeId());
}

void
RdmaTopology::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
RdmaTopology::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
RdmaTopology::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
RdmaTopology::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    m_mmuFactory.Set(name, value);
}

void
RdmaTopology::SetLoadBalancer(const ObjectFactory& factory)
{
    m_lbFactory = factory;
}

void
RdmaTopology::SetBufferPolicy(const ObjectFactory& factory)
{
    m_bufferPolicyFactory = factory;
}

void
RdmaTopology::SetCongestionControl(const ObjectFactory& factory)
{
    m_ccFactory = factory;
}

void
RdmaTopology::SetLossRecovery(const ObjectFactory& factory)
{
    NS_ABORT_MSG_IF(m_finalized, "RdmaTopology: SetLossRecovery after Finalize");
    m_recoveryFactory = factory;
}

void
RdmaTopology::SetEcmpSaltPerSwitch(bool perSwitch, uint32_t seed)
{
    m_saltPerSwitch = perSwitch;
    m_saltSeed = seed;
}

uint32_t
RdmaTopology::Local(uint32_t node) const
{
    return node - m_firstId;
}

uint32_t
RdmaTopology::AddNode(bool host, const std::string& kind)
{
    NS_ABORT_MSG_IF(m_finalized, "RdmaTopology: AddHost or AddSwitch after Finalize");
    NS_ABORT_MSG_IF(m_partitioned, "RdmaTopology: AddHost or AddSwitch after Partition");
    Ptr<Node> node = CreateObject<Node>();
    if (m_nodes.GetN() == 0)
    {
        m_firstId = node->GetId();
    }
    NS_ABORT_MSG_IF(node->GetId() != m_firstId + m_nodes.GetN(),
                    "RdmaTopology: nodes must be created by one topology at a time");
    m_nodes.Add(node);
    m_isHost.push_back(host);
    m_kinds.push_back(kind);
    m_hostIndex.push_back(host ? m_hosts.size() : kNotAHost);
    m_switchIndex.push_back(host ? kNotAHost : m_switches.size());
    (host ? m_hosts : m_switches).push_back(node->GetId());
    m_nics.push_back(nullptr); // built by Finalize, on the rank that steps the node
    m_switchObjs.push_back(nullptr);
    m_portLinks.emplace_back();
    return node->GetId();
}

uint32_t
RdmaTopology::AddHost()
{
    return AddNode(true, "host");
}

uint32_t
RdmaTopology::AddSwitch(const std::string& kind)
{
    return AddNode(false, kind);
}

void
RdmaTopology::AddLink(uint32_t a, uint32_t b, DataRate rate, Time delay)
{
    NS_ABORT_MSG_IF(m_finalized, "RdmaTopology: AddLink after Finalize");
    NS_ABORT_MSG_IF(m_partitioned, "RdmaTopology: AddLink after Partition");
    NS_ABORT_MSG_IF(a == b, "RdmaTopology: a link needs two different nodes");
    Link link{a, b, 0, 0, rate.GetBitRate(), rate.GetBitRate(), delay, true};
    for (uint32_t end = 0; end < 2; ++end)
    {
        const uint32_t id = end == 0 ? a : b;
        const uint32_t local = Local(id);
        NS_ABORT_MSG_IF(m_isHost[local] && !m_portLinks[local].empty(),
                        "RdmaTopology: host " << id << " already has a link");
        // A host's one port is 0; a switch numbers its ports in the order of its links.
        (end == 0 ? link.portA : link.portB) = m_portLinks[local].size();
        m_portLinks[local].push_back(m_links.size());
    }
    m_links.push_back(link);
}

void
RdmaTopology::CheckHostsLinked() const
{
    for (uint32_t h : m_hosts)
    {
        NS_ABORT_MSG_IF(m_portLinks[Local(h)].empty(),
                        "RdmaTopology: host " << h << " has no link");
    }
}

void
RdmaTopology::Finalize()
{
    NS_ABORT_MSG_IF(m_finalized, "RdmaTopology: Finalize called twice");
    CheckHostsLinked();
    IndexHosts();
    BuildNodes();
    BuildLinks();
    ComputeRoutes();
    ConfigureSwitchPorts();
    m_finalized = true;
    m_maxBaseRtt = ComputeMaxBaseRtt();
    for (uint32_t h : m_localHosts)
    {
        m_nics[Local(h)]->SetFabricBaseRtt(m_maxBaseRtt);
    }
    if (m_maxBaseRtt.IsStrictlyPositive())
    {
        for (uint32_t sid : m_localSwitches)
        {
            m_switchObjs[Local(sid)]->SetPintBaseRtt(m_maxBaseRtt); // PINT's T
        }
    }
}

void
RdmaTopology::ConfigureSwitchPorts()
{
    const uint32_t mtu = GetMtu();
    for (uint32_t sid : m_localSwitches)
    {
        const uint32_t s = Local(sid);
        Ptr<RdmaSwitch> sw = m_switchObjs[s];
        Ptr<SwitchMmu> mmu = sw->GetMmu();
        for (uint32_t li : m_portLinks[s])
        {
            const Link& l = m_links[li];
            mmu->ConfigurePort(Local(l.a) == s ? l.portA : l.portB, l.bitRate, l.delay, mtu);
        }
        Ptr<LoadBalancer> lb = m_lbFactory.Create<LoadBalancer>();
        // Hash-based schemes get a per-switch salt (see EcmpLoadBalancer).
        const uint32_t salt =
            m_saltPerSwitch ? (sid + 1) * rdmahash::kFibonacci32 ^ (m_saltSeed * rdmahash::kMix16)
                            : m_saltSeed;
        lb->SetAttributeFailSafe("Salt", UintegerValue(salt));
        sw->SetLoadBalancer(lb);
    }
}

int32_t
RdmaTopology::FindLink(uint32_t a, uint32_t b, uint32_t nth) const
{
    for (uint32_t i = 0; i < m_links.size(); ++i)
    {
        const Link& l = m_links[i];
        if (((l.a == a && l.b == b) || (l.a == b && l.b == a)) && nth-- == 0)
        {
            return i;
        }
    }
    return -1;
}

Ptr<RdmaNetDevice>
RdmaTopology::Device(uint32_t node, uint32_t port) const
{
    const uint32_t local = Local(node);
    if (!IsLocal(node))
    {
        return nullptr;
    }
    return m_isHost[local] ? m_nics[local]->GetDevice() : m_switchObjs[local]->GetPort(port);
}

void
RdmaTopology::SetLinkUp(uint32_t link, bool up)
{
    Link& l = m_links.at(link);
    l.up = up;
    for (const auto& [node, port] : {std::pair{l.a, l.portA}, std::pair{l.b, l.portB}})
    {
        if (Ptr<RdmaNetDevice> dev = Device(node, port))
        {
            dev->SetLinkUp(up);
        }
    }
    ComputeRoutes();
}

void
RdmaTopology::SetLinkRate(uint32_t link, DataRate rate)
{
    Link& l = m_links.at(link);
    l.bitRate = rate.GetBitRate();
    for (const auto& [node, port] : {std::pair{l.a, l.portA}, std::pair{l.b, l.portB}})
    {
        if (Ptr<RdmaNetDevice> dev = Device(node, port))
        {
            dev->SetDataRate(rate);
        }
    }
    for (auto& [key, seg] : m_segments)
    {
        seg.rttSteps = SegmentInfo::kUnknown; // base RTTs follow the new rate
    }
}

uint64_t
RdmaTopology::GetLinkDownDrops() const
{
    uint64_t drops = 0;
    for (const Link& l : m_links)
    {
        for (const auto& [node, port] : {std::pair{l.a, l.portA}, std::pair{l.b, l.portB}})
        {
            if (Ptr<RdmaNetDevice> dev = Device(node, port))
            {
                drops += dev->GetLinkDownDrops();
            }
        }
    }
    return drops;
}

std::vector<std::vector<uint64_t>>
RdmaTopology::GetUplinkTxBytes() const
{
    std::vector<std::vector<uint64_t>> byLeaf;
    for (uint32_t sid : m_switches)
    {
        if (GetNodeKind(sid) != "leaf")
        {
            continue;
        }
        std::vector<uint64_t> up;
        for (uint32_t li : m_portLinks[Local(sid)])
        {
            const Link& l = m_links[li];
            const bool isA = l.a == sid;
            if (GetNodeKind(isA ? l.b : l.a) == "spine")
            {
                // (Another rank's leaf counts nothing here: its own rank counts it.)
                Ptr<RdmaNetDevice> dev = Device(sid, isA ? l.portA : l.portB);
                up.push_back(dev ? dev->GetTxBytes() : 0);
            }
        }
        byLeaf.push_back(up);
    }
    return byLeaf;
}

uint32_t
RdmaTopology::GetHostIndex(uint32_t node) const
{
    const uint32_t local = node - m_firstId;
    return node >= m_firstId && local < m_hostIndex.size() ? m_hostIndex[local] : kNotAHost;
}

const std::vector<uint32_t>&
RdmaTopology::GetHosts() const
{
    return m_hosts;
}

const std::vector<uint32_t>&
RdmaTopology::GetSwitches() const
{
    return m_switches;
}

const std::vector<uint32_t>&
RdmaTopology::GetLocalHosts() const
{
    return m_localHosts;
}

const std::vector<uint32_t>&
RdmaTopology::GetLocalSwitches() const
{
    return m_localSwitches;
}

bool
RdmaTopology::IsHost(uint32_t node) const
{
    const uint32_t local = Local(node);
    return local < m_isHost.size() && m_isHost[local];
}

Ptr<Node>
RdmaTopology::GetNode(uint32_t node) const
{
    return m_nodes.Get(Local(node));
}

Ptr<RdmaNic>
RdmaTopology::GetNic(uint32_t host) const
{
    return m_nics.at(Local(host));
}

Ptr<RdmaSwitch>
RdmaTopology::GetSwitch(uint32_t sw) const
{
    return m_switchObjs.at(Local(sw));
}

uint32_t
RdmaTopology::GetNLinks() const
{
    return m_links.size();
}

const std::string&
RdmaTopology::GetNodeKind(uint32_t node) const
{
    return m_kinds.at(Local(node));
}

uint32_t
RdmaTopology::GetAttachedSwitch(uint32_t host) const
{
    NS_ABORT_MSG_IF(!IsHost(host) || m_portLinks[Local(host)].empty(),
                    "RdmaTopology: " << host << " is not a linked host");
    const Link& l = m_links[m_portLinks[Local(host)].front()];
    return l.a == host ? l.b : l.a;
}

uint64_t
RdmaTopology::GetHostBitRate(uint32_t host) const
{
    NS_ABORT_MSG_IF(!IsHost(host) || m_portLinks[Local(host)].empty(),
                    "RdmaTopology: " << host << " is not a linked host");
    return m_links[m_portLinks[Local(host)].front()].bitRate;
}

uint64_t
RdmaTopology::GetSwitchUplinkBitRate(uint32_t sw) const
{
    uint64_t sum = 0;
    for (uint32_t li : m_portLinks.at(Local(sw)))
    {
        const Link& l = m_links[li];
        if (!IsHost(l.a == sw ? l.b : l.a))
        {
            sum += l.bitRate;
        }
    }
    return sum;
}

void
RdmaTopology::WriteLinks(std::ostream& out) const
{
    // The columns as links.csv declares them (OutputStage).
    out << OutputFiles::Find("links.csv")->Header() << '\n';
    for (const Link& l : m_links)
    {
        for (uint32_t end = 0; end < 2; ++end)
        {
            const uint32_t n = end == 0 ? l.a : l.b;
            const uint32_t p = end == 0 ? l.portA : l.portB;
            const uint32_t m = end == 0 ? l.b : l.a;
            const uint32_t q = end == 0 ? l.portB : l.portA;
            out << n << ',' << p << ',' << GetNodeKind(n) << ',' << m << ',' << q << ','
                << GetNodeKind(m) << ',' << l.bitRate << ',' << l.delay.GetNanoSeconds() << '\n';
        }
    }
}

uint32_t
RdmaTopology::GetMtu() const
{
    if (!m_localHosts.empty())
    {
        return m_nics[Local(m_localHosts[0])]->GetMtu();
    }
    return 1024;
}

} // namespace ns3
