/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HEADER_H
#define RDMA_HEADER_H

#include "ns3/header.h"
#include "ns3/packet.h"
#include "ns3/rdma-wire.h"

#include <array>

namespace ns3
{

/**
 * \ingroup rdma
 * The header stack of a RoCEv2 frame (Ethernet + IPv4 + UDP + BTH [+ AETH]) or of a
 * PFC frame, modelled as one ns-3 Header.
 *
 * Only the fields the model reads are kept; GetSerializedSize() returns the real
 * size of the header stack for the frame type (rdmawire::HeaderBytes), so that
 * Packet::GetSize() of a frame is its real Ethernet frame size once the payload and the
 * trailer (ICRC + FCS) are in the packet. Node ids stand in for IP addresses.
 */
class RdmaHeader : public Header
{
  public:
    /// ECN codepoint of the IPv4 header.
    enum Ecn : uint8_t
    {
        NOT_ECT = 0,
        ECT1 = 1,
        ECT0 = 2,
        CE = 3,
    };

    /// BTH/AETH flags.
    enum Flag : uint8_t
    {
        FLAG_ACK_REQUEST = 1, ///< receiver must acknowledge this packet now
        FLAG_LAST = 2,        ///< last packet of a message
        FLAG_INT = 4,         ///< carries an INT stack (2 + 8 bytes per hop on the wire)
        FLAG_ECN_ECHO = 8,    ///< ACK: the acknowledged packet was CE-marked
        FLAG_CNP = 16,        ///< NACK: also a congestion notification (CNP on reordering)
        /// DATA: first packet of a message. Read only by the wire image (its BTH opcode,
        /// SEND First or Only): a bit of the existing flags byte, so no frame grows.
        FLAG_FIRST = 32,
        /// DATA: a switch cut the payload off (packet trimming, PacketTrimmer): only the
        /// header is left, the receiver NACKs its PSN. NACK: answers such a packet; its
        /// sackPsn is the PSN to resend.
        FLAG_TRIMMED = 64,
    };

    RdmaHeader();

    /// Every field back to its default, as constructed (a recycled frame's header).
    void Reset();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    // Ordered to leave little padding (104 bytes with the vtable pointer), so that an
    // RdmaFrame is two cache lines.
    RdmaPacketType type;
    uint8_t priority; ///< 802.1p class (or DSCP-mapped class) the frame travels in
    uint8_t ecn;      ///< Ecn codepoint
    uint8_t flags;    ///< Flag bits
    uint8_t intHops;  ///< INT records in intStack (FLAG_INT)
    /// DATA/ACK: bytes of the PINT value (pintCode) on the wire, ceil(bits / 8); 0 = the
    /// frame carries none (PintCode)
    uint8_t pintBytes;
    uint16_t sport;   ///< UDP source port: per-QP entropy for ECMP
    uint16_t dport;   ///< UDP destination port (4791)
    uint16_t quanta;  ///< PFC: pause time in 512-bit-time quanta (0 = resume)
    uint32_t src;     ///< source node id (IP source)
    uint32_t dst;     ///< destination node id (IP destination)
    uint32_t dstQpn;  ///< destination queue pair number (BTH)
    uint32_t psn;     ///< DATA: packet sequence number; ACK/NACK: acknowledged/expected PSN
    uint32_t payload; ///< DATA: payload bytes in this packet
    uint32_t sackPsn; ///< selective-repeat NACK: the PSN that arrived out of order
    /// ACK/NACK: how long the responder's host held the packet before this answer (ns;
    /// HostRxModel, 0 without one). Not a RoCEv2 field: Swift's NIC timestamps, modelled
    /// in the header's room, so no frame grows (docs/pcap.md).
    uint32_t remoteDelayNs;
    uint64_t timestamp; ///< DATA/PROBE: send time (ns); ACK/NACK/PROBE_RESP: its echo
    std::array<uint64_t, rdmawire::kMaxIntHops> intStack; ///< packed IntHop records
    /// DATA: the largest PintCode of the path's egresses so far; ACK: its echo
    uint16_t pintCode;
    /// ACK/NACK: the UDP source port (entropy) of the data packet answered, so that the
    /// sender learns which path the news is about (Ultra Ethernet's echoed entropy,
    /// PathSelector). In the padding after pintCode: no frame grows.
    uint16_t echoSport;

    /// Push one INT record (ignored beyond kMaxIntHops, as a real INT domain would).
    void AppendIntHop(uint64_t packed);
};

/**
 * A frame carrying \p header: the header stack, header.payload bytes of (virtual) payload
 * and the trailer. Its GetSize() is the Ethernet frame size.
 */
Ptr<Packet> CreateRdmaFrame(const RdmaHeader& header);

} // namespace ns3

#endif /* RDMA_HEADER_H */
