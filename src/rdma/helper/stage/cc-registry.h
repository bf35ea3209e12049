/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_REGISTRY_H
#define RDMA_CC_REGISTRY_H

#include "ns3/plugin-registry.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

class CongestionControl;

/**
 * \ingroup rdma
 * The congestion-control family of PluginRegistry (PluginRegistry::CongestionControls:
 * the algorithms a scenario can name and their `cc.<name>.<Attribute>` parameters), and
 * what only congestion control needs: resolving an algorithm's parameters the way its
 * controllers will have them after Init (presets that depend on the line rate).
 */
class CcRegistry
{
  public:
    /// A controller set up as a NIC would for a line rate, and its parameters.
    struct Resolved
    {
        Ptr<CongestionControl> controller; ///< after Init
        /// Every Attribute (as Attributes() lists them) by name, as a string: the value in
        /// use after Init, the user's (in the user's spelling, "80Mbps") or else the
        /// controller's own (its preset's for the line rate; for an attribute Init
        /// leaves alone, PluginRegistry::DefaultString()).
        nlohmann::json parameters;
    };

    /**
     * Every parameter of \p algorithm, the way its controllers will have them: builds a
     * controller through an ObjectFactory with the user's values, calls Init with a
     * CcContext for \p lineRate (a nominal path for the rest: base RTTs of 10 us, the
     * default MTU, one hop; parameters must not depend on it) and reads every Attribute
     * back. Aborts on an unknown algorithm or attribute or an invalid value: check them
     * first (ScenarioSchema does).
     * \param algorithm a registered name, e.g. "dcqcn"
     * \param userParams the values the user gave: a JSON object Attribute name -> value
     *        (a string, number or boolean, as PluginRegistry::ToAttributeString() takes it)
     * \param lineRate NIC port rate (bit/s)
     * \return the initialized controller (e.g. for CongestionControl::GetCnpInterval())
     *         and its parameters
     */
    static Resolved Resolve(const std::string& algorithm,
                            const nlohmann::json& userParams,
                            uint64_t lineRate);

    /**
     * Whether the controllers of \p algorithm act on ECN: a controller set up at line
     * rate (Resolve, default parameters) that lowers its rate or its window on a CNP.
     * Asked of the controller itself, so that a new algorithm needs no list (analysis
     * notes, from summary.json's cc_reacts_to_cnp, that marks and CNPs of the others are
     * counted but not acted on).
     */
    static bool ReactsToCnp(const std::string& algorithm);
};

} // namespace ns3

#endif /* RDMA_CC_REGISTRY_H */
