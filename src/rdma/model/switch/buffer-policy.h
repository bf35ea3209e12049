/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_BUFFER_POLICY_H
#define RDMA_BUFFER_POLICY_H

#include "ns3/object.h"
#include "ns3/switch-verdict.h"

#include <string>
#include <vector>

namespace ns3
{

class SwitchMmu;

/**
 * \ingroup rdma
 * The admission rule of a switch's shared buffer for the lossy classes (scenario key
 * switch.buffer.policy): how many bytes an egress queue (port, class) may hold before
 * its next frame is dropped. Lossless classes are governed by PFC (SwitchMmu) and never
 * ask the policy. One instance per switch MMU; subclasses: DynamicThresholdPolicy (the
 * default, EgressAlpha x free buffer), StaticBufferPolicy (a fixed share per queue) and
 * AbmBufferPolicy (Active Buffer Management, SIGCOMM 2022).
 *
 * The MMU calls, in this order: Attach once, SetPortCount and ConfigurePort as ports
 * are added, then for every frame GetThreshold (lossy classes only, when the shared
 * pool has room), Enqueued after any admission and Dequeued after any release (the
 * last two only if TracksQueues()).
 */
class BufferPolicy : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * Hook: the policy is installed on \p mmu (before any other hook). The policy may
     * read the MMU's counters through it for as long as it lives.
     * \param mmu the MMU that asks this policy
     */
    virtual void Attach(const SwitchMmu* mmu);
    /**
     * Hook: the switch has \p ports ports now (ports are added one by one).
     * \param ports the number of ports
     */
    virtual void SetPortCount(uint32_t ports);
    /**
     * Hook: egress \p port drains at \p bitRate (its link's rate).
     * \param port the port
     * \param bitRate bit/s
     */
    virtual void ConfigurePort(uint32_t port, uint64_t bitRate);
    /**
     * Hook, per lossy frame: the most bytes egress queue (\p outPort, \p priority) may
     * hold; a frame that would take the queue above it is dropped with GetDropReason().
     * \param outPort the egress port
     * \param priority the frame's class
     * \param freeBytes the shared pool's free bytes, B - Q(t)
     * \return the threshold (bytes)
     */
    virtual double GetThreshold(uint32_t outPort, uint8_t priority, uint64_t freeBytes) = 0;
    /// The reason a frame refused by GetThreshold is counted under.
    virtual DropReason GetDropReason() const = 0;
    /// Whether the MMU must call Enqueued and Dequeued (false: it saves the calls).
    virtual bool TracksQueues() const;
    /**
     * Hook: a frame (of any class) joined egress queue (\p outPort, \p priority).
     * \param outPort the egress port
     * \param priority the class
     * \param queueBytes the queue's length with the frame (bytes)
     */
    virtual void Enqueued(uint32_t outPort, uint8_t priority, uint64_t queueBytes);
    /**
     * Hook: a frame of \p bytes left egress queue (\p outPort, \p priority).
     * \param outPort the egress port
     * \param priority the class
     * \param bytes the frame's size
     * \param queueBytes the queue's length without the frame (bytes)
     */
    virtual void Dequeued(uint32_t outPort, uint8_t priority, uint32_t bytes, uint64_t queueBytes);
    /// Short name used in scenarios (switch.buffer.policy): "dynamic_threshold", ...
    virtual std::string GetName() const = 0;

    /// The names of every registered policy (every concrete subclass), sorted.
    static std::vector<std::string> Names();
    /**
     * The TypeId of the policy named \p name.
     * \param name a GetName()
     * \param tid set when found
     * \return whether there is one
     */
    static bool Find(const std::string& name, TypeId& tid);

  protected:
    void DoDispose() override;
    /// The MMU the policy is attached to (null before Attach).
    const SwitchMmu* GetMmu() const;

  private:
    const SwitchMmu* m_mmu = nullptr;
};

} // namespace ns3

#endif /* RDMA_BUFFER_POLICY_H */
