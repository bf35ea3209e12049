/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-schema.h"

#include "ns3/plugin-registry.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"

#include <cmath>
#include <limits>

namespace ns3
{

using json = nlohmann::json;
using T = ScenarioSchema::Type;

namespace
{
/// Each event: {"at_us": >= 0, "a": node, "b": node, "nth": >= 0 (optional),
/// "action": down|up|rate, "rate_gbps": > 0 (rate only)}.
void
CheckLinkEvents(const ScenarioSchema::Key& k, const json& v, const std::string& origin)
{
    if (!v.is_array())
    {
        throw ScenarioError(origin + ": key '" + k.path + "' has invalid value " + v.dump() +
                            " (expected an array of link events)");
    }
    for (size_t i = 0; i < v.size(); ++i)
    {
        const json& e = v[i];
        const std::string where = k.path + "[" + std::to_string(i) + "]";
        auto fail = [&](const std::string& field, const std::string& why) {
            const std::string value =
                e.is_object() && e.contains(field) ? e[field].dump() : e.dump();
            throw ScenarioError(origin + ": key '" + where + (field.empty() ? "" : "." + field) +
                                "' has invalid value " + value + " (" + why + ")");
        };
        if (!e.is_object())
        {
            fail("", "expected an object");
        }
        for (auto it = e.begin(); it != e.end(); ++it)
        {
            static const std::vector<std::string> known{"at_us",
                                                        "a",
                                                        "b",
                                                        "nth",
                                                        "action",
                                                        "rate_gbps"};
            if (std::find(known.begin(), known.end(), it.key()) == known.end())
            {
                throw ScenarioError(origin + ": unknown key '" + where + "." + it.key() +
                                    "' (value " + it.value().dump() + ")");
            }
        }
        if (!e.contains("at_us") || !e["at_us"].is_number() || e["at_us"].get<double>() < 0)
        {
            fail("at_us", "required, a time >= 0 in us");
        }
        for (const char* node : {"a", "b"})
        {
            if (!e.contains(node) || !e[node].is_number_integer() || e[node].get<int64_t>() < 0)
            {
                fail(node, "required, a node id >= 0");
            }
        }
        if (e.contains("nth") && (!e["nth"].is_number_integer() || e["nth"].get<int64_t>() < 0))
        {
            fail("nth", "an integer >= 0");
        }
        const std::string action =
            e.contains("action") && e["action"].is_string() ? e["action"].get<std::string>() : "";
        if (action != "down" && action != "up" && action != "rate")
        {
            fail("action", "required, one of \"down\" \"up\" \"rate\"");
        }
        if (action == "rate" && (!e.contains("rate_gbps") || !e["rate_gbps"].is_number() ||
                                 e["rate_gbps"].get<double>() <= 0))
        {
            fail("rate_gbps", "required for action rate, a rate > 0 in Gb/s");
        }
    }
}
} // namespace

void
ScenarioSchema::CheckValue(const Key& k, const json& v, const std::string& origin)
{
    auto fail = [&](const std::string& why) {
        throw ScenarioError(origin + ": key '" + k.path + "' has invalid value " + v.dump() + " (" +
                            why + ")");
    };
    if (v.is_null())
    {
        if (!k.defaultValue.is_null())
        {
            fail("expected " + TypeText(k));
        }
        return;
    }
    auto checkRange = [&](double x) {
        if (!(x >= k.min && x <= k.max))
        {
            fail("must be in " + RangeText(k.min, k.max) + (k.unit.empty() ? "" : " " + k.unit));
        }
    };
    switch (k.type)
    {
    case T::BOOL:
        if (!v.is_boolean())
        {
            fail("expected a boolean");
        }
        break;
    case T::INT:
        if (!v.is_number_integer())
        {
            fail("expected an integer");
        }
        checkRange(v.get<double>());
        break;
    case T::NUMBER:
        if (!v.is_number())
        {
            fail("expected a number");
        }
        checkRange(v.get<double>());
        break;
    case T::STRING:
        if (!v.is_string())
        {
            fail("expected a string");
        }
        break;
    case T::CHOICE:
        if (!v.is_string() ||
            std::find(k.choices.begin(), k.choices.end(), v.get<std::string>()) == k.choices.end())
        {
            fail("expected " + TypeText(k));
        }
        break;
    case T::LINK_EVENTS:
        CheckLinkEvents(k, v, origin);
        break;
    case T::INT_ARRAY:
        if (!v.is_array())
        {
            fail("expected an array of integers");
        }
        for (const json& e : v)
        {
            if (!e.is_number_integer())
            {
                fail("expected an array of integers");
            }
            checkRange(e.get<double>());
        }
        break;
    }
}

namespace
{
void
Walk(const json& node, const std::string& prefix, const std::string& file)
{
    for (auto it = node.begin(); it != node.end(); ++it)
    {
        const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
        const ScenarioSchema::Key* k = ScenarioSchema::Find(path);
        if (k)
        {
            ScenarioSchema::CheckValue(*k, it.value(), file);
            continue;
        }
        if (ScenarioSchema::IsPluginParameter(path))
        {
            ScenarioSchema::PluginParameterString(path, it.value(), file);
            continue;
        }
        // Not a leaf: it must be a section some key lives under (or a class's parameters).
        bool isSection = false;
        for (const PluginRegistry* r : PluginRegistry::All())
        {
            isSection = isSection || (prefix == r->GetSection() && r->Find(it.key()));
        }
        for (const auto& key : ScenarioSchema::Keys())
        {
            if (key.path.rfind(path + ".", 0) == 0)
            {
                isSection = true;
                break;
            }
        }
        if (!isSection)
        {
            throw ScenarioError(file + ": unknown key '" + path + "' (value " + it.value().dump() +
                                "); see docs/scenario-keys.md");
        }
        if (!it.value().is_object())
        {
            throw ScenarioError(file + ": key '" + path + "' has invalid value " +
                                it.value().dump() + " (expected an object)");
        }
        Walk(it.value(), path, file);
    }
}
} // namespace

bool
ScenarioSchema::IsPluginParameter(const std::string& path)
{
    return PluginRegistry::ForParameter(path) != nullptr;
}

std::string
ScenarioSchema::PluginParameterString(const std::string& path,
                                      const json& value,
                                      const std::string& origin)
{
    const PluginRegistry* r = PluginRegistry::ForParameter(path);
    if (!r)
    {
        throw ScenarioError(origin + ": unknown key '" + path + "' (value " + value.dump() +
                            "); see docs/scenario-keys.md");
    }
    return r->ParameterString(path, value, origin);
}

json
ScenarioSchema::Validate(const json& user, const std::string& file)
{
    if (!user.is_object())
    {
        throw ScenarioError(file + ": a scenario must be a JSON object, got " +
                            std::string(user.type_name()));
    }
    Walk(user, "", file);
    json out = json::object();
    for (const Key& k : Keys())
    {
        const auto ptr = scenario::Pointer(k.path);
        out[ptr] = user.contains(ptr) ? user.at(ptr) : k.defaultValue;
    }
    // The parameters of pluggable classes (cc.<algorithm>.*, routing.<balancer>.*,
    // nic.<policy>.*), normalized to the strings ns-3 parses.
    for (const PluginRegistry* r : PluginRegistry::All())
    {
        const std::string& section = r->GetSection();
        if (!user.contains(section) || !user[section].is_object())
        {
            continue;
        }
        for (auto cls = user[section].begin(); cls != user[section].end(); ++cls)
        {
            if (!cls.value().is_object() || !r->Find(cls.key()))
            {
                continue;
            }
            for (auto attr = cls.value().begin(); attr != cls.value().end(); ++attr)
            {
                const std::string path = section + "." + cls.key() + "." + attr.key();
                if (!Find(path))
                {
                    out[section][cls.key()][attr.key()] =
                        r->ParameterString(path, attr.value(), file);
                }
            }
        }
    }
    return out;
}

void
ScenarioSchema::ApplyOverride(json& scenario, const std::string& assignment)
{
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
    {
        throw ScenarioError("--set: expected KEY=VALUE, got '" + assignment + "'");
    }
    const std::string path = assignment.substr(0, eq);
    const std::string text = assignment.substr(eq + 1);
    const Key* k = Find(path);
    if (!k && IsPluginParameter(path))
    {
        json value = json::parse(text, nullptr, false);
        if (value.is_discarded())
        {
            value = text;
        }
        const std::string attributeText = PluginParameterString(path, value, "--set");
        scenario[ns3::scenario::Pointer(path)] = attributeText;
        return;
    }
    if (!k)
    {
        throw ScenarioError("--set: unknown key '" + path + "' (value '" + text +
                            "'); see docs/scenario-keys.md");
    }
    json value = json::parse(text, nullptr, false);
    if (value.is_discarded() || k->type == T::STRING ||
        (k->type == T::CHOICE && !value.is_string()))
    {
        value = text;
    }
    CheckValue(*k, value, "--set");
    scenario[ns3::scenario::Pointer(path)] = value;
}

json
ScenarioSchema::CcParameters(const json& scenario, const std::string& algorithm)
{
    json params = json::object();
    const json::json_pointer ptr("/cc/" + algorithm);
    if (!scenario.contains(ptr))
    {
        return params;
    }
    const json& section = scenario.at(ptr);
    for (auto it = section.begin(); it != section.end(); ++it)
    {
        if (!Find("cc." + algorithm + "." + it.key()))
        {
            params[it.key()] = it.value();
        }
    }
    return params;
}

void
ScenarioSchema::RecordCcParameters(json& scenario,
                                   const std::string& algorithm,
                                   const json& parameters)
{
    json& section = scenario["cc"][algorithm];
    if (!section.is_object())
    {
        section = json::object(); // an algorithm without parameters ("none") too
    }
    for (auto it = parameters.begin(); it != parameters.end(); ++it)
    {
        section[it.key()] = it.value();
    }
}

} // namespace ns3
