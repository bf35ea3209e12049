/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HOST_RX_MODEL_H
#define RDMA_HOST_RX_MODEL_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup rdma
 * The receiving host behind a NIC, as the transport sees it (off unless a NIC is given
 * one, RdmaNic "HostRx"). The host takes the payload the responder delivers in order,
 * one packet after the other at Rate, and is done with a packet Delay after its payload
 * is taken; the responder acknowledges a packet (ACK or NACK) only once the host is done
 * with it. The time from the packet's arrival to its acknowledgement is echoed in the
 * ACK (RdmaHeader::remoteDelayNs, read by the requester as CcAck::remoteDelay): Swift's
 * endpoint delay.
 *
 * The host's queue is unbounded: a host slower than the data it is sent only delays the
 * acknowledgements (nothing is dropped, no pause is sent), so a controller that ignores
 * the endpoint delay lets that queue grow without bound.
 */
class HostRxModel : public Object
{
  public:
    static TypeId GetTypeId();
    HostRxModel();

    /**
     * A data packet arrived and the responder delivered \p bytes of it in order (0 for a
     * duplicate or out-of-order packet, which still waits its turn for its answer).
     * \param bytes payload delivered to the host by this packet
     * \param now its arrival time
     * \return when the host is done with it: the time its acknowledgement may leave
     */
    Time Admit(uint64_t bytes, Time now);

    /// \return packets admitted so far
    uint64_t GetPackets() const;
    /// \return the sum of every admitted packet's hold time (arrival to done)
    Time GetTotalDelay() const;
    /// \return the longest hold time so far
    Time GetMaxDelay() const;

    /// TracedCallback signature: the hold time of a packet (arrival to done).
    typedef void (*DelayTracedCallback)(Time delay);

  private:
    DataRate m_rate; ///< payload rate of the host; 0 = no limit
    Time m_delay;    ///< per-packet processing time after its payload is taken
    Time m_busyUntil;
    uint64_t m_packets;
    Time m_totalDelay;
    Time m_maxDelay;
    TracedCallback<Time> m_delayTrace;
};

} // namespace ns3

#endif /* RDMA_HOST_RX_MODEL_H */
