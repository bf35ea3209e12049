/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/probe-stage.h"

#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

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

} // namespace ns3
