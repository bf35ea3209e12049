/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/permutation-stage.h"

#include "ns3/permutation-generator.h"
#include "ns3/random-variable-stream.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

void
PermutationStage::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    if (Enabled(s) && Str(s, "topology.type") == "leaf_spine" && Int(s, "topology.leaves") < 2)
    {
        FailKey(file,
                s,
                "traffic.permutation.enabled",
                "a leaf-spine permutation needs at least 2 leaves");
    }
}

bool
PermutationStage::Enabled(const json& s) const
{
    return Bool(s, "traffic.permutation.enabled");
}

void
PermutationStage::AddTraffic(const json& s,
                             RdmaTopology& topo,
                             TrafficDriver& driver,
                             int64_t& stream)
{
    PermutationGenerator g;
    g.hosts = topo.GetHosts().size();
    g.hostsPerLeaf =
        Str(s, "topology.type") == "leaf_spine" ? Int(s, "topology.hosts_per_leaf") : 0;
    g.messageBytes = Int(s, "traffic.permutation.message_bytes");
    g.start = Us(Num(s, "traffic.permutation.start_us"));
    g.priority = Int(s, "nic.data_priority");
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream++);
    for (const FlowSpec& f : g.Generate(rng))
    {
        driver.AddFlow(f);
    }
}

} // namespace ns3
