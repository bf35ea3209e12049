/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaSwitch, packet trimming: a refused DATA frame goes on as its header
 * (PacketTrimmer), counted per egress port and traced ("Trim").
 */
#include "ns3/log.h"
#include "ns3/rdma-switch.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwitchTrim");

bool
RdmaSwitch::TrimRefused(RdmaFrame& f, uint32_t inPort, uint32_t outPort, DropReason& why)
{
    RdmaHeader& h = f.header;
    if (!PacketTrimmer::IsTrimmable(h))
    {
        return false;
    }
    // The header must fit in its own class's queue, or the frame is dropped whole.
    const uint8_t cls = m_trimmer->GetPriority();
    DropReason headerWhy;
    if (!m_mmu->Admit(inPort, outPort, cls, m_trimmer->TrimmedSize(h), &headerWhy))
    {
        NS_LOG_LOGIC("trimmed header refused at port " << outPort << " ("
                                                       << DropReasonName(headerWhy) << ")");
        why = DropReason::TRIM_HEADER_OVERFLOW;
        return false;
    }
    FrameTally cut;
    cut.Add(f, f.GetSize());
    m_trimmer->Trim(h);
    f.PayloadChanged();
    FrameTally kept;
    kept.Add(f, f.GetSize());
    cut.Sub(kept); // frames: 0 (the frame goes on)
    PortStats& s = m_stats[outPort];
    ++s.trims;
    ++s.trimsByReason[static_cast<std::size_t>(why)];
    s.trimmedAway.Add(cut);
    if (!m_trimTrace.IsEmpty())
    {
        m_trimTrace(f.GetPacket(), inPort, outPort, DropReasonName(why));
    }
    return true;
}

} // namespace ns3
