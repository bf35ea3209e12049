/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaHeader);

namespace
{
/// Bytes the model's fields take; the rest of the real header size is padding.
constexpr uint32_t kFieldBytes =
    1 + 1 + 1 + 1 + 4 + 4 + 2 + 2 + 4 + 4 + 4 + 2 + 8 + 4 + 4 + 1 + 1 + 2;
static_assert(kFieldBytes <= rdmawire::HeaderBytes(RdmaPacketType::DATA),
              "model fields must fit in the smallest real header stack");
} // namespace

RdmaHeader::RdmaHeader()
{
    Reset();
}

void
RdmaHeader::Reset()
{
    type = RdmaPacketType::DATA;
    priority = 0;
    ecn = NOT_ECT;
    flags = 0;
    intHops = 0;
    pintBytes = 0;
    sport = 0;
    dport = rdmawire::kRoceUdpPort;
    quanta = 0;
    src = 0;
    dst = 0;
    dstQpn = 0;
    psn = 0;
    payload = 0;
    sackPsn = 0;
    remoteDelayNs = 0;
    timestamp = 0;
    intStack.fill(0);
    pintCode = 0;
    echoSport = 0;
}

void
RdmaHeader::AppendIntHop(uint64_t packed)
{
    if (intHops < rdmawire::kMaxIntHops)
    {
        intStack[intHops++] = packed;
    }
}

TypeId
RdmaHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaHeader>();
    return tid;
}

TypeId
RdmaHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RdmaHeader::GetSerializedSize() const
{
    const uint32_t intBytes =
        (flags & FLAG_INT) ? rdmawire::kIntHeader + rdmawire::kIntHop * intHops : 0;
    return rdmawire::HeaderBytes(type) + intBytes + pintBytes;
}

void
RdmaHeader::Serialize(Buffer::Iterator it) const
{
    it.WriteU8(static_cast<uint8_t>(type));
    it.WriteU8(priority);
    it.WriteU8(ecn);
    it.WriteU8(flags);
    it.WriteU32(src);
    it.WriteU32(dst);
    it.WriteU16(sport);
    it.WriteU16(dport);
    it.WriteU32(dstQpn);
    it.WriteU32(psn);
    it.WriteU32(payload);
    it.WriteU16(quanta);
    it.WriteU64(timestamp);
    it.WriteU32(sackPsn);
    it.WriteU32(remoteDelayNs);
    it.WriteU8(intHops);
    it.WriteU8(pintBytes);
    it.WriteU16(echoSport);
    it.WriteU8(0, rdmawire::HeaderBytes(type) - kFieldBytes);
    if (flags & FLAG_INT)
    {
        it.WriteU16(intHops);
        for (uint32_t i = 0; i < intHops; ++i)
        {
            it.WriteU64(intStack[i]);
        }
    }
    // The PINT value, big-endian in its ceil(bits / 8) bytes.
    for (uint32_t i = pintBytes; i > 0; --i)
    {
        it.WriteU8(static_cast<uint8_t>(pintCode >> (8 * (i - 1))));
    }
}

uint32_t
RdmaHeader::Deserialize(Buffer::Iterator it)
{
    type = static_cast<RdmaPacketType>(it.ReadU8());
    priority = it.ReadU8();
    ecn = it.ReadU8();
    flags = it.ReadU8();
    src = it.ReadU32();
    dst = it.ReadU32();
    sport = it.ReadU16();
    dport = it.ReadU16();
    dstQpn = it.ReadU32();
    psn = it.ReadU32();
    payload = it.ReadU32();
    quanta = it.ReadU16();
    timestamp = it.ReadU64();
    sackPsn = it.ReadU32();
    remoteDelayNs = it.ReadU32();
    intHops = it.ReadU8();
    pintBytes = it.ReadU8();
    echoSport = it.ReadU16();
    it.Next(rdmawire::HeaderBytes(type) - kFieldBytes);
    if (flags & FLAG_INT)
    {
        it.ReadU16();
        for (uint32_t i = 0; i < intHops; ++i)
        {
            intStack[i] = it.ReadU64();
        }
    }
    pintCode = 0;
    for (uint32_t i = 0; i < pintBytes; ++i)
    {
        pintCode = static_cast<uint16_t>((pintCode << 8) | it.ReadU8());
    }
    return GetSerializedSize();
}

Ptr<Packet>
CreateRdmaFrame(const RdmaHeader& header)
{
    Ptr<Packet> p = Create<Packet>(header.payload + rdmawire::TrailerBytes(header.type));
    p->AddHeader(header);
    return p;
}

void
RdmaHeader::Print(std::ostream& os) const
{
    static const char* names[] = {"DATA", "ACK", "NACK", "CNP", "PFC", "PROBE", "PROBE_RESP"};
    os << names[static_cast<uint8_t>(type)] << " prio=" << +priority << " ecn=" << +ecn << " "
       << src << ":" << sport << "->" << dst << ":" << dport << " qpn=" << dstQpn << " psn=" << psn
       << " payload=" << payload;
    if (type == RdmaPacketType::PFC)
    {
        os << " quanta=" << quanta;
    }
}

} // namespace ns3
