/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/cc-registry.h"

#include "ns3/abort.h"
#include "ns3/congestion-control.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

const std::vector<CcRegistry::Algorithm>&
CcRegistry::Algorithms()
{
    static const std::vector<Algorithm> algorithms = []() {
        std::vector<Algorithm> found;
        const TypeId base = CongestionControl::GetTypeId();
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            const TypeId tid = TypeId::GetRegistered(i);
            if (tid == base || !tid.IsChildOf(base) || !tid.HasConstructor())
            {
                continue;
            }
            ObjectFactory f;
            f.SetTypeId(tid);
            found.push_back({f.Create<CongestionControl>()->GetName(), tid});
        }
        std::sort(found.begin(), found.end(), [](const Algorithm& a, const Algorithm& b) {
            return a.name < b.name;
        });
        return found;
    }();
    return algorithms;
}

const CcRegistry::Algorithm*
CcRegistry::Find(const std::string& name)
{
    for (const Algorithm& a : Algorithms())
    {
        if (a.name == name)
        {
            return &a;
        }
    }
    return nullptr;
}

std::vector<TypeId::AttributeInformation>
CcRegistry::Attributes(TypeId tid)
{
    std::vector<TypeId::AttributeInformation> out;
    const TypeId base = CongestionControl::GetTypeId();
    for (TypeId t = tid; t != base && t != t.GetParent(); t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            out.push_back(t.GetAttribute(i));
        }
    }
    return out;
}

bool
CcRegistry::FindAttribute(TypeId tid, const std::string& name, TypeId::AttributeInformation& info)
{
    for (const auto& a : Attributes(tid))
    {
        if (a.name == name)
        {
            info = a;
            return true;
        }
    }
    return false;
}

std::string
CcRegistry::ToAttributeString(const TypeId::AttributeInformation& info,
                              const nlohmann::json& value,
                              std::string& error)
{
    const std::string type = info.checker->GetValueTypeName();
    // (ns-3 3.37 names some value types with, some without, the namespace.)
    const bool needsUnit = type.find("TimeValue") != std::string::npos ||
                           type.find("DataRateValue") != std::string::npos;
    std::string text;
    if (value.is_string())
    {
        text = value.get<std::string>();
    }
    else if (value.is_boolean())
    {
        text = value.get<bool>() ? "true" : "false";
    }
    else if (value.is_number() && !needsUnit)
    {
        text = value.dump();
    }
    else
    {
        error = needsUnit ? "expected a string with a unit, e.g. \"55us\" or \"40Mbps\""
                          : "expected a string, number or boolean";
        return "";
    }
    Ptr<AttributeValue> v = info.checker->Create();
    if (!v->DeserializeFromString(text, info.checker) || !info.checker->Check(*v))
    {
        error = "not a valid " + info.checker->GetUnderlyingTypeInformation();
        return "";
    }
    error.clear();
    return text;
}

std::string
CcRegistry::DefaultString(const TypeId::AttributeInformation& info)
{
    return info.initialValue->SerializeToString(info.checker);
}

CcRegistry::Resolved
CcRegistry::Resolve(const std::string& algorithm,
                    const nlohmann::json& userParams,
                    uint64_t lineRate)
{
    const Algorithm* a = Find(algorithm);
    NS_ABORT_MSG_IF(!a, "CcRegistry::Resolve: unknown algorithm '" << algorithm << "'");
    ObjectFactory factory;
    factory.SetTypeId(a->tid);
    std::map<std::string, std::string> given;
    for (auto it = userParams.begin(); it != userParams.end(); ++it)
    {
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_IF(!FindAttribute(a->tid, it.key(), info),
                        "CcRegistry::Resolve: " << algorithm << " has no attribute '" << it.key()
                                                << "'");
        std::string error;
        const std::string text = ToAttributeString(info, it.value(), error);
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
    for (const auto& info : Attributes(a->tid))
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

std::string
CcRegistry::Markdown()
{
    std::ostringstream os;
    os << "## Congestion-control parameters\n\n"
       << "`cc.<algorithm>.<Attribute>` sets an ns-3 Attribute of the chosen algorithm's\n"
       << "class (times and rates as strings with units: \"55us\", \"40Mbps\"). A default\n"
       << "of `preset` is chosen by the algorithm's Preset for the host line rate when the run\n"
       << "starts; `config.json` holds the value used.\n";
    for (const Algorithm& a : Algorithms())
    {
        os << "\n### `" << a.name << "` (" << a.tid.GetName() << ")\n\n";
        const auto attrs = Attributes(a.tid);
        if (attrs.empty())
        {
            os << "No parameters.\n";
            continue;
        }
        os << "| key | type | default | meaning |\n|---|---|---|---|\n";
        // A '|' inside a cell (enum choices such as "Original|Patched") would split it.
        auto cell = [](std::string text) {
            for (size_t pos = 0; (pos = text.find('|', pos)) != std::string::npos; pos += 2)
            {
                text.replace(pos, 1, "\\|");
            }
            return text;
        };
        for (const auto& info : attrs)
        {
            os << "| `cc." << a.name << "." << info.name << "` | "
               << cell(info.checker->GetUnderlyingTypeInformation()) << " | "
               << cell(DefaultString(info)) << " | " << cell(info.help) << " |\n";
        }
    }
    return os.str();
}

nlohmann::json
CcRegistry::KeysJson()
{
    nlohmann::json entries = nlohmann::json::array();
    for (const Algorithm& a : Algorithms())
    {
        for (const auto& info : Attributes(a.tid))
        {
            const std::string type = info.checker->GetUnderlyingTypeInformation();
            std::vector<std::string> choices;
            if (info.checker->GetValueTypeName().find("EnumValue") != std::string::npos)
            {
                std::istringstream names(type);
                for (std::string name; std::getline(names, name, '|');)
                {
                    choices.push_back(name);
                }
            }
            entries.push_back({{"path", "cc." + a.name + "." + info.name},
                               {"kind", "cc"},
                               {"type", type},
                               {"unit", ""},
                               {"min", nullptr},
                               {"max", nullptr},
                               {"choices", choices},
                               {"default", DefaultString(info)},
                               {"doc", info.help},
                               {"algorithm", a.name},
                               {"attribute", info.name}});
        }
    }
    return entries;
}

} // namespace ns3
