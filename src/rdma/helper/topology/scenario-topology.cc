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
TypeOf(const json& s)
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

const StageRegistration<TopologyStage, ScenarioTopology> g_scenarioTopologyStage(30);

TopologyFile
ReadFile(const json& s)
{
    const std::string path = At(s, "topology.file").get<std::string>();
    return TypeOf(s) == "hpcc_file" ? TopologyFile::ReadHpcc(path) : TopologyFile::ReadRdma(path);
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
    const std::string type = TypeOf(s);
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

std::vector<TopologyStage::Type>
ScenarioTopology::Types() const
{
    return {{"fat_tree", "three-tier Clos"},
            {"file", "topology.file in the module's format"},
            {"hpcc_file", "topology.file in the HPCC simulator's topology.txt format"}};
}

std::vector<ScenarioSchema::Key>
ScenarioTopology::Keys() const
{
    using T = ScenarioSchema::Type;
    // clang-format off
    return {
        {"topology.fat_tree.k", T::INT, 0, 0, 1000, {}, "", "fat_tree: k-ary fat-tree (k even): k pods of k/2 ToRs and k/2 aggregation switches, k/2 hosts per ToR, (k/2)^2 cores; 0 = the shape keys below."},
        {"topology.fat_tree.pods", T::INT, 4, 1, 10000, {}, "", "fat_tree: pods (HPCC paper: 5)."},
        {"topology.fat_tree.tors_per_pod", T::INT, 2, 1, 10000, {}, "", "fat_tree: ToRs per pod, each linked to every aggregation switch of its pod (HPCC paper: 4)."},
        {"topology.fat_tree.aggs_per_pod", T::INT, 2, 1, 10000, {}, "", "fat_tree: aggregation switches per pod (HPCC paper: 4)."},
        {"topology.fat_tree.hosts_per_tor", T::INT, 2, 1, 10000, {}, "", "fat_tree: hosts under each ToR (HPCC paper: 16)."},
        {"topology.fat_tree.cores", T::INT, 4, 1, 100000, {}, "", "fat_tree: core switches, a multiple of aggs_per_pod; aggregation switch j of every pod links to the j-th group of cores (HPCC paper: 16)."},
        {"topology.file", T::STRING, "", 0, 0, {}, "path", "file, hpcc_file: the topology file (hosts, switches, links with rate and delay), relative to the scenario file; see docs/workloads.md."},
    };
    // clang-format on
}

void
ScenarioTopology::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    const std::string type = TypeOf(s);
    if (type == "fat_tree")
    {
        // From the keys (not FatTreeHelper, whose counts are 32-bit): a fat-tree too large
        // to count must still be refused, by its size.
        const double k = Int(s, "topology.fat_tree.k");
        const double pods = k > 0 ? k : Int(s, "topology.fat_tree.pods");
        const double tors = k > 0 ? k / 2 : Int(s, "topology.fat_tree.tors_per_pod");
        const double aggs = k > 0 ? k / 2 : Int(s, "topology.fat_tree.aggs_per_pod");
        const double perTor = k > 0 ? k / 2 : Int(s, "topology.fat_tree.hosts_per_tor");
        const double cores = k > 0 ? k * k / 4 : Int(s, "topology.fat_tree.cores");
        const double hosts = pods * tors * perTor;
        e.AddFabric(hosts,
                    pods * (tors + aggs) + cores,
                    hosts + pods * tors * aggs + pods * cores,
                    k > 0 ? "topology.fat_tree.k" : "topology.fat_tree.pods");
        return;
    }
    const TopologyFile::Size size =
        TopologyFile::Count(Str(s, "topology.file"), type == "hpcc_file");
    e.AddFabric(size.hosts, size.switches, size.links, "topology.file");
}

uint32_t
ScenarioTopology::HostCount(const json& s) const
{
    return TypeOf(s) == "fat_tree" ? FatTree(s).Hosts() : ReadFile(s).Hosts();
}

void
ScenarioTopology::Build(const json& s, RdmaTopology& topo) const
{
    if (TypeOf(s) == "fat_tree")
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
    const std::string type = TypeOf(s);
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
    if (TypeOf(s) == "hpcc_file")
    {
        return ReadFile(s).HostIndexOfFileNode();
    }
    return {};
}

} // namespace ns3
