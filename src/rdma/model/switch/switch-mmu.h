/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_MMU_H
#define SWITCH_MMU_H

#include "ns3/buffer-policy.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-wire.h"
#include "ns3/switch-verdict.h"

#include <algorithm>
#include <array>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Shared-buffer memory management unit of a switch (Broadcom-style).
 *
 * Every admitted byte is counted three ways: per ingress (port, class) for PFC, per
 * egress (port, class) for ECN marking, queue statistics and lossy drops, and in the
 * shared pool. Lossless classes (PFC on and the class in LosslessClasses) are never
 * dropped while the upstream honours pauses: once the ingress counter reaches Xoff
 * (static, or dynamic = PfcAlpha x free shared buffer) the switch pauses the upstream
 * and the bytes still in flight go to the port's headroom. Headroom is reserved once
 * per port (sized by the helper from link rate and delay) and out of the shared pool.
 * Lossy classes are tail-dropped when the shared pool is full or when their egress
 * queue would pass the threshold of the switch's BufferPolicy (by default
 * DynamicThresholdPolicy: EgressAlpha x free shared buffer).
 */
class SwitchMmu : public Object
{
  public:
    static TypeId GetTypeId();
    SwitchMmu();

    /// Grow the per-port state to \p ports; new ports start with no headroom and the
    /// default ECN thresholds.
    void SetPortCount(uint32_t ports);
    uint32_t GetPortCount() const;
    /// Reserve \p bytes of headroom for the lossless classes of ingress \p port.
    void SetHeadroom(uint32_t port, uint64_t bytes);
    uint64_t GetHeadroom(uint32_t port) const;
    /// RED/ECN thresholds of egress \p port (bytes; probability at Kmax).
    void SetEcnThresholds(uint32_t port, uint64_t kmin, uint64_t kmax, double pmax);
    /**
     * Size \p port for its link: the headroom of its ingress is what can still arrive
     * after the pause decision (the frame this switch is sending on the link, the pause
     * frame, a round trip of propagation at line rate, the frame the upstream has
     * started and one frame of margin); its egress ECN thresholds are Kmin/Kmax, scaled
     * by rate / EcnReferenceRate when EcnScaleWithRate is set.
     * \param port the port
     * \param bitRate its link's rate (bit/s)
     * \param delay its link's one-way propagation delay
     * \param mtu the NICs' payload MTU (bytes)
     */
    void ConfigurePort(uint32_t port, uint64_t bitRate, Time delay, uint32_t mtu);

    /**
     * Install the admission rule of the lossy classes (the MMU makes a
     * DynamicThresholdPolicy at construction); the policy learns the current ports.
     * \param policy the policy, used by this MMU only
     */
    void SetBufferPolicy(Ptr<BufferPolicy> policy);
    Ptr<BufferPolicy> GetBufferPolicy() const;
    /// EgressAlpha: the dynamic-threshold factor of the lossy classes.
    double GetEgressAlpha() const;

    /// Whether class \p priority is lossless (PFC on and class enabled).
    bool IsLossless(uint8_t priority) const;
    /// Bit c set when class c is lossless (0 with PFC off).
    uint8_t GetLosslessMask() const;
    /**
     * Try to admit a frame of \p bytes from ingress \p inPort to egress (\p outPort,
     * \p priority).
     * \param why if not null and the frame is refused: why (never LINK_DOWN or NO_ROUTE)
     * \return true if admitted (and counted), false if it must be dropped
     */
    bool Admit(uint32_t inPort,
               uint32_t outPort,
               uint8_t priority,
               uint32_t bytes,
               DropReason* why = nullptr);
    /// The frame left the egress queue.
    void Release(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes);

    /// The ingress (port, class) has reached its Xoff threshold.
    bool ShouldPause(uint32_t inPort, uint8_t priority) const;
    /// The ingress (port, class) is back below Xoff minus the Xon hysteresis.
    bool ShouldResume(uint32_t inPort, uint8_t priority) const;
    /**
     * RED decision for a frame leaving egress (\p outPort, \p priority) now (the frame
     * still counted in the queue).
     * \param why if not null and the frame is to be marked: why
     * \return whether to CE-mark it (if it is ECN-capable)
     */
    bool ShouldMarkEcn(uint32_t outPort, uint8_t priority, MarkReason* why = nullptr);
    /// Marking probability for an egress queue of \p queueBytes at \p outPort.
    double MarkProbability(uint32_t outPort, uint64_t queueBytes) const;

