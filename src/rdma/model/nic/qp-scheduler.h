/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QP_SCHEDULER_H
#define RDMA_QP_SCHEDULER_H

#include "ns3/compact-deque.h"
#include "ns3/rdma-wire.h"

#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The NIC's transmit scheduler over its QPs, designed so that the cost per packet does
 * not grow with the number of QPs and idle QPs cost nothing:
 * - a round-robin list of QPs that may send now,
 * - a min-heap of QPs waiting for their pacing time,
 * - per class, the QPs parked while PFC pauses that class.
 * It only stores QP numbers; the NIC owns the QPs and their states. A NIC with hundreds
 * of active QPs reaches an entry of the ready list a whole round after it was written,
 * so the list is a ring whose pops load the next line of entries ahead of need.
 */
class QpScheduler
{
  public:
    void PushReady(uint32_t qpn);
    /// Pop the next ready QP; false if none.
    bool PopReady(uint32_t& qpn);

    /// The QP that PopReady would give now, without popping it; false if none.
    bool PeekReady(uint32_t& qpn) const
    {
        if (m_ready.empty())
        {
            return false;
        }
        qpn = m_ready.front();
        return true;
    }

    /**
     * The QP that the next pull will most likely serve: the head of the ready list, else
     * the one whose pacing time comes first. A guess (a QP that becomes ready or due
     * earlier in between changes it); changes nothing.
     * \param [out] qpn that QP
     * \return false if no QP is ready or waiting
     */
    bool PeekLikelyNext(uint32_t& qpn) const
    {
        if (PeekReady(qpn))
        {
            return true;
        }
        if (m_waiting.empty())
        {
            return false;
        }
        qpn = m_waiting.top().qpn;
        return true;
    }

    /// Wait until \p readyPs; \p generation tags the entry (see ReleaseDue).
    void PushWaiting(uint32_t qpn, uint64_t readyPs, uint32_t generation = 0);

    /**
     * Move every waiting QP whose time has come (<= nowPs) to the ready list, skipping
     * entries for which \p isCurrent(qpn, generation) is false: a QP moved to an earlier
     * time is pushed again with a new generation, and its old entry is dropped here.
     */
    template <typename IsCurrent>
    void ReleaseDue(uint64_t nowPs, IsCurrent isCurrent)
    {
        while (!m_waiting.empty() && m_waiting.top().ps <= nowPs)
        {
            const Waiting w = m_waiting.top();
            m_waiting.pop();
            if (isCurrent(w.qpn, w.generation))
            {
                m_ready.push_back(w.qpn);
            }
        }
    }

    void Park(uint32_t qpn, uint8_t priority);
    /// Move the QPs parked in classes not in \p pausedMask back to the ready list.
    void Unpark(uint8_t pausedMask);
    bool HasWaiting() const;

    /// No QP is ready, waiting or parked.
    bool IsEmpty() const
    {
        return m_ready.empty() && m_waiting.empty() && m_parkedMask == 0;
    }

    /// Earliest pacing time in the heap (HasWaiting() must be true).
    uint64_t NextWaitingPs() const;

    /// Where the fields that every pull reads begin (the parked mask, the ready ring and
    /// the pacing heap: 56 bytes, within two cache lines).
    const void* HotData() const
    {
        return &m_parkedMask;
    }

  private:
    friend class FabricLayout; ///< reads the ready ring's layout (model/sim)

    struct Waiting
    {
        uint64_t ps;
        uint32_t qpn;
        uint32_t generation;

        bool operator>(const Waiting& o) const
        {
            return ps != o.ps ? ps > o.ps : qpn > o.qpn;
        }
    };

    // What every pull reads comes first (HotData), the parked lists last.
    uint8_t m_parkedMask = 0;
    /// A ring (contiguous: its next entries are on the lines after the head's).
    CompactDeque<uint32_t> m_ready;
    std::priority_queue<Waiting, std::vector<Waiting>, std::greater<Waiting>> m_waiting;
    std::array<std::vector<uint32_t>, kRdmaNumPriorities> m_parked;
};

} // namespace ns3

#endif /* RDMA_QP_SCHEDULER_H */
