/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/plugin-keys.h"

#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/string.h"

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

void
PluginKeys::Resolve(json& s, const PluginRegistry& family, const std::string& file)
{
    const std::string name = Str(s, family.GetChoiceKey());
    const PluginRegistry::Plugin* plugin = family.Find(name);
    if (!plugin)
    {
        throw ScenarioError(file + ": key '" + family.GetChoiceKey() + "' has invalid value \"" +
                            name + "\" (no such class)");
    }
    json& params = s[family.GetSection()][name];
    if (!params.is_object())
    {
        params = json::object();
    }
    for (const auto& info : family.Attributes(plugin->tid))
    {
        if (!params.contains(info.name))
        {
            params[info.name] = PluginRegistry::DefaultString(info);
        }
    }
}

ObjectFactory
PluginKeys::Factory(const json& s, const PluginRegistry& family)
{
    const std::string name = Str(s, family.GetChoiceKey());
    ObjectFactory f;
    f.SetTypeId(family.Find(name)->tid);
    const json& params = s.at(family.GetSection()).at(name);
    for (const auto& info : family.Attributes(f.GetTypeId()))
    {
        // Parsed here, once: a factory keeps the value as given, and every object it
        // creates (a controller per QP) would parse a string again (1M QPs: ~15 s).
        const StringValue text(params.at(info.name).get<std::string>());
        const Ptr<AttributeValue> parsed = info.checker->CreateValidValue(text);
        if (parsed)
        {
            f.Set(info.name, *parsed);
        }
        else
        {
            f.Set(info.name, text); // refused by the checker: ns-3 reports it as before
        }
    }
    return f;
}

} // namespace ns3
