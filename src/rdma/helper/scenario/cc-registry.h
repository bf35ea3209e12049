/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_REGISTRY_H
#define RDMA_CC_REGISTRY_H

#include "ns3/type-id.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The congestion-control algorithms a scenario can name, found at run time among the
 * registered TypeIds (every concrete subclass of ns3::CongestionControl), and their
 * parameters: the Attributes of each TypeId. Scenario keys `cc.<name>.<Attribute>`
 * are checked against those attributes, so adding an algorithm is one class (and one
 * test file): its scenario keys and their documentation follow from its TypeId.
 */
class CcRegistry
{
  public:
    struct Algorithm
    {
        std::string name; ///< CongestionControl::GetName(), e.g. "dcqcn"
        TypeId tid;
    };

    static const std::vector<Algorithm>& Algorithms();
    static const Algorithm* Find(const std::string& name);
    /// Attributes of \p tid and of its parents below ns3::CongestionControl.
    static std::vector<TypeId::AttributeInformation> Attributes(TypeId tid);
    static bool FindAttribute(TypeId tid,
                              const std::string& name,
                              TypeId::AttributeInformation& info);
    /**
     * The attribute value \p value (a JSON string, number or boolean) as the string
     * ns-3 will parse; empty \p error if valid, else why not. Times and rates must carry
     * their unit ("55us", "40Mbps").
     */
    static std::string ToAttributeString(const TypeId::AttributeInformation& info,
                                         const nlohmann::json& value,
                                         std::string& error);
    /// The attribute's default, serialized.
    static std::string DefaultString(const TypeId::AttributeInformation& info);
    /// Markdown: one table of parameters per algorithm.
    static std::string Markdown();
    /**
     * Every parameter `cc.<algorithm>.<Attribute>` as a JSON array of entries shaped like
     * ScenarioSchema::KeysJson()'s, with kind "cc": type is ns-3's description of the
     * value ("double 0:1", "Time ...", "DataRate"), choices those of an enum, unit empty
     * (an Attribute declares none; times and rates carry theirs in the value), min and
     * max null (the range is in the type), default serialized; plus algorithm and
     * attribute.
     */
    static nlohmann::json KeysJson();
};

} // namespace ns3

#endif /* RDMA_CC_REGISTRY_H */
