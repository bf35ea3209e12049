/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/cc-registry.h"

#include "ns3/abort.h"
#include "ns3/congestion-control.h"
#include "ns3/object-factory.h"
#include "ns3/plugin-registry.h"
#include "ns3/string.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

CcRegistry::Resolved
CcRegistry::Resolve(const std::string& algorithm,
                    const nlohmann::json& userParams,
                    uint64_t lineRate)
{
    const PluginRegistry& family = PluginRegistry::CongestionControls();
    const PluginRegistry::Plugin* a = family.Find(algorithm);
    NS_ABORT_MSG_IF(!a, "CcRegistry::Resolve: unknown algorithm '" << algorithm << "'");
    ObjectFactory factory;
    factory.SetTypeId(a->tid);
    std::map<std::string, std::string> given;
    for (auto it = userParams.begin(); it != userParams.end(); ++it)
    {
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_IF(!family.FindAttribute(a->tid, it.key(), info),
                        "CcRegistry::Resolve: " << algorithm << " has no attribute '" << it.key()
                                                << "'");
        std::string error;
        const std::string text = PluginRegistry::ToAttributeString(info, it.value(), error);
        NS_ABORT_MSG_IF(!error.empty(),
                        "CcRegistry::Resolve: " << algorithm << "." << it.key() << ": " << error);
        factory.Set(it.key(), StringValue(text));
        given[it.key()] = text;
    }
    Resolved r;
    r.controller = factory.Create<CongestionControl>();
    CcContext ctx;
    ctx.lineRate = lineRate;
    ctx.baseRtt = MicroSeconds(10);
    ctx.fabricBaseRtt = MicroSeconds(10);
    r.controller->Init(ctx);
    r.parameters = nlohmann::json::object();
    for (const auto& info : family.Attributes(a->tid))
    {
        StringValue back;
        r.controller->GetAttribute(info.name, back);
        // The user's spelling ("80Mbps") where it is the value in use; the value read
        // back where the controller chose it (a user's "preset").
        const auto it = given.find(info.name);
        if (it != given.end())
        {
            Ptr<AttributeValue> v = info.checker->Create();
            if (v->DeserializeFromString(it->second, info.checker) &&
                v->SerializeToString(info.checker) == back.Get())
            {
                r.parameters[info.name] = it->second;
                continue;
            }
        }
        r.parameters[info.name] = back.Get();
    }
    return r;
}

bool
CcRegistry::ReactsToCnp(const std::string& algorithm)
{
    const Resolved r = Resolve(algorithm, nlohmann::json::object(), 100'000'000'000ULL);
    const uint64_t rate = r.controller->GetRate();
    const uint64_t window = r.controller->GetWindow();
    r.controller->OnCnp();
    return r.controller->GetRate() < rate || r.controller->GetWindow() < window;
}

} // namespace ns3
