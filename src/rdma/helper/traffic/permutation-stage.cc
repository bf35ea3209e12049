/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/permutation-generator.h"
#include "ns3/random-variable-stream.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/traffic-stage.h"

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.permutation: every host sends one message to another host, a random
 * permutation (on a leaf-spine, always to another leaf) (PermutationGenerator).
 */
class PermutationStage : public TrafficStage
{
  public:
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioKey> Keys() const override;
    /// Flows and QPs: a message per host.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
// Its order among the sources fixes when it adds its flows (flow ids, streams).
const StageRegistration<TrafficStage, PermutationStage> g_stage(20);
} // namespace

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

std::vector<ScenarioKey>
PermutationStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"traffic.permutation.enabled", T::BOOL, false, 0, 0, {}, "", "Permutation traffic: every host sends one message to a distinct host (under another leaf on a leaf-spine)."},
        {"traffic.permutation.message_bytes", T::INT, 1000000, 1, 1e12, {}, "bytes", "Message size of each host."},
        {"traffic.permutation.start_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Start time."},
    };
    // clang-format on
}

void
PermutationStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    if (Enabled(s))
    {
        e.AddFlows(e.hosts, e.hosts, "traffic.permutation.enabled");
    }
}

} // namespace ns3
