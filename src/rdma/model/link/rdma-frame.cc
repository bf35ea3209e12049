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
/// Unused frame slots, carved from slabs (the simulator is single-threaded). A frame
/// nobody holds goes to Recycled(), still constructed, not back here: a slot returns
/// only through operator delete (a frame destroyed otherwise, e.g. a constructor that
/// threw).
std::vector<void*>&
FreeList()
{
    static std::vector<void*> list;
    return list;
}

/// Frames nobody holds, still constructed (RdmaFrameRecycler), reused first.
std::vector<RdmaFrame*>&
Recycled()
{
    static std::vector<RdmaFrame*> list;
    return list;
}
} // namespace

static_assert(sizeof(RdmaFrame) == 128, "an RdmaFrame is two cache lines");

void
RdmaFrameRecycler::Delete(RdmaFrame* f)
{
    f->m_packet = nullptr;
    Recycled().push_back(f);
}

RdmaFrame*
RdmaFrame::Reuse()
{
    std::vector<RdmaFrame*>& list = Recycled();
    if (list.empty())
    {
        return nullptr;
    }
    RdmaFrame* f = list.back();
    list.pop_back();
    f->Ref(); // from 0, as a new frame's 1 (the Ptr made of it takes it over)
    f->m_size = 0;
    f->meta = 0;
    f->header.Reset();
    return f;
}

RdmaFrame::RdmaFrame(const RdmaHeader& h)
    : header(h)
{
    Sized();
}

RdmaFrame::RdmaFrame()
    : m_size(0)
{
}

Ptr<RdmaFrame>
RdmaFrame::MakeBlank()
{
    if (RdmaFrame* f = Reuse())
    {
        return Ptr<RdmaFrame>(f, false);
    }
    return Create<RdmaFrame>();
}

void
RdmaFrame::Sized()
{
    m_size = header.GetSerializedSize() + header.payload + rdmawire::TrailerBytes(header.type);
}

Ptr<RdmaFrame>
RdmaFrame::FromPacket(Ptr<Packet> p)
{
    Ptr<RdmaFrame> f = MakeBlank();
    p->PeekHeader(f->header);
    f->m_size = p->GetSize();
    f->m_packet = std::move(p);
    return f;
}

Ptr<RdmaFrame>
RdmaFrame::Make(const RdmaHeader& h)
{
    Ptr<RdmaFrame> f = MakeBlank();
    f->header = h;
    f->Sized();
    return f;
}

void
RdmaFrame::AppendHeaderBytes(std::vector<uint8_t>& out) const
{
    const uint32_t n = header.GetSerializedSize();
    Buffer wire;
    wire.AddAtStart(n);
    header.Serialize(wire.Begin());
    const std::size_t at = out.size();
    out.resize(at + n);
    wire.CopyData(out.data() + at, n);
}

Ptr<RdmaFrame>
RdmaFrame::FromHeaderBytes(const uint8_t* bytes, uint32_t size)
{
    Buffer wire;
    wire.AddAtStart(size);
    wire.Begin().Write(bytes, size);
    Ptr<RdmaFrame> f = MakeBlank();
    f->header.Deserialize(wire.Begin());
    f->Sized();
    return f;
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
RdmaFrame::PayloadChanged()
{
    Sized();
    m_packet = nullptr;
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
RdmaFrame::operator new(std::size_t /* size: sizeof(RdmaFrame), the class is final */)
{
    std::vector<void*>& list = FreeList();
    if (list.empty())
    {
        // A slab of aligned slots, never returned (its slots are reused): the first
        // frames made come first in memory.
        constexpr std::size_t kSlots = 512;
        auto* slab = static_cast<char*>(
            ::operator new (kSlots * sizeof(RdmaFrame), std::align_val_t{alignof(RdmaFrame)}));
        for (std::size_t i = kSlots; i-- > 0;)
        {
            list.push_back(slab + i * sizeof(RdmaFrame));
        }
    }
    void* p = list.back();
    list.pop_back();
    return p;
}

void
RdmaFrame::operator delete(void* p)
{
    FreeList().push_back(p);
}

} // namespace ns3
