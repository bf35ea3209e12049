/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/incast-generator.h"
#include "ns3/random-variable-stream.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/traffic-stage.h"

#include <set>

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.incast: N senders x Q QPs into one receiver, one message per QP or streaming
 * until traffic.incast.until_ms, QP starts spread by jitter (IncastGenerator).
 */
class IncastStage : public TrafficStage
{
  public:
    /// traffic.<source>.priority defaults to nic.data_priority.
    void Resolve(nlohmann::json& scenario, const std::string& file) const override;
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioKey> Keys() const override;
    /// Flows and QPs: senders x qps_per_sender QPs, a message each.
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
const StageRegistration<TrafficStage, IncastStage> g_stage(10);
} // namespace

void
IncastStage::Resolve(json& s, const std::string& /* file */) const
{
    if (At(s, "traffic.incast.priority").is_null())
    {
        Set(s, "traffic.incast.priority", Int(s, "nic.data_priority"));
    }
}

void
IncastStage::Check(const json& s, const std::string& file, uint32_t hosts) const
{
    auto fail = [&](const std::string& key, const std::string& why) { FailKey(file, s, key, why); };
    if (Int(s, "traffic.incast.priority") == Int(s, "nic.control_priority"))
    {
        fail("traffic.incast.priority", "must differ from nic.control_priority");
    }
    if (!Enabled(s))
    {
        return;
    }
    const int64_t receiver = Int(s, "traffic.incast.receiver");
    if (receiver >= hosts)
    {
        fail("traffic.incast.receiver",
             "the topology has " + std::to_string(hosts) + " hosts: 0.." +
                 std::to_string(hosts - 1));
    }
    std::set<int64_t> seen;
    for (const json& v : At(s, "traffic.incast.senders"))
    {
        const int64_t h = v.get<int64_t>();
        if (h >= hosts || h == receiver || !seen.insert(h).second)
        {
            fail("traffic.incast.senders",
                 "each sender must be a distinct host in 0.." + std::to_string(hosts - 1) +
                     " other than the receiver");
        }
    }
    const double until = Num(s, "traffic.incast.until_ms");
    if (until > 0 && until > Num(s, "stop_time_ms"))
    {
        fail("traffic.incast.until_ms", "must not exceed stop_time_ms");
    }
}

bool
IncastStage::Enabled(const json& s) const
{
    return Bool(s, "traffic.incast.enabled");
}

void
IncastStage::AddTraffic(const json& s, RdmaTopology& topo, TrafficDriver& driver, int64_t& stream)
{
    IncastGenerator g;
    g.receiver = Int(s, "traffic.incast.receiver");
    for (const json& v : At(s, "traffic.incast.senders"))
    {
        g.senders.push_back(v.get<uint32_t>());
    }
    if (g.senders.empty())
    {
        for (uint32_t h = 0; h < topo.GetHosts().size(); ++h)
        {
            if (h != g.receiver)
            {
                g.senders.push_back(h);
            }
        }
    }
    g.qpsPerSender = Int(s, "traffic.incast.qps_per_sender");
    g.messageBytes = Int(s, "traffic.incast.message_bytes");
    g.until = Us(Num(s, "traffic.incast.until_ms") * 1000);
    g.start = Us(Num(s, "traffic.incast.start_us"));
    g.jitter = Us(Num(s, "traffic.incast.jitter_us"));
    g.priority = Int(s, "traffic.incast.priority");
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream++);
    for (const FlowSpec& f : g.Generate(rng))
    {
        driver.AddFlow(f);
    }
}

std::vector<ScenarioKey>
IncastStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"traffic.incast.enabled", T::BOOL, false, 0, 0, {}, "", "Generate an incast."},
        {"traffic.incast.receiver", T::INT, 0, 0, 1e6, {}, "host", "Receiving host index."},
        {"traffic.incast.senders", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Sending host indices; empty = every other host."},
        {"traffic.incast.qps_per_sender", T::INT, 1, 1, 1e6, {}, "", "QPs per sender, one message each."},
        {"traffic.incast.message_bytes", T::INT, 65536, 1, 1e12, {}, "bytes", "Message size of each QP."},
        {"traffic.incast.until_ms", T::NUMBER, 0, 0, 1e6, {}, "ms", "If > 0: QPs send without end until this time (message_bytes ignored)."},
        {"traffic.incast.start_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Start time."},
        {"traffic.incast.jitter_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Each QP starts at start + U(0, jitter)."},
        {"traffic.incast.priority", T::INT, nullptr, 0, 7, {}, "", "Class of the incast (default nic.data_priority)."},
    };
    // clang-format on
}

void
IncastStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    if (Enabled(s))
    {
        const json& senders = At(s, "traffic.incast.senders");
        const double n = (senders.empty() ? e.hosts - 1 : double(senders.size())) *
                         Int(s, "traffic.incast.qps_per_sender");
        e.AddFlows(n, n, "traffic.incast.qps_per_sender");
    }
}

} // namespace ns3
