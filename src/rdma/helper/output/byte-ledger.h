/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_BYTE_LEDGER_H
#define RDMA_BYTE_LEDGER_H

#include "ns3/rdma-topology.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Byte conservation of a run, read at the end from counters the ports and switches keep
 * anyway (RdmaNetDevice::GetLedger, RdmaSwitch::PortStats::droppedByReason): every
 * non-PFC frame a NIC put on a wire must have been received by a NIC, dropped for a named
 * reason, or still be in flight, in a switch queue or on a wire. Nothing is traced per
 * frame, so it costs the run nothing.
 *
 * It is checked where a frame could vanish:
 * - each wire: what one end sent, minus what the other end received or lost to the link
 *   being down, is on the wire; under the fast core (RdmaSim::IsFastCore()) this must equal the
 * frames the channel holds in flight (counted independently, RdmaChannel::GetFramesInFlight);
 * - each switch: frames in, minus frames dequeued, dropped or discarded, must equal the
 *   bytes its ports' queues hold (RdmaNetDevice::GetQueueBytes, counted independently).
 *   A difference is reported as `unaccounted` at that switch: an uncounted drop.
 *
 * A frame a switch trimmed (PacketTrimmer) goes on as its header: the bytes cut off are
 * counted as `trimmed_away` (frames 0), so that sent = received + dropped + trimmed away
 * + in flight.
 *
 * Frame bytes exclude the INT records a switch adds at dequeue, so that a frame counts
 * the same going in and out. Data payload bytes (every transmission, retransmissions
 * included) are kept beside them.
 */
class ByteLedger
{
  public:
    explicit ByteLedger(RdmaTopology& topo);

    /// The conservation report (summary.json "conservation"); "balanced" is the check.
    nlohmann::json Report() const;

  private:
    RdmaTopology& m_topo;
};

} // namespace ns3

#endif /* RDMA_BYTE_LEDGER_H */
