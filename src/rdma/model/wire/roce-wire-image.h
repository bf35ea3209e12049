/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ROCE_WIRE_IMAGE_H
#define RDMA_ROCE_WIRE_IMAGE_H

#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/rdma-header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The bytes a frame would have on a real RoCEv2 link, for packet captures (pcap,
 * Wireshark). RdmaHeader's own serialization is the model's compact form; this is the
 * standard one, written only when a capture asks for it:
 *
 * - Ethernet II: the sending and receiving ports' MAC addresses, EtherType 0x0800;
 * - IPv4: DSCP = the frame's priority class, ECN = its codepoint (CE marks included),
 *   TTL 64, DF, a valid header checksum; node n is the address 10.0.0.0 + n;
 * - UDP: source port = the QP's entropy port, destination port 4791, checksum 0;
 * - BTH (12 bytes): for DATA, the packet's place in its message: RC SEND first (0x00,
 *   FLAG_FIRST), middle (0x01), last (0x02, FLAG_LAST) or only (0x04, both); RC
 *   ACKNOWLEDGE (0x11) for ACK and NACK, CNP (0x81), RC SEND only (0x04) for RTT probes
 *   and their responses; P_Key 0xffff; destination QP and PSN (24 bits each);
 *   AckReq = FLAG_ACK_REQUEST; BECN = FLAG_ECN_ECHO (an ACK of a CE-marked packet) and
 *   on every CNP;
 * - AETH (ACK, NACK): syndrome 0x1f (ACK) or 0x60 (NAK: PSN sequence error); the MSN
 *   field carries the selective-repeat NACK's out-of-order PSN (sackPsn);
 * - CNP: 16 reserved bytes; probes: the 8-byte send timestamp and 8 zero bytes;
 * - payload: zero bytes; then the 4-byte ICRC (written as zero: not computed);
 * - PFC (IEEE 802.1Qbb): destination 01:80:c2:00:00:01, EtherType 0x8808 (MAC control),
 *   opcode 0x0101, class-enable vector with the frame's class, eight per-class pause
 *   times (quanta of 512 bit times; 0 = resume), zero padding to 60 bytes.
 *
 * The frame check sequence is not written (as in captures of Ethernet interfaces), so
 * a capture's frame length is the model's frame size minus 4.
 *
 * INT (HPCC's in-band telemetry; no standard layout, an extension of this module): when
 * FLAG_INT is set, bit 0 of the BTH's reserved byte after AckReq (byte 8) is set and the
 * INT stack follows the BTH (and the AETH of an ACK): a 2-byte hop count, then one
 * 8-byte record per hop (IntHop's packing), before the payload. A NACK that also acts as
 * a CNP (FLAG_CNP) sets bit 1 of the same byte. Model-only fields (a DATA frame's send
 * timestamp and its echo in ACKs) are not in the image.
 */
namespace rocewire
{
constexpr uint16_t kEtherTypeIpv4 = 0x0800;
constexpr uint16_t kEtherTypeMacControl = 0x8808;
constexpr uint16_t kPfcOpcode = 0x0101;
constexpr uint8_t kOpSendFirst = 0x00;
constexpr uint8_t kOpSendMiddle = 0x01;
constexpr uint8_t kOpSendLast = 0x02;
constexpr uint8_t kOpSendOnly = 0x04;
constexpr uint8_t kOpAcknowledge = 0x11;
constexpr uint8_t kOpCnp = 0x81;
constexpr uint8_t kAethAck = 0x1f;
constexpr uint8_t kAethNakPsnSequenceError = 0x60;
constexpr uint8_t kBthBecn = 0x40;         ///< in BTH byte 4 (FECN 0x80, BECN 0x40)
constexpr uint8_t kIntStackPresent = 0x01; ///< in BTH byte 8 (reserved bits)
constexpr uint8_t kBthCnpNack = 0x02;      ///< in BTH byte 8 (reserved bits)
/// in BTH byte 8 (reserved bits): PINT's value follows the headers (and any INT stack)
constexpr uint8_t kBthPintPresent = 0x04;

/// The IPv4 address (host byte order) standing for node \p node: 10.0.0.0 + node.
uint32_t NodeAddress(uint32_t node);

/**
 * Write the frame of header \p h into \p out (replacing its content): \p frameBytes is
 * the model's frame size (RdmaFrame::GetSize(), FCS included), \p src and \p dst the
 * MAC addresses of the sending and the receiving port (\p dst is ignored for PFC).
 * out.size() is frameBytes - 4.
 */
void Render(const RdmaHeader& h,
            uint32_t frameBytes,
            const Mac48Address& src,
            const Mac48Address& dst,
            std::vector<uint8_t>& out);

/// The same bytes as a Packet (for trace sinks such as PcapHelper::DefaultSink).
Ptr<Packet> MakePacket(const RdmaHeader& h,
                       uint32_t frameBytes,
                       const Mac48Address& src,
                       const Mac48Address& dst);
} // namespace rocewire

} // namespace ns3

#endif /* RDMA_ROCE_WIRE_IMAGE_H */
