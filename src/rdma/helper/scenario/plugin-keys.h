/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PLUGIN_KEYS_H
#define RDMA_PLUGIN_KEYS_H

#include "ns3/object-factory.h"
#include "ns3/plugin-registry.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A scenario key older than the generic `<section>.<class>.<Attribute>` keys that sets
 * one attribute of a pluggable class (routing.flowlet_gap_us sets routing.flowlet.Gap,
 * nic.rto_us the RetransmissionTimeout of every loss-recovery policy). Kept so that
 * existing scenarios run unchanged; the generic key wins, and giving both with different
 * values is an input error.
 */
struct LegacyPluginKey
{
    std::string key;       ///< the older key, e.g. "routing.flowlet_gap_us"
    std::string className; ///< the class it applies to ("" = every class of the family)
    std::string attribute; ///< the attribute it sets, e.g. "Gap"
    /// Its value as the attribute string ns-3 parses ("10000ns").
    std::function<std::string(const nlohmann::json&)> toString;
};

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
     * \p scenario (`<section>.<class>.<Attribute>`): the user's, else its legacy key's,
     * else the attribute's default. Throws ScenarioError naming \p file when a generic
     * key and its legacy key are both given with different values.
     */
    static void Resolve(nlohmann::json& scenario,
                        const PluginRegistry& family,
                        const std::vector<LegacyPluginKey>& legacy,
                        const std::string& file);

    /// The chosen class of \p family with its resolved parameters (after Resolve).
    static ObjectFactory Factory(const nlohmann::json& scenario, const PluginRegistry& family);

    /// A time key in microseconds as an attribute string, exact to the nanosecond.
    static std::string Microseconds(const nlohmann::json& us);
    /// A JSON number or boolean as an attribute string.
    static std::string Plain(const nlohmann::json& value);
};

} // namespace ns3

#endif /* RDMA_PLUGIN_KEYS_H */
