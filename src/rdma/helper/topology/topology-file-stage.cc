/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/topology-file.h"
#include "ns3/topology-stage.h"

#include <filesystem>

namespace ns3
{

/**
 * \ingroup rdma
 * topology.type "file" (the module's format) and "hpcc_file" (the HPCC simulator's
 * topology.txt): the fabric topology.file lists (TopologyFile).
 */
class TopologyFileStage : public TopologyStage
{
  public:
    /// Make topology.file absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// The file exists and reads (its errors name its line).
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    std::vector<Type> Types() const override;
    std::vector<ScenarioKey> Keys() const override;
    /// The file's counts (TopologyFile::Count), without reading its links.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    uint32_t HostCount(const nlohmann::json& scenario) const override;
    void Build(const nlohmann::json& scenario, RdmaTopology& topo) const override;
    FabricShape Shape(const nlohmann::json& scenario) const override;
    /// hpcc_file: the host index of each of the file's node ids.
    std::vector<int64_t> HostIndexOfFileNode(const nlohmann::json& scenario) const override;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
const StageRegistration<TopologyStage, TopologyFileStage> g_topologyFileStage(40);

bool
IsHpcc(const json& s)
{
    return Str(s, "topology.type") == "hpcc_file";
}

TopologyFile
ReadFile(const json& s)
{
    const std::string path = Str(s, "topology.file");
    return IsHpcc(s) ? TopologyFile::ReadHpcc(path) : TopologyFile::ReadRdma(path);
}
} // namespace

void
TopologyFileStage::ResolvePaths(json& s, const std::string& file) const
{
    ResolvePathKey(s, "topology.file", file);
}

void
TopologyFileStage::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    const std::string path = Str(s, "topology.file");
    if (path.empty())
    {
        FailKey(file,
                s,
                "topology.file",
                "topology.type " + Str(s, "topology.type") + " needs a topology file");
    }
    if (!std::filesystem::exists(path))
    {
        FailKey(file, s, "topology.file", "no such file");
    }
    ReadFile(s); // throws with file:line
}

std::vector<TopologyStage::Type>
TopologyFileStage::Types() const
{
    return {{"file", "topology.file in the module's format"},
            {"hpcc_file", "topology.file in the HPCC simulator's topology.txt format"}};
}

std::vector<ScenarioKey>
TopologyFileStage::Keys() const
{
    return {{"topology.file",
             ScenarioKey::Type::STRING,
             "",
             0,
             0,
             {},
             "path",
             "file, hpcc_file: the topology file (hosts, switches, links with rate and delay), "
             "relative to the scenario file; see docs/workloads.md."}};
}

void
TopologyFileStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    const TopologyFile::Size size = TopologyFile::Count(Str(s, "topology.file"), IsHpcc(s));
    e.AddFabric(size.hosts, size.switches, size.links, "topology.file");
}

uint32_t
TopologyFileStage::HostCount(const json& s) const
{
    return ReadFile(s).Hosts();
}

void
TopologyFileStage::Build(const json& s, RdmaTopology& topo) const
{
    ReadFile(s).Build(topo);
}

FabricShape
TopologyFileStage::Shape(const json& s) const
{
    const TopologyFile t = ReadFile(s);
    FabricShape shape;
    shape.rackOf = t.RackOf();
    shape.hostBitRate = t.HostBitRate();
    shape.rackUplinkBitRate = t.RackUplinkBitRate();
    return shape;
}

std::vector<int64_t>
TopologyFileStage::HostIndexOfFileNode(const json& s) const
{
    return IsHpcc(s) ? ReadFile(s).HostIndexOfFileNode() : std::vector<int64_t>{};
}

} // namespace ns3
