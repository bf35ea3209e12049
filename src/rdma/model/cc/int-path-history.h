/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INT_PATH_HISTORY_H
#define RDMA_INT_PATH_HISTORY_H

#include "ns3/congestion-control.h"
#include "ns3/int-hop.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The INT records of a QP's forward path as the previous ACK carried them, the reference
 * an INT-driven controller (Hpcc, PowerTcp) takes its per-hop deltas against. It knows
 * which records of an ACK describe the forward path, when the stored ones are too old to
 * take deltas from (a counter may have wrapped), and which new records are usable (newer
 * than the stored one). What a controller computes from a delta is its own.
 */
class IntPathHistory
{
  public:
    /**
     * The records of \p ack that describe the forward path. The forward path has
     * pathLinks - 1 switch egresses (CcContext::hops counts links, the first one is the
     * NIC's); records beyond them were pushed on the ACK's way back and describe the
     * reverse path, which the QP's data does not load.
     */
    static uint32_t ForwardHops(const CcAck& ack, uint32_t pathLinks)
    {
        return pathLinks >= 2 && ack.intHops > pathLinks - 1 ? pathLinks - 1 : ack.intHops;
    }

    /**
     * Whether a record whose timestamp is \p dts ns after the stored one brings news: the
     * same stamp brings none, and a delta above half the 24-bit range means the record is
     * older than the stored one (an ACK overtaken by a later one).
     */
    static bool IsNewer(uint64_t dts)
    {
        return dts != 0 && dts < (1ULL << (IntHop::kTsBits - 1));
    }

    /// Forget everything (Init): the next ACK with records only stores them.
    void Reset();

    /// Store the first \p n records of \p ack, received at \p now, as the reference.
    void Store(const CcAck& ack, uint32_t n, Time now);

    /// The stored record of hop \p i (i < GetCount()); a controller replaces it with the
    /// newer record once it has used the delta.
    IntHop& Hop(uint32_t i)
    {
        return m_hops[i];
    }

    /// Note that the records were used at \p now (the age of the reference restarts).
    void Touch(Time now)
    {
        m_lastIntAck = now;
    }

    /// \return whether records were ever stored since Reset
    bool IsStarted() const
    {
        return m_started;
    }

    /// \return how many records are stored
    uint32_t GetCount() const
    {
        return m_nHops;
    }

    /**
     * Whether the stored records are too old at \p now to take deltas from: after a
     * silence of a quarter of the wrap period of the 24-bit timestamp (16.8 ms) or of a
     * hop's 20-bit byte counter (128 MiB at its rate), a counter may have wrapped more than
     * once. A quarter leaves the other quarter below the half range for the stamps to
     * differ from the ACK arrival times (queueing).
     */
    bool IsTooOld(Time now) const;

  private:
    bool m_started = false;
    Time m_lastIntAck; ///< arrival of the last ACK whose records were stored or used
    uint32_t m_nHops = 0;
    std::array<IntHop, rdmawire::kMaxIntHops> m_hops;
};

} // namespace ns3

#endif /* RDMA_INT_PATH_HISTORY_H */
