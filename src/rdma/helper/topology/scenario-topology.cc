/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-topology.h"

#include "ns3/fat-tree-helper.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/topology-file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;
namespace fs = std::filesystem;

namespace
{
std::string
Type(const json& s)
{
    return Str(s, "topology.type");
}

/// A rate key (Gb/s) in bit/s.
double
BitRate(const json& s, const std::string& key)
{
    return Num(s, key) * 1e9;
}

FatTreeHelper
FatTree(const json& s)
{
    FatTreeHelper ft;
    const int64_t k = At(s, "topology.fat_tree.k").get<int64_t>();
    if (k > 0)
    {
        ft.SetK(k);
    }
    else
    {
        ft.pods = At(s, "topology.fat_tree.pods").get<uint32_t>();
        ft.torsPerPod = At(s, "topology.fat_tree.tors_per_pod").get<uint32_t>();
        ft.aggsPerPod = At(s, "topology.fat_tree.aggs_per_pod").get<uint32_t>();
        ft.hostsPerTor = At(s, "topology.fat_tree.hosts_per_tor").get<uint32_t>();
        ft.cores = At(s, "topology.fat_tree.cores").get<uint32_t>();
    }
    ft.hostRate = Gbps(Num(s, "topology.host_rate_gbps"));
    ft.hostDelay = Us(At(s, "topology.host_delay_us").get<double>());
    ft.torAggRate = Gbps(Num(s, "topology.fabric_rate_gbps"));
    ft.aggCoreRate = ft.torAggRate;
    ft.fabricDelay = Us(At(s, "topology.fabric_delay_us").get<double>());
    return ft;
}

TopologyFile
ReadFile(const json& s)
{
    const std::string path = At(s, "topology.file").get<std::string>();
    return Type(s) == "hpcc_file" ? TopologyFile::ReadHpcc(path) : TopologyFile::ReadRdma(path);
}
} // namespace

void
ScenarioTopology::ResolvePaths(json& s, const std::string& file) const
{
    ResolvePathKey(s, "topology.file", file);
}

void
ScenarioTopology::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    auto fail = [&](const std::string& key, const std::string& why) { FailKey(file, s, key, why); };
    const std::string type = Type(s);
    if (type == "fat_tree")
    {
        const int64_t k = At(s, "topology.fat_tree.k").get<int64_t>();
        if (k > 0 && k % 2)
        {
            fail("topology.fat_tree.k", "k must be even");
        }
        if (k == 0 && !FatTree(s).IsValid())
        {
            fail("topology.fat_tree.cores", "must be a multiple of topology.fat_tree.aggs_per_pod");
        }
        if (FatTree(s).Hosts() < 2)
        {
            fail("topology.fat_tree.hosts_per_tor", "a fat-tree needs at least 2 hosts");
        }
    }
    if (type == "file" || type == "hpcc_file")
    {
        const std::string path = At(s, "topology.file").get<std::string>();
        if (path.empty())
        {
            fail("topology.file", "topology.type " + type + " needs a topology file");
        }
        if (!fs::exists(path))
        {
            fail("topology.file", "no such file");
        }
        ReadFile(s); // throws with file:line
    }
}

bool
ScenarioTopology::Handles(const json& s) const
{
    const std::string type = Type(s);
    return type == "fat_tree" || type == "file" || type == "hpcc_file";
}

uint32_t
ScenarioTopology::HostCount(const json& s) const
{
    return Type(s) == "fat_tree" ? FatTree(s).Hosts() : ReadFile(s).Hosts();
}

void
ScenarioTopology::Build(const json& s, RdmaTopology& topo) const
{
    if (Type(s) == "fat_tree")
    {
        FatTree(s).Build(topo);
    }
    else
    {
        ReadFile(s).Build(topo);
    }
}

FabricShape
ScenarioTopology::Shape(const json& s)
{
    FabricShape shape;
    const std::string type = Type(s);
    const double hostRate = BitRate(s, "topology.host_rate_gbps");
    const double fabricRate = BitRate(s, "topology.fabric_rate_gbps");
    if (type == "file" || type == "hpcc_file")
    {
        const TopologyFile t = ReadFile(s);
        shape.rackOf = t.RackOf();
        shape.hostBitRate = t.HostBitRate();
        shape.rackUplinkBitRate = t.RackUplinkBitRate();
        return shape;
    }
    uint32_t hosts;
    uint32_t perRack;
    double uplink;
    if (type == "star")
    {
        hosts = At(s, "topology.hosts").get<uint32_t>();
        perRack = hosts;
        uplink = 0;
    }
    else if (type == "leaf_spine")
    {
        perRack = At(s, "topology.hosts_per_leaf").get<uint32_t>();
        hosts = At(s, "topology.leaves").get<uint32_t>() * perRack;
        uplink = At(s, "topology.spines").get<double>() *
                 At(s, "topology.links_per_spine").get<double>() * fabricRate;
    }
    else
    {
        const FatTreeHelper ft = FatTree(s);
        hosts = ft.Hosts();
        perRack = ft.hostsPerTor;
        uplink = double(ft.aggsPerPod) * fabricRate;
    }
    for (uint32_t h = 0; h < hosts; ++h)
    {
        shape.rackOf.push_back(h / perRack);
        shape.hostBitRate.push_back(hostRate);
    }
    shape.rackUplinkBitRate.assign(hosts / perRack, uplink);
    return shape;
}

std::vector<int64_t>
ScenarioTopology::HostIndexOfHpccNode(const json& s)
{
    if (Type(s) == "hpcc_file")
    {
        return ReadFile(s).HostIndexOfFileNode();
    }
    return {};
}

} // namespace ns3
