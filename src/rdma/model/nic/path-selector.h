/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PATH_SELECTOR_H
#define RDMA_PATH_SELECTOR_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * The sender's choice of entropy (the UDP source port the switches' ECMP hash reads) for
 * each data packet of a QP: Ultra Ethernet's sender-side load balancing, in the manner of
 * ns-3's TcpCongestionOps. The NIC reports what came back (ACK, NACK of a trimmed packet,
 * timeout, each with the entropy of the packet it concerns) and asks for the entropy of
 * the next packet; the policy only decides, on the state it keeps and the time it is
 * handed (a unit test drives it with any clock).
 *
 * A policy works over a space of Paths entropies of its QP: index i of the space is the
 * UDP source port SpacePort(basePort, i), so that every QP has its own ports and an index
 * always maps to the same port. Policies that keep state (IsPerQp) get one instance per
 * QP, made from the NIC's factory and initialised with Init; one that keeps none serves
 * every QP of the NIC.
 *
 * Chosen by TypeId (RdmaNic attribute PathSelector; scenario key nic.load_balancer),
 * parameters as Attributes (nic.<name>.<Attribute>); the space size is the base's
 * attribute Paths (nic.paths).
 */
class PathSelector : public Object
{
  public:
    static TypeId GetTypeId();

    PathSelector();

    /// First port of the range the entropies of a space are drawn from (IANA's dynamic
    /// range, [49152, 65535]).
    static constexpr uint32_t kPortFirst = 49152;
    /// Ports in that range: the largest space.
    static constexpr uint32_t kPortCount = 16384;
    /// SpaceIndex of a port outside the space.
    static constexpr uint32_t kNoIndex = 0xffffffffu;

    /**
     * Bind a per-QP instance to its QP, before the first NextEntropy.
     * \param basePort the QP's own UDP source port (its entropy with one path)
     * \param seed the QP's draws (random choices) start from it: the NIC derives it from
     * the run's seed, its node and the QP, so that draws are the same in every run of
     * the scenario and do not depend on ns-3's stream numbering
     */
    void Init(uint16_t basePort, uint64_t seed);

    /**
     * Contract: the entropy (UDP source port) of the data packet \p psn of the QP whose
     * own port is \p basePort, sent at \p now (first transmission or resend). Called once
     * per data packet, in sending order; the answer is the packet's, whatever it is.
     */
    uint16_t NextEntropy(uint16_t basePort, uint32_t psn, Time now);

    /**
     * Contract: an ACK (or a NACK reporting a packet that arrived: selective repeat's
     * out-of-order report, go-back-N's) came back for a packet sent with \p entropy;
     * \p ecnEcho: that packet was CE-marked on its way. The path worked; marked, it is
     * congested.
     */
    void OnAck(uint16_t entropy, bool ecnEcho, Time now);

    /**
     * Contract: a NACK came back for a packet sent with \p entropy that a switch trimmed
     * (FLAG_TRIMMED): its path's queue overflowed.
     */
    void OnNack(uint16_t entropy, Time now);

    /**
     * Contract: the QP's retransmission timer expired; \p entropy is that of the last
     * transmission of its oldest unacknowledged packet (the packet the timer waited for),
     * whose path may have failed.
     */
    void OnTimeout(uint16_t entropy, Time now);

    /// True if the policy keeps state per QP (the NIC then makes one instance per QP);
    /// false if one instance serves every QP (its answers depend on its arguments only).
    virtual bool IsPerQp() const;
    /// True if the policy reads feedback (the NIC then remembers each packet's entropy
    /// until it is acknowledged, and reports ACKs, NACKs and timeouts).
    virtual bool UsesFeedback() const;
    /// True if every packet takes its QP's own port (the answer of NextEntropy is always
    /// basePort): the NIC then asks nothing per packet, and Choice does not fire.
    virtual bool KeepsQpPort() const;
    /// Short name used in scenarios (nic.load_balancer): "per_qp", "oblivious", ...
    virtual std::string GetName() const = 0;

    /// Size of the space of entropies (attribute Paths).
    uint32_t GetPaths() const;

    /// The UDP source port of index \p index of the space of the QP whose own port is
    /// \p basePort: consecutive indices are distinct ports of the dynamic range.
    static uint16_t SpacePort(uint16_t basePort, uint32_t index);
    /// The index of \p port in the space of \p paths entropies of \p basePort's QP, or
    /// kNoIndex if the port is not one of them.
    static uint32_t SpaceIndex(uint16_t basePort, uint16_t port, uint32_t paths);

    /// The entropy chosen for a data packet: (QP's own port, PSN, entropy).
    using ChoiceTracedCallback = void (*)(uint16_t basePort, uint32_t psn, uint16_t entropy);

  protected:
    /// A draw in [0, n) from the QP's own sequence (splitmix64; Init seeds it).
    uint32_t Draw(uint32_t n);
    /// The QP's own port (Init).
    uint16_t GetBasePort() const;

  private:
    /// NextEntropy's decision (see its contract).
    virtual uint16_t DoNextEntropy(uint16_t basePort, uint32_t psn, Time now) = 0;
    /// OnAck's (default: ignored).
    virtual void DoOnAck(uint16_t entropy, bool ecnEcho, Time now);
    /// OnNack's (default: ignored).
    virtual void DoOnNack(uint16_t entropy, Time now);
    /// OnTimeout's (default: ignored).
    virtual void DoOnTimeout(uint16_t entropy, Time now);
    /// Init's, after the base has bound the QP (default: nothing).
    virtual void DoInit();

    uint32_t m_paths;
    uint16_t m_basePort;
    uint64_t m_rng;
    TracedCallback<uint16_t, uint32_t, uint16_t> m_choiceTrace;
};

} // namespace ns3

#endif /* RDMA_PATH_SELECTOR_H */
