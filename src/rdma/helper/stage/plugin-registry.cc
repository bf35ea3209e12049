/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/plugin-registry.h"

#include "ns3/congestion-control.h"
#include "ns3/load-balancer.h"
#include "ns3/loss-recovery.h"
#include "ns3/object-factory.h"
#include "ns3/path-selector.h"
#include "ns3/scenario-error.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace ns3
{

namespace
{
/// The short name of a concrete class of family \p Base: ask an instance.
template <typename Base>
std::string
NameOf(TypeId tid)
{
    ObjectFactory f;
    f.SetTypeId(tid);
    return f.Create<Base>()->GetName();
}

/// A Markdown table cell: a '|' inside it (enum choices "A|B") would split it.
std::string
Cell(std::string text)
{
    for (size_t pos = 0; (pos = text.find('|', pos)) != std::string::npos; pos += 2)
    {
        text.replace(pos, 1, "\\|");
    }
    return text;
}
} // namespace

PluginRegistry::PluginRegistry(std::string section,
                               std::string choiceKey,
                               TypeId base,
                               std::function<std::string(TypeId)> nameOf,
                               std::string title,
                               std::set<std::string> internal)
    : m_section(std::move(section)),
      m_choiceKey(std::move(choiceKey)),
      m_base(base),
      m_nameOf(std::move(nameOf)),
      m_title(std::move(title)),
      m_internal(std::move(internal))
{
}

const std::string&
PluginRegistry::GetSection() const
{
    return m_section;
}

const std::string&
PluginRegistry::GetChoiceKey() const
{
    return m_choiceKey;
}

const std::vector<PluginRegistry::Plugin>&
PluginRegistry::Plugins() const
{
    if (!m_found)
    {
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            const TypeId tid = TypeId::GetRegistered(i);
            if (tid != m_base && tid.IsChildOf(m_base) && tid.HasConstructor())
            {
                m_plugins.push_back({m_nameOf(tid), tid});
            }
        }
        std::sort(m_plugins.begin(), m_plugins.end(), [](const Plugin& a, const Plugin& b) {
            return a.name < b.name;
        });
        m_found = true;
    }
    return m_plugins;
}

const PluginRegistry::Plugin*
PluginRegistry::Find(const std::string& name) const
{
    for (const Plugin& p : Plugins())
    {
        if (p.name == name)
        {
            return &p;
        }
    }
    return nullptr;
}

std::vector<std::string>
PluginRegistry::Names() const
{
    std::vector<std::string> names;
    for (const Plugin& p : Plugins())
    {
        names.push_back(p.name);
    }
    return names;
}

std::vector<TypeId::AttributeInformation>
PluginRegistry::Attributes(TypeId tid) const
{
    std::vector<TypeId::AttributeInformation> out;
    // The class's own attributes first, then its parents' (up to and with the base).
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            // An obsolete attribute is no parameter (ParameterString names its successor),
            // nor is a read-only one (a property the class reports, e.g. DCQCN's
            // CnpInterval).
            const TypeId::AttributeInformation& info = t.GetAttribute(i);
            if (!m_internal.count(info.name) && info.supportLevel != TypeId::OBSOLETE &&
                (info.flags & (TypeId::ATTR_SET | TypeId::ATTR_CONSTRUCT)) != 0)
            {
                out.push_back(t.GetAttribute(i));
            }
        }
        if (t == m_base || t == t.GetParent())
        {
            break;
        }
    }
    return out;
}

bool
PluginRegistry::FindAttribute(TypeId tid,
                              const std::string& name,
                              TypeId::AttributeInformation& info) const
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

bool
PluginRegistry::IsParameter(const std::string& path) const
{
    const std::string prefix = m_section + ".";
    if (path.compare(0, prefix.size(), prefix) != 0)
    {
        return false;
    }
    const auto dot = path.find('.', prefix.size());
    return dot != std::string::npos && path.find('.', dot + 1) == std::string::npos &&
           Find(path.substr(prefix.size(), dot - prefix.size())) != nullptr;
}

std::string
PluginRegistry::ParameterString(const std::string& path,
                                const nlohmann::json& value,
                                const std::string& origin) const
{
    const std::string prefix = m_section + ".";
    const auto dot = path.find('.', prefix.size());
    const std::string name = path.substr(prefix.size(), dot - prefix.size());
    const std::string attribute = dot == std::string::npos ? "" : path.substr(dot + 1);
    const Plugin* p = Find(name);
    TypeId::AttributeInformation info;
    if (p)
    {
        for (TypeId t = p->tid; t != m_base && t != t.GetParent(); t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                const TypeId::AttributeInformation& a = t.GetAttribute(i);
                if (a.name == attribute && a.supportLevel == TypeId::OBSOLETE)
                {
                    throw ScenarioError(origin + ": key '" + path + "' (value " + value.dump() +
                                        ") is no longer a parameter: " + a.supportMsg);
                }
            }
        }
    }
    if (!p || !FindAttribute(p->tid, attribute, info))
    {
        throw ScenarioError(origin + ": unknown key '" + path + "' (value " + value.dump() +
                            "); see docs/scenario-keys.md for the parameters of '" + name + "'");
    }
    std::string error;
    const std::string text = ToAttributeString(info, value, error);
    if (!error.empty())
    {
        throw ScenarioError(origin + ": key '" + path + "' has invalid value " + value.dump() +
                            " (" + error + ")");
    }
    return text;
}

