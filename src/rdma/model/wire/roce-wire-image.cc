/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/roce-wire-image.h"

#include <algorithm>

namespace ns3
{
namespace rocewire
{

namespace
{
/// Appends big-endian fields to a byte vector.
class Writer
{
  public:
    explicit Writer(std::vector<uint8_t>& out)
        : m_out(out)
    {
    }

    void U8(uint8_t v)
    {
        m_out.push_back(v);
    }

    void U16(uint16_t v)
    {
        U8(v >> 8);
        U8(v & 0xff);
    }

    void U24(uint32_t v)
    {
        U8((v >> 16) & 0xff);
        U16(v & 0xffff);
    }

    void U32(uint32_t v)
    {
        U16(v >> 16);
        U16(v & 0xffff);
    }

    void U64(uint64_t v)
    {
        U32(static_cast<uint32_t>(v >> 32));
        U32(static_cast<uint32_t>(v));
    }

    void Mac(const Mac48Address& a)
    {
        uint8_t b[6];
        a.CopyTo(b);
        m_out.insert(m_out.end(), b, b + 6);
    }

    void Zeros(std::size_t n)
    {
        m_out.insert(m_out.end(), n, 0);
    }

  private:
    std::vector<uint8_t>& m_out;
};

/// The IPv4 header checksum of the 20 bytes at \p p (checksum field zero).
uint16_t
Ipv4Checksum(const uint8_t* p)
{
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
    {
        sum += (uint32_t(p[i]) << 8) | p[i + 1];
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

uint8_t
Opcode(const RdmaHeader& h)
{
    switch (h.type)
    {
    case RdmaPacketType::DATA: {
        // The packet's place in its message, as a NIC numbers a multi-packet SEND.
        const bool first = h.flags & RdmaHeader::FLAG_FIRST;
        const bool last = h.flags & RdmaHeader::FLAG_LAST;
        return first ? (last ? kOpSendOnly : kOpSendFirst) : (last ? kOpSendLast : kOpSendMiddle);
    }
    case RdmaPacketType::ACK:
    case RdmaPacketType::NACK:
        return kOpAcknowledge;
    case RdmaPacketType::CNP:
        return kOpCnp;
    default:
        return kOpSendOnly;
    }
}

void
RenderPfc(const RdmaHeader& h, const Mac48Address& src, std::vector<uint8_t>& out)
{
    Writer w(out);
    w.Mac(Mac48Address("01:80:c2:00:00:01"));
    w.Mac(src);
    w.U16(kEtherTypeMacControl);
    w.U16(kPfcOpcode);
    w.U16(uint16_t(1u << h.priority)); // class-enable vector
    for (uint32_t c = 0; c < kRdmaNumPriorities; ++c)
    {
        w.U16(c == h.priority ? h.quanta : 0);
    }
    out.resize(rdmawire::HeaderBytes(RdmaPacketType::PFC), 0);
}
} // namespace

uint32_t
NodeAddress(uint32_t node)
{
    return (10u << 24) + (node & 0xffffff);
}

void
Render(const RdmaHeader& h,
       uint32_t frameBytes,
       const Mac48Address& src,
       const Mac48Address& dst,
       std::vector<uint8_t>& out)
{
    out.clear();
    out.reserve(frameBytes);
    if (h.type == RdmaPacketType::PFC)
    {
        RenderPfc(h, src, out);
        return;
    }
    const uint32_t length = frameBytes - rdmawire::kFcs;
    const uint16_t ipLength = static_cast<uint16_t>(length - rdmawire::kEthernet);
    Writer w(out);
    w.Mac(dst);
    w.Mac(src);
    w.U16(kEtherTypeIpv4);
    // IPv4
    const std::size_t ip = out.size();
    w.U8(0x45);
    w.U8(static_cast<uint8_t>(((h.priority & 0x3f) << 2) | (h.ecn & 3)));
    w.U16(ipLength);
    w.U16(0);      // identification
    w.U16(0x4000); // DF
    w.U8(64);      // TTL
    w.U8(17);      // UDP
    w.U16(0);      // checksum, below
    w.U32(NodeAddress(h.src));
    w.U32(NodeAddress(h.dst));
    const uint16_t sum = Ipv4Checksum(out.data() + ip);
    out[ip + 10] = sum >> 8;
    out[ip + 11] = sum & 0xff;
    // UDP
    w.U16(h.sport);
    w.U16(h.dport);
    w.U16(static_cast<uint16_t>(ipLength - rdmawire::kIpv4));
    w.U16(0);
    // BTH
    w.U8(Opcode(h));
    w.U8(0); // SE, M, PadCnt, TVer
    w.U16(0xffff);
    // FECN, BECN: an ACK echoing a CE mark, and every CNP (RoCEv2 Annex A17 sets BECN).
    const bool becn = (h.flags & RdmaHeader::FLAG_ECN_ECHO) || h.type == RdmaPacketType::CNP;
    w.U8(becn ? kBthBecn : 0);
    w.U24(h.dstQpn & 0xffffff);
    uint8_t ackReq = (h.flags & RdmaHeader::FLAG_ACK_REQUEST) ? 0x80 : 0;
    ackReq |= (h.flags & RdmaHeader::FLAG_INT) ? kIntStackPresent : 0;
    ackReq |= (h.flags & RdmaHeader::FLAG_CNP) ? kBthCnpNack : 0;
    ackReq |= h.pintBytes != 0 ? kBthPintPresent : 0;
    w.U8(ackReq);
    w.U24(h.psn & 0xffffff);
    switch (h.type)
    {
    case RdmaPacketType::ACK:
        w.U8(kAethAck);
        w.U24(0);
        break;
    case RdmaPacketType::NACK:
        w.U8(kAethNakPsnSequenceError);
        w.U24(h.sackPsn & 0xffffff);
        break;
    case RdmaPacketType::CNP:
        w.Zeros(rdmawire::kCnpReserved);
        break;
    case RdmaPacketType::PROBE:
    case RdmaPacketType::PROBE_RESP:
        w.U64(h.timestamp);
        w.Zeros(rdmawire::kProbeBody - 8);
        break;
    default:
        break;
    }
    if (h.flags & RdmaHeader::FLAG_INT)
    {
        w.U16(h.intHops);
        for (uint32_t i = 0; i < h.intHops; ++i)
        {
            w.U64(h.intStack[i]);
        }
    }
    // PINT's value, big-endian in its ceil(bits / 8) bytes, after the INT stack if any.
    for (uint32_t i = h.pintBytes; i > 0; --i)
    {
        w.U8(static_cast<uint8_t>(h.pintCode >> (8 * (i - 1))));
    }
    // Payload (zeros) and ICRC (zero).
    out.resize(std::max<std::size_t>(length, out.size()), 0);
}

Ptr<Packet>
MakePacket(const RdmaHeader& h,
           uint32_t frameBytes,
           const Mac48Address& src,
           const Mac48Address& dst)
{
    std::vector<uint8_t> bytes;
    Render(h, frameBytes, src, dst, bytes);
    return Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

} // namespace rocewire
} // namespace ns3
