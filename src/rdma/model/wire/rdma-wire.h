/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Sizes of RoCEv2 frames as they appear on an Ethernet link.
 */
#ifndef RDMA_WIRE_H
#define RDMA_WIRE_H

#include <cstdint>

namespace ns3
{

/// Kinds of frames the module puts on a link.
enum class RdmaPacketType : uint8_t
{
    DATA = 0,       ///< RC SEND/WRITE segment (BTH + payload)
    ACK = 1,        ///< RC acknowledgement (BTH + AETH)
    NACK = 2,       ///< RC PSN-sequence-error NAK (BTH + AETH)
    CNP = 3,        ///< RoCEv2 congestion notification packet
    PFC = 4,        ///< IEEE 802.1Qbb priority flow control frame
    PROBE = 5,      ///< RTT probe request (travels in a data class)
    PROBE_RESP = 6, ///< RTT probe response (control class by default)
};

/// Number of priority classes of a port (IEEE 802.1p).
constexpr uint32_t kRdmaNumPriorities = 8;

/**
 * Header and trailer sizes (bytes) of a RoCEv2 frame (docs/design.md, "Wire format").
 * A data frame is Eth 14 + IPv4 20 + UDP 8 + BTH 12 + payload + ICRC 4 + FCS 4, and
 * occupies 20 more bytes of link time (preamble 7, SFD 1, inter-frame gap 12).
 */
namespace rdmawire
{
constexpr uint32_t kEthernet = 14;
constexpr uint32_t kIpv4 = 20;
constexpr uint32_t kUdp = 8;
constexpr uint32_t kBth = 12;
constexpr uint32_t kAeth = 4;         ///< ACK extended transport header (ACK/NAK)
constexpr uint32_t kCnpReserved = 16; ///< CNP body after the BTH
constexpr uint32_t kProbeBody = 16;   ///< RTT probe body: two 8-byte timestamps
constexpr uint32_t kIntHeader = 2;    ///< INT metadata header (hop count, flags)
constexpr uint32_t kIntHop = 8;       ///< one INT hop record (HPCC layout)
constexpr uint32_t kMaxIntHops = 5;
constexpr uint32_t kIcrc = 4;
constexpr uint32_t kFcs = 4;
constexpr uint32_t kPreambleAndIfg = 20;
constexpr uint32_t kMinEthernetFrame = 64; ///< includes FCS; PFC frames have this size
constexpr uint16_t kRoceUdpPort = 4791;
/// PFC (IEEE 802.1Qbb): a pause quantum is 512 bit times, 64 bytes at the port's rate.
constexpr uint32_t kPfcQuantumBytes = 64;

/// Bytes before the payload of a RoCEv2 frame of this type (the header stack).
constexpr uint32_t
HeaderBytes(RdmaPacketType type)
{
    switch (type)
    {
    case RdmaPacketType::DATA:
        return kEthernet + kIpv4 + kUdp + kBth;
    case RdmaPacketType::ACK:
    case RdmaPacketType::NACK:
        return kEthernet + kIpv4 + kUdp + kBth + kAeth;
    case RdmaPacketType::CNP:
        return kEthernet + kIpv4 + kUdp + kBth + kCnpReserved;
    case RdmaPacketType::PROBE:
    case RdmaPacketType::PROBE_RESP:
        return kEthernet + kIpv4 + kUdp + kBth + kProbeBody;
    case RdmaPacketType::PFC:
        return kMinEthernetFrame - kFcs;
    }
    return 0;
}

/// Bytes after the payload (ICRC for RoCE frames, always the FCS).
constexpr uint32_t
TrailerBytes(RdmaPacketType type)
{
    return type == RdmaPacketType::PFC ? kFcs : kIcrc + kFcs;
}

/// Ethernet frame size (destination MAC through FCS).
constexpr uint32_t
FrameBytes(RdmaPacketType type, uint32_t payload)
{
    return HeaderBytes(type) + payload + TrailerBytes(type);
}

/// Link occupancy of a frame, including preamble and inter-frame gap.
constexpr uint32_t
WireBytes(RdmaPacketType type, uint32_t payload)
{
    return FrameBytes(type, payload) + kPreambleAndIfg;
}

/// Link occupancy added to each payload byte count by one data packet.
constexpr uint32_t kDataOverheadBytes = WireBytes(RdmaPacketType::DATA, 0);

} // namespace rdmawire
} // namespace ns3

#endif /* RDMA_WIRE_H */
