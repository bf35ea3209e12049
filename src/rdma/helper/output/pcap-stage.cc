/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/pcap-stage.h"

#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"

#include <set>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

namespace
{
/// The nodes to capture: output.pcap.nodes, or every node of the fabric if empty.
std::vector<uint32_t>
CapturedNodes(const json& s, const RdmaTopology& topo)
{
    std::vector<uint32_t> nodes;
    for (const json& n : At(s, "output.pcap.nodes"))
    {
        nodes.push_back(n.get<uint32_t>());
    }
    if (nodes.empty())
    {
        nodes = topo.GetHosts();
        nodes.insert(nodes.end(), topo.GetSwitches().begin(), topo.GetSwitches().end());
    }
    return nodes;
}
} // namespace

void
PcapStage::Check(const json& s, const RdmaTopology& topo, const std::string& file)
{
    std::set<uint32_t> exist(topo.GetHosts().begin(), topo.GetHosts().end());
    exist.insert(topo.GetSwitches().begin(), topo.GetSwitches().end());
    std::set<uint32_t> seen;
    for (const json& n : At(s, "output.pcap.nodes"))
    {
        const auto node = n.get<uint32_t>();
        std::string why;
        if (!exist.count(node))
        {
            why = "node " + std::to_string(node) + " does not exist: node ids are " +
                  std::to_string(*exist.begin()) + " to " + std::to_string(*exist.rbegin()) +
                  ", as in links.csv";
        }
        else if (!seen.insert(node).second)
        {
            why = "node " + std::to_string(node) + " is listed twice";
        }
        if (!why.empty())
        {
            throw ScenarioError(file + ": key 'output.pcap.nodes' has invalid value " +
                                At(s, "output.pcap.nodes").dump() + " (" + why + ")");
        }
    }
}

PcapStage::PcapStage(const json& s, const RdmaTopology& topo, RunOutput& out)
{
    if (!Bool(s, "output.pcap.enabled"))
    {
        return;
    }
    m_helper.SetPcapMaxPackets(static_cast<uint64_t>(Int(s, "output.pcap.max_packets")));
    const std::string prefix = out.Path("pcap/rdma");
    for (uint32_t node : CapturedNodes(s, topo))
    {
        Ptr<Node> n = topo.GetNode(node);
        for (uint32_t d = 0; d < n->GetNDevices(); ++d)
        {
            m_helper.EnablePcap(prefix, n->GetDevice(d));
        }
    }
}

void
PcapStage::Stop()
{
    m_helper.ClosePcapFiles();
}

} // namespace ns3
