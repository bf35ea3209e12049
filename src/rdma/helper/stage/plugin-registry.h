/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PLUGIN_REGISTRY_H
#define RDMA_PLUGIN_REGISTRY_H

#include "ns3/type-id.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * One pluggable family of the model (congestion control, load balancer, loss recovery,
 * path selection):
 * the classes a scenario can name, found at run time among the registered TypeIds
 * (every concrete subclass of the family's base), and their parameters, the Attributes
 * of each TypeId. A scenario names a class with the family's choice key (cc.algorithm,
 * routing.load_balancer, nic.loss_recovery) and sets its parameters with keys
 * `<section>.<name>.<Attribute>` (cc.dcqcn.RateAi, routing.flowlet.Gap,
 * nic.selective_repeat.RtoLow), checked against those attributes. Adding a class is one
 * file pair (and its test): its name, keys and documentation follow from its TypeId.
 */
class PluginRegistry
{
  public:
    /// One class of the family.
    struct Plugin
    {
        std::string name; ///< its GetName(), e.g. "dcqcn", "flowlet", "go_back_n"
        TypeId tid;
    };

    /**
     * \param section the scenario section of the family's keys ("cc", "routing", "nic")
     * \param choiceKey the key that names the class ("cc.algorithm", ...)
     * \param base the family's base TypeId
     * \param nameOf the short name of a concrete class (made once per class)
     * \param title the heading of the family's parameters in the key reference
     * \param internal attributes set by the fabric itself, not scenario keys (a load
     * balancer's per-switch Salt)
     */
    PluginRegistry(std::string section,
                   std::string choiceKey,
                   TypeId base,
                   std::function<std::string(TypeId)> nameOf,
                   std::string title,
                   std::set<std::string> internal = {});

    const std::string& GetSection() const;
    const std::string& GetChoiceKey() const;
    /// Every class of the family, sorted by name (found at the first call).
    const std::vector<Plugin>& Plugins() const;
    /// The class named \p name, or null.
    const Plugin* Find(const std::string& name) const;
    /// The names of every class, sorted.
    std::vector<std::string> Names() const;
    /// Attributes of \p tid and of its parents below the base, minus the internal ones.
    std::vector<TypeId::AttributeInformation> Attributes(TypeId tid) const;
    /// The attribute \p name of \p tid (false if it has none, or an internal one).
    bool FindAttribute(TypeId tid,
                       const std::string& name,
                       TypeId::AttributeInformation& info) const;
    /// Whether \p path has the form <section>.<name of a class>.<name> (the attribute
    /// may not exist: ParameterString says so).
    bool IsParameter(const std::string& path) const;
    /**
     * Check the parameter \p path (<section>.<class>.<Attribute>) set to \p value.
     * \return the value as the string ns-3 parses
     * Throws ScenarioError naming \p origin, the key and the value.
     */
    std::string ParameterString(const std::string& path,
                                const nlohmann::json& value,
                                const std::string& origin) const;
    /// Markdown: one table of parameters per class.
    std::string Markdown() const;
    /// One JSON entry per parameter of every class (for --list-keys --json): as
    /// ScenarioSchema::KeysJson()'s, kind = the section, plus the class (under the name
    /// of the choice key's last part: "algorithm", "load_balancer", "loss_recovery") and
    /// the attribute.
    nlohmann::json KeysJson() const;

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

    /// The congestion controllers (cc.algorithm, cc.<algorithm>.<Attribute>).
    static const PluginRegistry& CongestionControls();
    /// The load balancers (routing.load_balancer, routing.<balancer>.<Attribute>).
    static const PluginRegistry& LoadBalancers();
    /// The loss-recovery policies (nic.loss_recovery, nic.<policy>.<Attribute>).
    static const PluginRegistry& LossRecoveries();
    /// The sender path-selection policies (nic.load_balancer, nic.<policy>.<Attribute>).
    static const PluginRegistry& PathSelectors();
    /// The four families.
    static std::vector<const PluginRegistry*> All();
    /// The family whose parameters \p path names, or null.
    static const PluginRegistry* ForParameter(const std::string& path);

  private:
    std::string m_section;
    std::string m_choiceKey;
    TypeId m_base;
    std::function<std::string(TypeId)> m_nameOf;
    std::string m_title;
    std::set<std::string> m_internal;
    mutable std::vector<Plugin> m_plugins;
    mutable bool m_found = false;
};

} // namespace ns3

#endif /* RDMA_PLUGIN_REGISTRY_H */
