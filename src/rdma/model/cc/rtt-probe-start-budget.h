/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RTT_PROBE_START_BUDGET_H
#define RDMA_RTT_PROBE_START_BUDGET_H

#include "ns3/congestion-control.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The NIC-wide budget of packets that RttProbe's new and restarting QPs send at once,
 * before any RTT sample of theirs exists (held in CcNicGroup::shared, one per NIC).
 *
 * A token bucket in the form of a theoretical departure time (the generic cell rate
 * algorithm): packets leave at once while the bucket holds Burst bytes of credit, and
 * beyond that at Rate, each at the time its reservation comes due. A small message on a
 * new QP thus leaves at once, while a thousand QPs starting together on one NIC are
 * spread over a thousand packet times at Rate instead of leaving back to back. It is a
 * fact of the NIC (its own link, its own QPs), not of any path: it shares no rate among
 * QPs to a destination.
 */
class RttProbeStartBudget : public CcSharedState
{
  public:
    /**
     * \param rate the rate the budget refills at (bit/s, > 0)
     * \param burst the credit it holds at most (bytes)
     */
    RttProbeStartBudget(double rate, double burst);

    /**
     * Reserve the departure of a packet of \p wireBytes asked for at \p now.
     * \return when it may leave (\p now or later); reservations are served in order
     */
    Time Reserve(Time now, uint32_t wireBytes);

  private:
    double m_rate;  ///< bit/s
    double m_burst; ///< bytes
    Time m_due;     ///< when the bucket would be empty, given what it has granted
};

} // namespace ns3

#endif /* RDMA_RTT_PROBE_START_BUDGET_H */
