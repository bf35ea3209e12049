/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_REPS_PATH_SELECTOR_H
#define RDMA_REPS_PATH_SELECTOR_H

#include "ns3/path-selector.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Recycled Entropy Packet Spraying (`reps`), htsim's UecMpReps (buffer_reps.h).
 *
 * The entropies of unmarked ACKs go into a ring of BufferSize slots, each fresh until
 * reused. A packet reuses the earliest fresh entropy of the ring (the earliest of the
 * run of fresh slots ending at the newest), else explores: a random entropy of the
 * space. Marked ACKs, NACKs and timeouts put nothing in the ring, so a congested or
 * broken path is not reused.
 *
 * After a failure (a timeout while neither frozen nor exploring) the QP freezes for
 * FreezeTime: it cycles through the entropies the ring holds, fresh or not (the paths
 * known to have worked), exploring only if the ring is empty; unmarked ACKs still
 * refresh the ring. The first feedback after FreezeTime ends it: the ring is emptied
 * and the next ExploreAfterFreeze packets take random entropies.
 */
class RepsPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();

    RepsPathSelector();

    bool UsesFeedback() const override;
    std::string GetName() const override;

    /// Frozen (after a failure, until FreezeTime has passed and feedback arrived).
    bool IsFrozen() const;
    /// Fresh entropies in the ring (reusable in the normal mode).
    uint32_t FreshCount() const;

  private:
    /// A slot of the ring.
    struct Slot
    {
        uint16_t entropy = 0;
        bool fresh = false;
    };

    void DoInit() override;
    uint16_t DoNextEntropy(uint16_t basePort, uint32_t psn, Time now) override;
    void DoOnAck(uint16_t entropy, bool ecnEcho, Time now) override;
    void DoOnNack(uint16_t entropy, Time now) override;
    void DoOnTimeout(uint16_t entropy, Time now) override;

    /// End a freeze whose time is over (any feedback checks).
    void MaybeThaw(Time now);
    /// Remember \p entropy as good (the newest slot).
    void Remember(uint16_t entropy);
    /// Empty the ring.
    void Clear();
    /// A random entropy of the space.
    uint16_t Explore(uint16_t basePort);

    uint32_t m_bufferSize;
    Time m_freezeTime;
    uint32_t m_exploreAfterFreeze;

    std::vector<Slot> m_ring;
    uint32_t m_next;        ///< the slot the next good entropy is written to
    uint32_t m_filled;      ///< slots written since the ring was last emptied (at most its size)
    uint32_t m_fresh;       ///< fresh slots: the m_fresh slots just before m_next
    uint32_t m_frozenNext;  ///< frozen mode: the slot reused next
    uint32_t m_exploreLeft; ///< packets still to send on random entropies
    bool m_frozen;
    Time m_thawAt;
};

} // namespace ns3

#endif /* RDMA_REPS_PATH_SELECTOR_H */
