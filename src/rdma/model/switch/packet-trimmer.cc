/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/packet-trimmer.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PacketTrimmer");
NS_OBJECT_ENSURE_REGISTERED(PacketTrimmer);

TypeId
PacketTrimmer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PacketTrimmer")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<PacketTrimmer>()
            .AddAttribute("TrimmedBytes",
                          "Size of a trimmed frame (bytes, Ethernet to FCS; default 64 as "
                          "htsim's trimsize). At least the DATA header stack and trailer (62).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&PacketTrimmer::m_bytes),
                          MakeUintegerChecker<uint32_t>(kMinBytes, 65535))
            .AddAttribute("Priority",
                          "Class the trimmed headers are queued in (default 7, the module's "
                          "default control class: strict priority, as ACKs).",
                          UintegerValue(7),
                          MakeUintegerAccessor(&PacketTrimmer::m_priority),
                          MakeUintegerChecker<uint8_t>(0, kRdmaNumPriorities - 1));
    return tid;
}

PacketTrimmer::PacketTrimmer()
    : m_bytes(64),
      m_priority(7)
{
}

uint32_t
PacketTrimmer::TrimmedSize(const RdmaHeader& h) const
{
    return kMinBytes + std::min(h.payload, m_bytes - kMinBytes);
}

uint8_t
PacketTrimmer::GetPriority() const
{
    return m_priority;
}

void
PacketTrimmer::Trim(RdmaHeader& h) const
{
    NS_LOG_FUNCTION(this << h.src << h.dstQpn << h.psn);
    h.flags = (h.flags | RdmaHeader::FLAG_TRIMMED) & ~RdmaHeader::FLAG_INT;
    h.intHops = 0;
    h.pintBytes = 0;
    h.pintCode = 0;
    h.payload = std::min(h.payload, m_bytes - kMinBytes);
    h.priority = m_priority;
}

} // namespace ns3
