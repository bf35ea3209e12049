/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/plugin-keys.h"

#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-schema.h"
#include "ns3/string.h"

#include <cmath>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

namespace
{
/// \p text as \p info's value type serializes it (so "10us" and "10000ns" compare equal).
std::string
Canonical(const TypeId::AttributeInformation& info, const std::string& text)
{
    Ptr<AttributeValue> v = info.checker->Create();
    return v->DeserializeFromString(text, info.checker) ? v->SerializeToString(info.checker) : text;
}
} // namespace

void
PluginKeys::Resolve(json& s,
                    const PluginRegistry& family,
                    const std::vector<LegacyPluginKey>& legacy,
                    const std::string& file)
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
        const LegacyPluginKey* old = nullptr;
        for (const LegacyPluginKey& l : legacy)
        {
            if ((l.className.empty() || l.className == name) && l.attribute == info.name)
            {
                old = &l;
            }
        }
        const std::string path = family.GetSection() + "." + name + "." + info.name;
        if (params.contains(info.name))
        {
            // Both given: they must agree (a legacy key left at its default is not given).
            const ScenarioSchema::Key* k = old ? ScenarioSchema::Find(old->key) : nullptr;
            if (k && At(s, old->key) != k->defaultValue &&
                Canonical(info, params[info.name].get<std::string>()) !=
                    Canonical(info, old->toString(At(s, old->key))))
            {
                throw ScenarioError(file + ": key '" + path + "' has invalid value " +
                                    params[info.name].dump() + " (it disagrees with '" + old->key +
                                    "' = " + At(s, old->key).dump() +
                                    ", which sets the same parameter: give one of them)");
            }
            continue;
        }
        params[info.name] =
            old ? old->toString(At(s, old->key)) : PluginRegistry::DefaultString(info);
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

std::string
PluginKeys::Microseconds(const json& us)
{
    return std::to_string(std::llround(us.get<double>() * 1000)) + "ns";
}

std::string
PluginKeys::Plain(const json& value)
{
    return value.is_boolean() ? (value.get<bool>() ? "true" : "false") : value.dump();
}

} // namespace ns3