    /// Current Xoff threshold of an ingress counter (bytes).
    uint64_t GetXoffThreshold() const;
    uint64_t GetSharedCapacity() const;
    uint64_t GetSharedUsed() const;
    uint64_t GetEgressBytes(uint32_t outPort, uint8_t priority) const;
    /// Bytes queued at egress \p outPort over all classes.
    uint64_t GetEgressPortBytes(uint32_t outPort) const;

    uint64_t GetIngressBytes(uint32_t inPort, uint8_t priority) const;
    uint64_t GetHeadroomUsed(uint32_t inPort, uint8_t priority) const;
    /// Largest egress (port, class) queue seen since the start (bytes).
    uint64_t GetMaxEgressBytes() const;

    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    friend class FabricLayout; ///< reads its counters' layout (model/sim)

    using PerClass = std::array<uint64_t, kRdmaNumPriorities>;

    struct Ecn
    {
        uint64_t kmin;
        uint64_t kmax;
        double pmax;
    };

    uint64_t m_bufferSize;
    bool m_pfcEnabled;
    bool m_dynamicXoff;
    uint64_t m_staticXoff;
    double m_pfcAlpha;
    uint64_t m_xonDelta;
    double m_egressAlpha;
    uint8_t m_losslessClasses;
    bool m_ecnEnabled;
    uint64_t m_defaultKmin;
    uint64_t m_defaultKmax;
    double m_defaultPmax;
    bool m_ecnScaleWithRate;
    uint64_t m_ecnReferenceRate;

    std::vector<PerClass> m_ingressShared;
    std::vector<PerClass> m_headroomUsed;
    std::vector<PerClass> m_egress;
    std::vector<uint64_t> m_egressPort;       ///< per port, over its classes
    std::vector<uint64_t> m_headroom;         ///< reserved per port
    std::vector<uint64_t> m_portHeadroomUsed; ///< per port, over its classes
    std::vector<Ecn> m_ecn;
    uint64_t m_headroomReserved;
    uint64_t m_sharedUsed;
    uint64_t m_maxEgress;
    Ptr<UniformRandomVariable> m_rng;
    Ptr<BufferPolicy> m_policy;
    bool m_policyTracksQueues; ///< m_policy->TracksQueues(), asked once
};

// The per-frame decisions, inline: a switch calls them for every frame it forwards, from
// another source file.

inline bool
SwitchMmu::IsLossless(uint8_t priority) const
{
    return m_pfcEnabled && (m_losslessClasses & (1u << priority));
}

inline uint64_t
SwitchMmu::GetSharedCapacity() const
{
    // Headroom is only set aside when some class is lossless.
    const uint64_t reserved = m_pfcEnabled && m_losslessClasses ? m_headroomReserved : 0;
    return m_bufferSize > reserved ? m_bufferSize - reserved : 0;
}

inline uint64_t
SwitchMmu::GetXoffThreshold() const
{
    if (!m_dynamicXoff)
    {
        return m_staticXoff;
    }
    const uint64_t cap = GetSharedCapacity();
    const uint64_t freeBytes = cap > m_sharedUsed ? cap - m_sharedUsed : 0;
    return static_cast<uint64_t>(m_pfcAlpha * freeBytes);
}

inline void
SwitchMmu::Release(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes)
{
    m_egress[outPort][priority] -= bytes;
    m_egressPort[outPort] -= bytes;
    if (m_policyTracksQueues)
    {
        m_policy->Dequeued(outPort, priority, bytes, m_egress[outPort][priority]);
    }
    uint64_t fromShared = bytes;
    if (IsLossless(priority))
    {
        // Headroom drains first, so that the port can resume as soon as possible.
        uint64_t& headroom = m_headroomUsed[inPort][priority];
        const uint64_t fromHeadroom = std::min<uint64_t>(headroom, bytes);
        headroom -= fromHeadroom;
        m_portHeadroomUsed[inPort] -= fromHeadroom;
        fromShared -= fromHeadroom;
    }
    m_ingressShared[inPort][priority] -= fromShared;
    m_sharedUsed -= fromShared;
}

inline bool
SwitchMmu::ShouldPause(uint32_t inPort, uint8_t priority) const
{
    return IsLossless(priority) && (m_headroomUsed[inPort][priority] > 0 ||
                                    m_ingressShared[inPort][priority] >= GetXoffThreshold());
}

inline bool
SwitchMmu::ShouldResume(uint32_t inPort, uint8_t priority) const
{
    return m_headroomUsed[inPort][priority] == 0 &&
           m_ingressShared[inPort][priority] + m_xonDelta <= GetXoffThreshold();
}

} // namespace ns3

#endif /* SWITCH_MMU_H */
