/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FRAME_H
#define RDMA_FRAME_H

#include "ns3/ns3-compat.h"
#include "ns3/packet.h"
#include "ns3/rdma-header.h"
#include "ns3/simple-ref-count.h"

#include <vector>

namespace ns3
{

class RdmaFrame;

/// What happens to a frame nobody holds any more: it goes, constructed, to the recycled
/// frames, which RdmaFrame's makers reuse (no header constructed and destroyed through
/// ns-3's Header and ObjectBase per frame).
struct RdmaFrameRecycler
{
    static void Delete(RdmaFrame* f);
};

/**
 * \ingroup rdma
 * \brief A frame on its way through the fabric: its RdmaHeader, parsed once when the
 * frame is made, and its ns-3 Packet (the bytes), built only when someone asks for it.
 *
 * Ports, links and switches hand a frame on by pointer, so the header is neither
 * copied nor parsed again at each hop. The header is the truth: the model reads and
 * edits only it. The Packet is for trace sinks and callbacks that take one: GetPacket
 * builds it from the header the first time (so it holds exactly the bytes on the wire),
 * and a frame made from a Packet keeps that Packet. Whoever edits the header of a frame
 * (a switch marking ECN or stamping INT) calls HeaderChanged, which rewrites the Packet
 * if it exists. Frames are recycled through a free list: making one allocates nothing
 * once the free list has filled, and a frame no sink looks at never allocates a Packet.
 * A frame nobody holds is kept constructed (RdmaFrameRecycler) and made blank again
 * (RdmaHeader::Reset) when it is reused.
 *
 * A frame is two aligned cache lines, the reference count, size and header fields that
 * every hop reads in the first (the INT records and the Packet in the second). Frames
 * come from slabs of 64-byte-aligned slots.
 */
class alignas(64) RdmaFrame final
    : public SimpleRefCount<RdmaFrame, compat::Empty, RdmaFrameRecycler>
{
    uint32_t m_size; ///< frame bytes (first: beside the reference count)

  public:
    /// Cache lines a frame spans (all of them are loaded ahead of its arrival).
    static constexpr uint32_t kLines = 2;

    /// A frame with header \p h and no Packet yet (a payload of h.payload bytes).
    explicit RdmaFrame(const RdmaHeader& h);

    /// A frame of packet \p p, its header parsed from the bytes.
    static Ptr<RdmaFrame> FromPacket(Ptr<Packet> p);

    /// A new frame for header \p h (its Packet built on demand).
    static Ptr<RdmaFrame> Make(const RdmaHeader& h);
    /// The header's wire bytes (what a frame crossing to another MPI rank carries: its
    /// payload is virtual), appended to \p out.
    void AppendHeaderBytes(std::vector<uint8_t>& out) const;
    /// The frame whose header's wire bytes are the \p size bytes \p bytes.
    static Ptr<RdmaFrame> FromHeaderBytes(const uint8_t* bytes, uint32_t size);

    /// A frame with a default header and no size yet: see MakeBlank.
    RdmaFrame();

    /**
     * A new frame with a default header, for its maker to fill in place (no header
     * built and copied per frame, which costs a Header's construction and destruction
     * through ns-3's ObjectBase); the maker then calls Sized(). Until then GetSize() is 0.
     */
    static Ptr<RdmaFrame> MakeBlank();

    /// The size, from the header filled in place (after MakeBlank).
    void Sized();

    /// Frame bytes (Ethernet to FCS), as on the wire without preamble and gap.
    uint32_t GetSize() const
    {
        return m_size;
    }

    /// The frame as an ns-3 Packet (built from the header on first use).
    Ptr<Packet> GetPacket();

    /// The header was edited; \p oldHeaderBytes is the size it had before.
    void HeaderChanged(uint32_t oldHeaderBytes);

    /// The header's payload (and maybe its size) was edited (a switch trimmed the frame):
    /// the size follows the header again, and the Packet is built anew when asked for.
    void PayloadChanged();

    /// An unused slot (from slabs of aligned slots). Frames nobody holds are recycled
    /// constructed (RdmaFrameRecycler), so this runs only when none is left to reuse.
    static void* operator new(std::size_t size);
    /// The slot back to the unused ones (a frame destroyed rather than recycled).
    static void operator delete(void* p);

    RdmaHeader header; ///< the parsed header: the truth
    uint32_t meta = 0; ///< what its current holder tags it with while it is queued

  private:
    friend struct RdmaFrameRecycler;

    /// A recycled frame as a blank one (MakeBlank's state), or null if there is none.
    static RdmaFrame* Reuse();

    Ptr<Packet> m_packet; ///< the bytes, if anyone asked for them
};

static_assert(sizeof(RdmaFrame) == RdmaFrame::kLines * 64,
              "a frame is RdmaFrame::kLines whole cache lines");

/**
 * \ingroup rdma
 * \brief A running count of frames for byte conservation (ByteLedger): frames, their
 * bytes without INT records (which grow on the way, so a frame counts the same at every
 * hop), the DATA payload bytes among them, and their bytes as they are (`raw`, as queues
 * count them).
 */
struct FrameTally
{
    uint64_t frames = 0;
    uint64_t bytes = 0;
    uint64_t dataPayload = 0;
    uint64_t raw = 0;

    /// Count \p f, whose size as counted by its queue is \p rawBytes.
    void Add(const RdmaFrame& f, uint32_t rawBytes)
    {
        // Computed as data, not branched on: DATA and ACK frames alternate on most ports,
        // a pattern a branch predictor keeps getting wrong.
        const RdmaHeader& h = f.header;
        const uint32_t hasInt = (h.flags & RdmaHeader::FLAG_INT) != 0;
        const uint32_t isData = h.type == RdmaPacketType::DATA;
        ++frames;
        bytes += f.GetSize() - hasInt * h.intHops * rdmawire::kIntHop;
        dataPayload += isData * h.payload;
        raw += rawBytes;
    }

    void Add(const FrameTally& t)
    {
        frames += t.frames;
        bytes += t.bytes;
        dataPayload += t.dataPayload;
        raw += t.raw;
    }

    void Sub(const FrameTally& t)
    {
        frames -= t.frames;
        bytes -= t.bytes;
        dataPayload -= t.dataPayload;
        raw -= t.raw;
    }
};

} // namespace ns3

#endif /* RDMA_FRAME_H */
