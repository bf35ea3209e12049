/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/pcap-stage.h"

#include "ns3/rdma-ranks.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
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
        if (!topo.IsLocal(node))
        {
            continue; // over MPI ranks, its own rank captures it
        }
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

namespace
{
/// The bytes of pcap file \p bytes up to its first frame after \p endNs (frames are in
/// time order: a port's file is written as it runs).
std::size_t
CaptureEnd(const std::string& bytes, int64_t endNs)
{
    constexpr std::size_t kFileHeader = 24;
    constexpr std::size_t kRecordHeader = 16;
    uint32_t magic = 0;
    if (bytes.size() < kFileHeader)
    {
        return bytes.size();
    }
    std::memcpy(&magic, bytes.data(), 4);
    const int64_t perSecond = magic == 0xa1b23c4d ? 1 : 1000; // ns or us stamps (ns-3's)
    std::size_t at = kFileHeader;
    while (at + kRecordHeader <= bytes.size())
    {
        uint32_t field[4];
        std::memcpy(field, bytes.data() + at, sizeof(field));
        if (int64_t(field[0]) * 1000000000 + int64_t(field[1]) * perSecond > endNs)
        {
            return at;
        }
        at += kRecordHeader + field[2];
    }
    return bytes.size();
}
} // namespace

void
PcapStage::GatherRanks(const json& s, RunOutput& out, Time end)
{
    namespace fs = std::filesystem;
    if (!Bool(s, "output.pcap.enabled"))
    {
        return;
    }
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(fs::path(out.Path("pcap/rdma")).parent_path()))
    {
        names.push_back("pcap/" + entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    // A rank's files in one text: per file, its name and size on a line each, its bytes.
    // Rank 0's stay in its folder, cut at the end like the others.
    std::string pack;
    for (const std::string& name : names)
    {
        std::string bytes;
        out.Take(name, &bytes);
        bytes.resize(CaptureEnd(bytes, end.GetNanoSeconds()));
        if (RdmaRanks::Rank() == 0)
        {
            out.WriteFile(name, bytes);
        }
        else
        {
            pack += name + "\n" + std::to_string(bytes.size()) + "\n" + bytes;
        }
    }
    for (const std::string& p : RdmaRanks::Gather(pack))
    {
        for (std::size_t at = 0; at < p.size();)
        {
            const std::size_t nameEnd = p.find('\n', at);
            const std::size_t sizeEnd = p.find('\n', nameEnd + 1);
            const std::size_t size = std::stoull(p.substr(nameEnd + 1, sizeEnd - nameEnd - 1));
            out.WriteFile(p.substr(at, nameEnd - at), p.substr(sizeEnd + 1, size));
            at = sizeEnd + 1 + size;
        }
    }
}

} // namespace ns3
