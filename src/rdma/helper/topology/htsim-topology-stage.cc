/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/htsim-topology.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/topology-stage.h"

#include <cmath>
#include <filesystem>

namespace ns3
{

/**
 * \ingroup rdma
 * topology.type "htsim_topo" (one of htsim's topology files, topology.htsim_topo.file)
 * and "htsim_default" (the fabric htsim's main_uec builds without -topo, for the hosts
 * of topology.htsim_default.nodes or of traffic.htsim_cm's `Nodes` line): HtsimTopology.
 */
class HtsimTopologyStage : public TopologyStage
{
  public:
    /// Make topology.htsim_topo.file absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// The file exists and reads, or the default fabric has a k for its hosts.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    std::vector<Type> Types() const override;
    std::vector<ScenarioKey> Keys() const override;
    /// The fabric's counts (zero if it cannot be read: Check reports why).
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    uint32_t HostCount(const nlohmann::json& scenario) const override;
    void Build(const nlohmann::json& scenario, RdmaTopology& topo) const override;
    FabricShape Shape(const nlohmann::json& scenario) const override;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
const StageRegistration<TopologyStage, HtsimTopologyStage> g_htsimTopologyStage(50);

HtsimTopology
Fabric(const json& s)
{
    if (Str(s, "topology.type") == "htsim_topo")
    {
        const std::string path = Str(s, "topology.htsim_topo.file");
        if (path.empty())
        {
            throw ScenarioError("key 'topology.htsim_topo.file' is empty: topology.type "
                                "htsim_topo needs one of htsim's .topo files");
        }
        return HtsimTopology::Read(path);
    }
    int64_t nodes = Int(s, "topology.htsim_default.nodes");
    std::string where = "key 'topology.htsim_default.nodes'";
    if (nodes == 0)
    {
        const std::string cm = Str(s, "traffic.htsim_cm");
        if (cm.empty())
        {
            throw ScenarioError("key 'topology.htsim_default.nodes' is 0 and traffic.htsim_cm "
                                "is empty: htsim_default needs a number of hosts");
        }
        nodes = HtsimTopology::MatrixNodes(cm);
        where = cm + ": 'Nodes'";
    }
    return HtsimTopology::Default(nodes,
                                  Int(s, "topology.htsim_default.tiers"),
                                  std::llround(Num(s, "topology.host_rate_gbps")),
                                  std::llround(Num(s, "topology.host_delay_us") * 1000),
                                  where);
}
} // namespace

void
HtsimTopologyStage::ResolvePaths(json& s, const std::string& file) const
{
    ResolvePathKey(s, "topology.htsim_topo.file", file);
}

void
HtsimTopologyStage::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    if (Str(s, "topology.type") == "htsim_topo" &&
        !std::filesystem::exists(Str(s, "topology.htsim_topo.file")))
    {
        FailKey(file, s, "topology.htsim_topo.file", "no such file");
    }
    if (Str(s, "topology.type") == "htsim_default" &&
        std::fmod(Num(s, "topology.host_rate_gbps"), 1.0) != 0)
    {
        FailKey(file, s, "topology.host_rate_gbps", "htsim_default: whole Gb/s");
    }
    Fabric(s); // throws with file:line
}

std::vector<TopologyStage::Type>
HtsimTopologyStage::Types() const
{
    return {{"htsim_topo", "one of htsim's fat-tree topology files (topology.htsim_topo.file)"},
            {"htsim_default",
             "the fat-tree htsim's main_uec builds without -topo, for "
             "topology.htsim_default.nodes hosts"}};
}

std::vector<ScenarioKey>
HtsimTopologyStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"topology.htsim_topo.file", T::STRING, "", 0, 0, {}, "path", "htsim_topo: one of htsim's topology files (uet-htsim's datacenter/topologies/*.topo: Nodes, Tiers, Podsize, then per tier Downlink_speed_Gbps, Radix_Down, Radix_Up, Downlink_Latency_ns, Oversubscribed, Bundle), relative to the scenario file; its rates and latencies replace the topology keys; see docs/workloads.md."},
        {"topology.htsim_default.nodes", T::INT, 0, 0, 10000000, {}, "hosts", "htsim_default: hosts (k^3 / 4 with 3 tiers, k^2 / 2 with 2, k even); 0 = the 'Nodes' line of traffic.htsim_cm, as htsim sizes its fabric by the matrix. Every link at topology.host_rate_gbps and topology.host_delay_us (htsim: -linkspeed 100 Gb/s, -hop_latency 1 us)."},
        {"topology.htsim_default.tiers", T::INT, 3, 2, 3, {}, "", "htsim_default: 3 (k-ary fat-tree, htsim's default) or 2 (k leaves, k / 2 spines, k / 2 hosts per leaf; htsim -tiers 2)."},
    };
    // clang-format on
}

void
HtsimTopologyStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    try
    {
        const HtsimTopology t = Fabric(s);
        e.AddFabric(t.Hosts(),
                    t.Switches(),
                    t.Links(),
                    Str(s, "topology.type") == "htsim_topo" ? "topology.htsim_topo.file"
                                                            : "topology.htsim_default.nodes");
    }
    catch (const ScenarioError&)
    {
        // Check names the error.
    }
}

uint32_t
HtsimTopologyStage::HostCount(const json& s) const
{
    return Fabric(s).Hosts();
}

void
HtsimTopologyStage::Build(const json& s, RdmaTopology& topo) const
{
    Fabric(s).Build(topo);
}

FabricShape
HtsimTopologyStage::Shape(const json& s) const
{
    const HtsimTopology t = Fabric(s);
    return FabricShape::Uniform(t.Hosts(), t.HostsPerTor(), t.HostBitRate(), t.TorUplinkBitRate());
}

} // namespace ns3
