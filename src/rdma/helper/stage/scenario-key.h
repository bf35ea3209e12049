/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_KEY_H
#define RDMA_SCENARIO_KEY_H

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * One documented scenario key: its dotted path, type, range, default, unit and meaning.
 * A stage declares the keys it owns (ScenarioStage::Keys); the runner's ScenarioSchema
 * gathers every stage's into the schema it validates scenarios against.
 */
struct ScenarioKey
{
    /// What a key's value is.
    enum class Type
    {
        BOOL,
        INT,
        NUMBER,
        STRING,
        CHOICE,      ///< a string among `choices`
        INT_ARRAY,   ///< array of integers within [min, max]
        LINK_EVENTS, ///< array of {at_us, a, b, nth, action, rate_gbps} objects
    };

    std::string path; ///< dotted, e.g. "switch.ecn.kmin_kb"
    Type type;
    nlohmann::json defaultValue; ///< null: derived when resolving (see doc)
    double min;
    double max;
    std::vector<std::string> choices;
    std::string unit;
    std::string doc;
};

} // namespace ns3

#endif /* RDMA_SCENARIO_KEY_H */
