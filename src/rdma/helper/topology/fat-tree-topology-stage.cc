/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/fat-tree-helper.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/topology-stage.h"

namespace ns3
{

/**
 * \ingroup rdma
 * topology.type "fat_tree": a three-tier Clos (FatTreeHelper), either k-ary
 * (topology.fat_tree.k) or of the shape the other topology.fat_tree keys give.
 */
class FatTreeTopologyStage : public TopologyStage
{
  public:
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    std::vector<Type> Types() const override;
    std::vector<ScenarioKey> Keys() const override;
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    uint32_t HostCount(const nlohmann::json& scenario) const override;
    void Build(const nlohmann::json& scenario, RdmaTopology& topo) const override;
    FabricShape Shape(const nlohmann::json& scenario) const override;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
const StageRegistration<TopologyStage, FatTreeTopologyStage> g_fatTreeStage(30);

FatTreeHelper
FatTree(const json& s)
{
    FatTreeHelper ft;
    const int64_t k = Int(s, "topology.fat_tree.k");
    if (k > 0)
    {
        ft.SetK(k);
    }
    else
    {
        ft.pods = Int(s, "topology.fat_tree.pods");
        ft.torsPerPod = Int(s, "topology.fat_tree.tors_per_pod");
        ft.aggsPerPod = Int(s, "topology.fat_tree.aggs_per_pod");
        ft.hostsPerTor = Int(s, "topology.fat_tree.hosts_per_tor");
        ft.cores = Int(s, "topology.fat_tree.cores");
    }
    ft.hostRate = Gbps(Num(s, "topology.host_rate_gbps"));
    ft.hostDelay = Us(Num(s, "topology.host_delay_us"));
    ft.torAggRate = Gbps(Num(s, "topology.fabric_rate_gbps"));
    ft.aggCoreRate = ft.torAggRate;
    ft.fabricDelay = Us(Num(s, "topology.fabric_delay_us"));
    return ft;
}
} // namespace

void
FatTreeTopologyStage::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    auto fail = [&](const std::string& key, const std::string& why) { FailKey(file, s, key, why); };
    const int64_t k = Int(s, "topology.fat_tree.k");
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

std::vector<TopologyStage::Type>
FatTreeTopologyStage::Types() const
{
    return {{"fat_tree", "three-tier Clos"}};
}

std::vector<ScenarioKey>
FatTreeTopologyStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"topology.fat_tree.k", T::INT, 0, 0, 1000, {}, "", "fat_tree: k-ary fat-tree (k even): k pods of k/2 ToRs and k/2 aggregation switches, k/2 hosts per ToR, (k/2)^2 cores; 0 = the shape keys below."},
        {"topology.fat_tree.pods", T::INT, 4, 1, 10000, {}, "", "fat_tree: pods (HPCC paper: 5)."},
        {"topology.fat_tree.tors_per_pod", T::INT, 2, 1, 10000, {}, "", "fat_tree: ToRs per pod, each linked to every aggregation switch of its pod (HPCC paper: 4)."},
        {"topology.fat_tree.aggs_per_pod", T::INT, 2, 1, 10000, {}, "", "fat_tree: aggregation switches per pod (HPCC paper: 4)."},
        {"topology.fat_tree.hosts_per_tor", T::INT, 2, 1, 10000, {}, "", "fat_tree: hosts under each ToR (HPCC paper: 16)."},
        {"topology.fat_tree.cores", T::INT, 4, 1, 100000, {}, "", "fat_tree: core switches, a multiple of aggs_per_pod; aggregation switch j of every pod links to the j-th group of cores (HPCC paper: 16)."},
    };
    // clang-format on
}

void
FatTreeTopologyStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    // From the keys (not FatTreeHelper, whose counts are 32-bit): a fat-tree too large to
    // count must still be refused, by its size.
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
}

uint32_t
FatTreeTopologyStage::HostCount(const json& s) const
{
    return FatTree(s).Hosts();
}

void
FatTreeTopologyStage::Build(const json& s, RdmaTopology& topo) const
{
    FatTree(s).Build(topo);
}

FabricShape
FatTreeTopologyStage::Shape(const json& s) const
{
    const FatTreeHelper ft = FatTree(s);
    return FabricShape::Uniform(ft.Hosts(),
                                ft.hostsPerTor,
                                Num(s, "topology.host_rate_gbps") * 1e9,
                                double(ft.aggsPerPod) *
                                    (Num(s, "topology.fabric_rate_gbps") * 1e9));
}

} // namespace ns3
