/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-frame.h"

#include <new>
#include <vector>

namespace ns3
{

namespace
{
/// Freed frames' memory, reused by the next frames (the simulator is single-threaded).
std::vector<void*>&
FreeList()
{
    static std::vector<void*> list;
    return list;
}
} // namespace

RdmaFrame::RdmaFrame(const RdmaHeader& h)
    : header(h),
      m_size(h.GetSerializedSize() + h.payload + rdmawire::TrailerBytes(h.type))
{
}

Ptr<RdmaFrame>
RdmaFrame::FromPacket(Ptr<Packet> p)
{
    RdmaHeader h;
    p->PeekHeader(h);
    Ptr<RdmaFrame> f = Create<RdmaFrame>(h);
    f->m_size = p->GetSize();
    f->m_packet = std::move(p);
    return f;
}

Ptr<RdmaFrame>
RdmaFrame::Make(const RdmaHeader& h)
{
    return Create<RdmaFrame>(h);
}

Ptr<Packet>
RdmaFrame::GetPacket()
{
    if (!m_packet)
    {
        m_packet = CreateRdmaFrame(header);
    }
    return m_packet;
}

void
RdmaFrame::HeaderChanged(uint32_t oldHeaderBytes)
{
    m_size = m_size - oldHeaderBytes + header.GetSerializedSize();
    if (m_packet)
    {
        m_packet->RemoveAtStart(oldHeaderBytes);
        m_packet->AddHeader(header);
    }
}

void*
RdmaFrame::operator new(std::size_t size)
{
    std::vector<void*>& list = FreeList();
    if (size == sizeof(RdmaFrame) && !list.empty())
    {
        void* p = list.back();
        list.pop_back();
        return p;
    }
    return ::operator new(size);
}

void
RdmaFrame::operator delete(void* p, std::size_t size)
{
    if (size == sizeof(RdmaFrame))
    {
        FreeList().push_back(p);
        return;
    }
    ::operator delete(p);
}

} // namespace ns3
