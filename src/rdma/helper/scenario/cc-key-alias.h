/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_KEY_ALIAS_H
#define RDMA_CC_KEY_ALIAS_H

#include "ns3/type-id.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{
namespace ccalias
{

/**
 * \ingroup rdma
 * A scenario key that is another spelling of a congestion-control Attribute of enum
 * type: cc.<algorithm>.<key> takes the Attribute's names in lower case (cc.dcqcn.preset:
 * nic, paper for cc.dcqcn.Preset: Nic, Paper), as scenario files wrote it before the
 * Attribute existed. The two always hold the same value: setting either sets the other
 * (a file that gives both must give the same), and RecordCcParameters writes the key back
 * from the Attribute's resolved value.
 */
struct CcAlias
{
    std::string algorithm;
    std::string key;
    std::string attribute;

    std::string Path() const
    {
        return "cc." + algorithm + "." + key;
    }

    std::string AttributePath() const
    {
        return "cc." + algorithm + "." + attribute;
    }
};

/// Every such key (cc.dcqcn.preset for cc.dcqcn.Preset).
const std::vector<CcAlias>& CcAliases();
/// The alias that is the key at \p path, or (\p attribute) that spells the Attribute there.
const CcAlias* FindAlias(const std::string& path, bool attribute = false);
/// \p text in lower case, words joined by underscores ("HpccSim" -> "hpcc_sim").
std::string Lower(std::string text);
/// The aliased Attribute's information.
TypeId::AttributeInformation AliasedAttribute(const CcAlias& a);
/// The enum names of the aliased Attribute ("Nic", "Paper").
std::vector<std::string> AliasedNames(const CcAlias& a);
/// The key's choices: the Attribute's names in lower case.
std::vector<std::string> AliasChoices(const std::string& path);
/// The key's default: the Attribute's, in lower case.
nlohmann::json AliasDefault(const std::string& path);
/// The Attribute value that \p value (one of the key's choices) stands for.
std::string AliasedValue(const CcAlias& a, const std::string& value);

} // namespace ccalias
} // namespace ns3

#endif /* RDMA_CC_KEY_ALIAS_H */
