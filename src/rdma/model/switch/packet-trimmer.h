/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PACKET_TRIMMER_H
#define RDMA_PACKET_TRIMMER_H

#include "ns3/object.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-wire.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Packet trimming, as Ultra Ethernet switches do it (and htsim's CompositeQueue): a
 * DATA frame the switch's MMU refuses is not dropped but cut to its header, which is
 * queued in a high-priority class (by default the control class, where ACKs and NACKs
 * travel at strict priority) and carries FLAG_TRIMMED; the receiver NACKs its PSN and
 * the sender resends it, a round trip after the congestion instead of a timeout later.
 *
 * The rule only: RdmaSwitch asks it when its MMU refuses a frame, admits the header
 * through the MMU at the trim class, and counts and traces the trim ("Trim"); a header
 * that does not fit either is dropped (DropReason::TRIM_HEADER_OVERFLOW). One instance
 * may serve every switch: it keeps no state besides its attributes.
 */
class PacketTrimmer : public Object
{
  public:
    /// The smallest trimmed frame: a DATA frame's header stack and trailer, no payload.
    static constexpr uint32_t kMinBytes = rdmawire::FrameBytes(RdmaPacketType::DATA, 0);

    static TypeId GetTypeId();
    PacketTrimmer();

    /// Whether a refused frame with header \p h may be trimmed: DATA, not trimmed yet
    /// (ACK, NACK, CNP, probes and PFC frames never are).
    static bool IsTrimmable(const RdmaHeader& h)
    {
        return h.type == RdmaPacketType::DATA && !(h.flags & RdmaHeader::FLAG_TRIMMED);
    }

    /// Size of the frame \p h would be trimmed to (bytes): TrimmedBytes, or less for a
    /// frame whose payload is already shorter than what a trimmed frame keeps.
    uint32_t TrimmedSize(const RdmaHeader& h) const;
    /// The class trimmed headers are queued in.
    uint8_t GetPriority() const;
    /**
     * Cut header \p h to a trimmed frame's: FLAG_TRIMMED set, the payload cut to what
     * TrimmedBytes leaves after the header (the padding of a minimum-size frame), INT
     * records and the PINT value removed, the class set to Priority. PSN, QP, ECN and
     * timestamp stay. The frame's size and bytes follow with RdmaFrame::PayloadChanged.
     */
    void Trim(RdmaHeader& h) const;

  private:
    uint32_t m_bytes;
    uint8_t m_priority;
};

} // namespace ns3

#endif /* RDMA_PACKET_TRIMMER_H */