std::string
PluginRegistry::ToAttributeString(const TypeId::AttributeInformation& info,
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
    // ns-3's Time parser aborts the process on text it cannot read: check the form first.
    static const std::regex kTime(
        R"(^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*(y|d|h|min|s|ms|us|ns|ps|fs)?\s*$)");
    if (type.find("TimeValue") != std::string::npos && !std::regex_match(text, kTime))
    {
        error = "not a valid Time (a number and a unit: y d h min s ms us ns ps fs)";
        return "";
    }
    // So do its integer parsers on text with anything after the digits ("0.5", "5x").
    static const std::regex kInteger(R"(^\s*[+-]?\d+\s*$)");
    const bool integer = type.find("UintegerValue") != std::string::npos ||
                         type.find("IntegerValue") != std::string::npos;
    if (integer && !std::regex_match(text, kInteger))
    {
        error = "not a valid integer";
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
PluginRegistry::DefaultString(const TypeId::AttributeInformation& info)
{
    return info.initialValue->SerializeToString(info.checker);
}

std::string
PluginRegistry::Markdown() const
{
    const std::string choice = m_choiceKey.substr(m_choiceKey.rfind('.') + 1);
    std::ostringstream os;
    os << "## " << m_title << "\n\n"
       << "`" << m_section << ".<" << choice << ">.<Attribute>` sets an ns-3 Attribute of the\n"
       << "class `" << m_choiceKey << "` names (times and rates as strings with units: \"55us\",\n"
       << "\"40Mbps\").\n";
    for (const Plugin& p : Plugins())
    {
        os << "\n### `" << p.name << "` (" << p.tid.GetName() << ")\n\n";
        const auto attrs = Attributes(p.tid);
        if (attrs.empty())
        {
            os << "No parameters.\n";
            continue;
        }
        os << "| key | type | default | meaning |\n|---|---|---|---|\n";
        for (const auto& info : attrs)
        {
            os << "| `" << m_section << "." << p.name << "." << info.name << "` | "
               << Cell(info.checker->GetUnderlyingTypeInformation()) << " | "
               << Cell(DefaultString(info)) << " | " << Cell(info.help) << " |\n";
        }
    }
    return os.str();
}

nlohmann::json
PluginRegistry::KeysJson() const
{
    // The class is named by the field of the family's choice key ("algorithm" for
    // cc.algorithm, "load_balancer", "loss_recovery").
    const std::string classField = m_choiceKey.substr(m_choiceKey.rfind('.') + 1);
    nlohmann::json entries = nlohmann::json::array();
    for (const Plugin& p : Plugins())
    {
        for (const auto& info : Attributes(p.tid))
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
            entries.push_back({{"path", m_section + "." + p.name + "." + info.name},
                               {"kind", m_section},
                               {"type", type},
                               {"unit", ""},
                               {"min", nullptr},
                               {"max", nullptr},
                               {"choices", choices},
                               {"default", DefaultString(info)},
                               {"doc", info.help},
                               {classField, p.name},
                               {"attribute", info.name}});
        }
    }
    return entries;
}

const PluginRegistry&
PluginRegistry::CongestionControls()
{
    static const PluginRegistry r("cc",
                                  "cc.algorithm",
                                  CongestionControl::GetTypeId(),
                                  &NameOf<CongestionControl>,
                                  "Congestion-control parameters");
    return r;
}

const PluginRegistry&
PluginRegistry::LoadBalancers()
{
    static const PluginRegistry r("routing",
                                  "routing.load_balancer",
                                  LoadBalancer::GetTypeId(),
                                  &NameOf<LoadBalancer>,
                                  "Load-balancer parameters",
                                  {"Salt"});
    return r;
}

const PluginRegistry&
PluginRegistry::LossRecoveries()
{
    static const PluginRegistry r("nic",
                                  "nic.loss_recovery",
                                  LossRecovery::GetTypeId(),
                                  &NameOf<LossRecovery>,
                                  "Loss-recovery parameters");
    return r;
}

const PluginRegistry&
PluginRegistry::PathSelectors()
{
    // Paths and the default's ChangePackets have keys of their own (nic.paths,
    // nic.entropy_change_packets), which the fabric sets.
    static const PluginRegistry r("nic",
                                  "nic.load_balancer",
                                  PathSelector::GetTypeId(),
                                  &NameOf<PathSelector>,
                                  "Path-selection parameters",
                                  {"Paths", "ChangePackets"});
    return r;
}

std::vector<const PluginRegistry*>
PluginRegistry::All()
{
    return {&CongestionControls(), &LoadBalancers(), &LossRecoveries(), &PathSelectors()};
}

const PluginRegistry*
PluginRegistry::ForParameter(const std::string& path)
{
    for (const PluginRegistry* r : All())
    {
        if (r->IsParameter(path))
        {
            return r;
        }
    }
    return nullptr;
}

} // namespace ns3
