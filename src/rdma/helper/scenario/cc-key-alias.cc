/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/cc-key-alias.h"

#include "ns3/plugin-registry.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace ccalias
{

using json = nlohmann::json;

const std::vector<CcAlias>&
CcAliases()
{
    static const std::vector<CcAlias> aliases = {{"dcqcn", "preset", "Preset"}};
    return aliases;
}

/// The alias that is the key at \p path, or that spells the Attribute at \p path.
const CcAlias*
FindAlias(const std::string& path, bool attribute)
{
    for (const CcAlias& a : CcAliases())
    {
        if ((attribute ? a.AttributePath() : a.Path()) == path)
        {
            return &a;
        }
    }
    return nullptr;
}

std::string
Lower(std::string text)
{
    // "Nic" -> "nic", "HpccSim" -> "hpcc_sim"
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i)
    {
        const unsigned char c = text[i];
        if (i > 0 && std::isupper(c))
        {
            out += '_';
        }
        out += static_cast<char>(std::tolower(c));
    }
    return out;
}

TypeId::AttributeInformation
AliasedAttribute(const CcAlias& a)
{
    const PluginRegistry& family = PluginRegistry::CongestionControls();
    const PluginRegistry::Plugin* alg = family.Find(a.algorithm);
    TypeId::AttributeInformation info;
    if (!alg || !family.FindAttribute(alg->tid, a.attribute, info))
    {
        throw std::logic_error(a.Path() + ": no attribute " + a.attribute);
    }
    return info;
}

/// The enum names of the aliased Attribute ("Nic", "Paper").
std::vector<std::string>
AliasedNames(const CcAlias& a)
{
    std::vector<std::string> names;
    std::istringstream in(AliasedAttribute(a).checker->GetUnderlyingTypeInformation());
    for (std::string name; std::getline(in, name, '|');)
    {
        names.push_back(name);
    }
    return names;
}

/// The key's choices: the Attribute's names in lower case.
std::vector<std::string>
AliasChoices(const std::string& path)
{
    std::vector<std::string> choices;
    for (const std::string& name : AliasedNames(*FindAlias(path)))
    {
        choices.push_back(Lower(name));
    }
    return choices;
}

/// The key's default: the Attribute's, in lower case.
json
AliasDefault(const std::string& path)
{
    return Lower(PluginRegistry::DefaultString(AliasedAttribute(*FindAlias(path))));
}

/// The Attribute value that \p value (one of the key's choices) stands for.
std::string
AliasedValue(const CcAlias& a, const std::string& value)
{
    for (const std::string& name : AliasedNames(a))
    {
        if (Lower(name) == value)
        {
            return name;
        }
    }
    throw std::logic_error(a.Path() + ": no choice " + value);
}
} // namespace ccalias
} // namespace ns3
