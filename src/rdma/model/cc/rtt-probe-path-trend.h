/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RTT_PROBE_PATH_TREND_H
#define RDMA_RTT_PROBE_PATH_TREND_H

#include "ns3/congestion-control.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The latest RTT samples a NIC has taken to one destination (held in
 * CcPeerGroup::shared, one per NIC and destination), from which an RttProbe QP reads the
 * queue's trend: the growth of the queueing delay per second of sending between an
 * earlier sample of the NIC's and its own. It holds measurements only, never a rate: a
 * QP that sends one packet every few hundred microseconds would otherwise know only the
 * trend over its own last gap, too old to tell whether the queue grows now.
 */
class RttProbePathTrend : public CcSharedState
{
  public:
    /// A sample: the send time of its packet and its RTT.
    struct Point
    {
        Time sent;
        Time rtt;
    };

    /**
     * Note a sample; it is kept if it left at least \p span after the newest one kept.
     * \param p the sample
     * \param span the spacing of the samples kept
     */
    void Note(const Point& p, Time span);

    /**
     * The newest kept sample that left at least \p span before \p p.
     * \param p the new sample
     * \param span the shortest span a trend is taken over
     * \param[out] ref that sample
     * \return whether there is one
     */
    bool Reference(const Point& p, Time span, Point& ref) const;

  private:
    std::array<Point, 4> m_ring{};
    uint8_t m_head = 0;  ///< index of the newest
    uint8_t m_count = 0; ///< samples kept
};

} // namespace ns3

#endif /* RDMA_RTT_PROBE_PATH_TREND_H */
