/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RTT_PROBE_START_WINDOW_H
#define RDMA_RTT_PROBE_START_WINDOW_H

#include "ns3/congestion-control.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The window of RttProbe's starting QPs on one NIC (held in CcNicGroup::shared, one per
 * NIC): the bytes its QPs send before their first sample, and not yet acknowledged, are
 * at most this window for all of them together. A message that fits leaves at once on a
 * new or idle QP, while a thousand QPs starting together enter the network a window per
 * RTT, clocked by their ACKs, each sending its first packet before any sends its second.
 *
 * The window is a fact of the NIC, learned as TCP's congestion window is: it starts at
 * one packet and grows by the start bytes acknowledged while the queue they crossed does
 * not grow (slow start), up to W0, the bytes a QP at line rate keeps in flight at its
 * target; while it is full and the queue grows, it shrinks by the queue's growth factor,
 * at most once per RTT. So NICs that start their QPs together do not each put W0 into a
 * queue that their starts already fill.
 */
class RttProbeStartWindow : public CcSharedState
{
  public:
    /**
     * \param max W0, the largest window (payload bytes)
     * \param minWait the shortest wait it asks of a QP (the target RTT at line rate)
     * \param initial the window at first (one packet's payload)
     */
    RttProbeStartWindow(uint64_t max, Time minWait, uint64_t initial);

    /**
     * \param bytes the payload of the packet a starting QP would send now
     * \param first whether it would be the QP's first packet of its start
     * \return how long it must wait (zero: send now); a QP asks again when that has
     *         passed
     */
    Time Wait(uint32_t bytes, bool first) const;
    /// A starting QP's first packet had to wait: such packets now go before later ones.
    void Queued();
    /// \p bytes sent by a starting QP (\p queued: its first, which had to wait).
    void Sent(uint64_t bytes, bool queued);
    /**
     * \p bytes of those acknowledged, by a sample that saw the queue grow by \p growth
     * (seconds of queueing delay per second of sending; 0 if unknown).
     */
    void Acked(uint64_t bytes, double growth);
    /// An RTT sample of any QP of the NIC, at \p now: the pace of the ACK clock.
    void NoteRtt(Time now, Time rtt);

  private:
    uint64_t m_max;
    uint64_t m_min;
    uint64_t m_window;
    uint64_t m_inflight = 0;
    uint32_t m_queued = 0; ///< starting QPs waiting to send their first packet
    Time m_minWait;
    Time m_rtt;                      ///< the NIC's latest RTT sample
    Time m_now;                      ///< when it came
    Time m_lastShrink = Time::Min(); ///< the last decrease (one per RTT)
};

} // namespace ns3

#endif /* RDMA_RTT_PROBE_START_WINDOW_H */
