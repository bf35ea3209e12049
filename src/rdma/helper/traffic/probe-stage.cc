/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/traffic-stage.h"

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.probe: a closed-loop latency probe, one small message from src to dst every
 * interval, running until the other traffic is done (kind "probe" in fct.csv).
 */
class ProbeStage : public TrafficStage
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
    /// Flows and QPs: one QP, a probe per interval until the stop time.
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
const StageRegistration<TrafficStage, ProbeStage> g_stage(80);
} // namespace

void
ProbeStage::Resolve(json& s, const std::string& /* file */) const
{
    if (At(s, "traffic.probe.priority").is_null())
    {
        Set(s, "traffic.probe.priority", Int(s, "nic.data_priority"));
    }
}

void
ProbeStage::Check(const json& s, const std::string& file, uint32_t hosts) const
{
    auto fail = [&](const std::string& key, const std::string& why) { FailKey(file, s, key, why); };
    if (Int(s, "traffic.probe.priority") == Int(s, "nic.control_priority"))
    {
        fail("traffic.probe.priority", "must differ from nic.control_priority");
    }
    if (!Enabled(s))
    {
        return;
    }
    for (const char* key : {"traffic.probe.src", "traffic.probe.dst"})
    {
        if (Int(s, key) >= hosts)
        {
            fail(key,
                 "the topology has " + std::to_string(hosts) + " hosts: 0.." +
                     std::to_string(hosts - 1));
        }
    }
    if (Int(s, "traffic.probe.src") == Int(s, "traffic.probe.dst"))
    {
        fail("traffic.probe.dst", "must differ from traffic.probe.src");
    }
}

bool
ProbeStage::Enabled(const json& s) const
{
    return Bool(s, "traffic.probe.enabled");
}

void
ProbeStage::AddTraffic(const json& s,
                       RdmaTopology& /* topo */,
                       TrafficDriver& driver,
                       int64_t& /* stream */)
{
    driver.AddProbe(Int(s, "traffic.probe.src"),
                    Int(s, "traffic.probe.dst"),
                    Int(s, "traffic.probe.message_bytes"),
                    Us(Num(s, "traffic.probe.start_us")),
                    Us(Num(s, "traffic.probe.interval_us")),
                    Int(s, "traffic.probe.priority"),
                    Bool(s, "traffic.probe.rate_limited"));
}

std::vector<ScenarioKey>
ProbeStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"traffic.probe.enabled", T::BOOL, false, 0, 0, {}, "", "Small-message latency probe (kind 'probe' in fct.csv)."},
        {"traffic.probe.src", T::INT, 1, 0, 1e6, {}, "host", "Probe sender."},
        {"traffic.probe.dst", T::INT, 0, 0, 1e6, {}, "host", "Probe receiver."},
        {"traffic.probe.message_bytes", T::INT, 1024, 1, 1e9, {}, "bytes", "Probe message size."},
        {"traffic.probe.interval_us", T::NUMBER, 20, 0.001, 1e9, {}, "us", "One probe message per interval until the other flows are done."},
        {"traffic.probe.start_us", T::NUMBER, 0, 0, 1e9, {}, "us", "First probe."},
        {"traffic.probe.priority", T::INT, nullptr, 0, 7, {}, "", "Class of the probe (default nic.data_priority)."},
        {"traffic.probe.rate_limited", T::BOOL, true, 0, 0, {}, "", "false: the probe's QP is outside congestion control (line rate), so it measures the fabric's queueing delay, not its own fair share (a 1 KB message per 50 us is 164 Mb/s, 11x the share of each of 7,000 QPs on 100G, so paced it would wait for its own rate)."},
    };
    // clang-format on
}

void
ProbeStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    if (Enabled(s))
    {
        e.AddFlows(1, 1, "traffic.probe.enabled");
        e.probes += Num(s, "stop_time_ms") * 1000 / Num(s, "traffic.probe.interval_us");
    }
}

} // namespace ns3
