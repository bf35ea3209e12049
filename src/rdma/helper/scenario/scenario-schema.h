/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_SCHEMA_H
#define RDMA_SCENARIO_SCHEMA_H

#include "ns3/scenario-key.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The documented schema of scenario files: every key, its type, unit, range, default
 * and meaning. Validation is strict: an unknown key, a wrong type or a value out of
 * range throws ScenarioError naming the file, the key path and the value.
 * docs/scenario-keys.md is generated from this table (`rdma-run --list-keys`).
 */
class ScenarioSchema
{
  public:
    /// A key's type (ScenarioKey::Type).
    using Type = ScenarioKey::Type;
    /// One key (declared by the run or the stage that owns it).
    using Key = ScenarioKey;

    /// Every key: the run's own, then the stages' (ScenarioStages::Keys).
    static const std::vector<Key>& Keys();
    static const Key* Find(const std::string& path);

    /**
     * Check \p user (a scenario as read from \p file) and return it with every missing
     * key set to its default (null for derived keys). Throws ScenarioError.
     */
    static nlohmann::json Validate(const nlohmann::json& user, const std::string& file);

    /**
     * Apply one "KEY=VALUE" override to a validated scenario. VALUE is read as JSON if
     * it parses (numbers, true/false, arrays), else as a string. Throws ScenarioError.
     */
    static void ApplyOverride(nlohmann::json& scenario, const std::string& assignment);

    /// Check one value against its key; throws ScenarioError mentioning \p origin.
    static void CheckValue(const Key& key, const nlohmann::json& value, const std::string& origin);

    /// Whether \p path is a parameter of a pluggable class: cc.<algorithm>.<name>,
    /// routing.<balancer>.<name> or nic.<policy>.<name> (PluginRegistry).
    static bool IsPluginParameter(const std::string& path);
    /// Check such a parameter; returns its attribute string. Throws ScenarioError.
    static std::string PluginParameterString(const std::string& path,
                                             const nlohmann::json& value,
                                             const std::string& origin);

    /**
     * The congestion-control parameters a validated \p scenario gives \p algorithm: the
     * entries of its `cc.<algorithm>` section that are Attributes (not schema keys), as
     * Attribute name -> string, for CcRegistry::Resolve.
     */
    static nlohmann::json CcParameters(const nlohmann::json& scenario,
                                       const std::string& algorithm);

    /**
     * Record every parameter of \p algorithm in \p scenario (for config.json): the
     * `cc.<algorithm>` section gets \p parameters (CcRegistry::Resolved::parameters).
     */
    static void RecordCcParameters(nlohmann::json& scenario,
                                   const std::string& algorithm,
                                   const nlohmann::json& parameters);

    /// A key's type as the reference shows it ("integer", "one of \"a\" \"b\"").
    static std::string TypeText(const Key& k);
    /// A range as the reference and errors show it: "[min, max]" or "[min, inf)".
    static std::string RangeText(double min, double max);

    /// Markdown table of all keys.
    static std::string Markdown();

    /**
     * Every key as JSON (`rdma-run --list-keys --json`): {"keys": [entry...]}, one entry
     * per schema key and per parameter of a pluggable class (PluginRegistry::KeysJson),
     * each with path, kind ("scenario", or the family's section: "cc", "routing", "nic"),
     * type, unit, min, max (null where there is no bound), choices, default (null:
     * derived) and doc.
     */
    static nlohmann::json KeysJson();
};

} // namespace ns3

#endif /* RDMA_SCENARIO_SCHEMA_H */
