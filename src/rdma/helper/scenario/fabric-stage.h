/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FABRIC_STAGE_H
#define RDMA_FABRIC_STAGE_H

#include "ns3/rdma-topology.h"
#include "ns3/scenario-stage.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The fabric stage: the keys of the NICs (nic.*), the switches (switch.*), routing
 * (routing.*), congestion control (cc.*) and link events (topology.link_events), mapped
 * onto the attributes of RdmaNic, SwitchMmu, RdmaSwitch, the load balancer, the
 * congestion controller and the loss-recovery policy.
 *
 * Call order in a run: Configure (before the topology stage builds the fabric), Finish
 * (after RdmaTopology::Finalize: link events are checked against the built links, random
 * streams assigned), then Start once the simulator clock has started.
 */
class FabricStage : public ScenarioStage
{
  public:
    /// nic.*, switch.*, routing.*, cc.* and topology.link_events (fabric-keys.cc).
    std::vector<ScenarioKey> Keys() const override;
    /// Every parameter of the chosen controller (user's, preset's, attribute default) and
    /// nic.cnp_interval_us.
    void Resolve(nlohmann::json& scenario, const std::string& file) const override;
    /// Priorities against the control class, ECN thresholds, INT-encodable link rates.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;

    /**
     * Set the attributes of everything \p topo will create (NICs, switches, MMUs, load
     * balancers, controllers, the loss-recovery policy).
     * \param scenario the resolved and checked scenario
     * \param topo a topology with no node yet
     */
    void Configure(const nlohmann::json& scenario, RdmaTopology& topo) const;

    /**
     * After the fabric is built and finalized: the NICs' in-flight cap (IRN's BDP-FC),
     * the switches' random streams, their PFC watchdogs (switch.pfc.watchdog.*), and
     * the link events checked against the links.
     * Throws ScenarioError for a link event naming no link.
     * \param scenario the resolved and checked scenario
     * \param topo the finalized topology
     * \param stream the next free random stream, advanced past those used
     */
    void Finish(const nlohmann::json& scenario, RdmaTopology& topo, int64_t& stream);

    /// Schedule the link events checked by Finish and start the PFC watchdogs (the
    /// simulator clock has started).
    void Start(RdmaTopology& topo) const;

    /// The selected controller's parameters together: MinRate above 0, MinCwnd not above
    /// MaxCwnd (Swift's windows). Throws ScenarioError.
    static void CheckCcParameters(const nlohmann::json& scenario, const std::string& file);
    /// Link events in time order: "up" only for a link that is down, "down" only for one
    /// that is up. Throws ScenarioError.
    /// switch.buffer.*: the policy exists and no other policy's parameter is set away
    /// from its default.
    static void ResolveBufferPolicy(const nlohmann::json& scenario, const std::string& file);
    /// (key, the policy it belongs to) of every buffer-policy parameter.
    static std::vector<std::pair<std::string, std::string>> BufferPolicyKeys();
    /// The buffer policy switch.buffer.policy names, with its parameters.
    static ObjectFactory BufferPolicyFactory(const nlohmann::json& scenario);
    static void CheckLinkEvents(const nlohmann::json& scenario, const std::string& file);
    /// switch.trim.* (fabric-trim.cc): bytes below a full data frame; bytes and priority
    /// only with trimming on.
    static void CheckTrim(const nlohmann::json& scenario, const std::string& file);
    /// Give every switch a PacketTrimmer if switch.trim.enabled (fabric-trim.cc).
    static void ConfigureTrim(const nlohmann::json& scenario, RdmaTopology& topo);
    /**
     * An ECN threshold key (switch.ecn.kmin_kb or kmax_kb) in bytes: its value times
     * the unit switch.ecn.unit names (KiB: 1,024 bytes; kB: 1,000 bytes, the HPCC and
     * ConWeave simulators' unit), truncated to a whole byte.
     */
    static uint64_t EcnThresholdBytes(const nlohmann::json& scenario, const std::string& key);

  private:
    struct LinkEvent
    {
        Time at;
        int32_t link;
        std::string action; ///< "up", "down" or "rate"
        double rateGbps;
    };

    std::vector<LinkEvent> m_linkEvents;
    std::vector<Ptr<PfcWatchdog>> m_watchdogs;
};

} // namespace ns3

#endif /* RDMA_FABRIC_STAGE_H */
