/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PLUGIN_KEYS_H
#define RDMA_PLUGIN_KEYS_H

#include "ns3/object-factory.h"
#include "ns3/plugin-registry.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * The scenario side of a pluggable family (PluginRegistry): resolving the parameters of
 * the class a scenario chooses, and making it.
 */
class PluginKeys
{
  public:
    /**
     * Give every parameter of the class \p family's choice key names a value in
     * \p scenario (`<section>.<class>.<Attribute>`): the user's, else the attribute's
     * default. Throws ScenarioError naming \p file when the choice names no class.
     */
    static void Resolve(nlohmann::json& scenario,
                        const PluginRegistry& family,
                        const std::string& file);

    /// The chosen class of \p family with its resolved parameters (after Resolve).
    static ObjectFactory Factory(const nlohmann::json& scenario, const PluginRegistry& family);
};

} // namespace ns3

#endif /* RDMA_PLUGIN_KEYS_H */
