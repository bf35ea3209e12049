/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PORT_OWNER_H
#define RDMA_PORT_OWNER_H

#include "ns3/ptr.h"
#include "ns3/rdma-frame.h"

namespace ns3
{

class RdmaNetDevice;

/**
 * \ingroup rdma
 * \brief Where a port's owner keeps the state that a frame addressed to one of its queue
 * pairs reads first, so that a link can have it loaded into the cache before the frame
 * arrives (a NIC: its receive QPs for DATA, its send QPs for the answers). Two tables
 * indexed by RdmaHeader::dstQpn. Only addresses: nothing is read through them, so a hint
 * taken for a frame in flight before its table moved (a QP added mid-run) costs one
 * useless load and changes nothing else.
 */
struct RdmaArrivalHints
{
    const char* data = nullptr;    ///< DATA frames: the entry of QP n is at data + n * dataStride
    uint32_t dataCount = 0;        ///< entries in `data`
    uint32_t dataStride = 0;       ///< bytes per entry of `data`
    const char* answers = nullptr; ///< ACK, NACK, CNP and probe answers, likewise
    uint32_t answerCount = 0;      ///< entries in `answers`
    uint32_t answerStride = 0;     ///< bytes per entry of `answers`

    /// \return the entry that a frame with header \p h reads first, or null
    const void* For(const RdmaHeader& h) const
    {
        switch (h.type)
        {
        case RdmaPacketType::DATA:
            return h.dstQpn < dataCount ? data + size_t(h.dstQpn) * dataStride : nullptr;
        case RdmaPacketType::ACK:
        case RdmaPacketType::NACK:
        case RdmaPacketType::CNP:
        case RdmaPacketType::PROBE_RESP:
            return h.dstQpn < answerCount ? answers + size_t(h.dstQpn) * answerStride : nullptr;
        default:
            return nullptr;
        }
    }
};

/**
 * \ingroup rdma
 * \brief The node behind an RdmaNetDevice (a switch or a NIC), called directly by the
 * port on the per-frame path: cheaper than three ns-3 Callbacks per frame.
 *
 * A device with an owner (RdmaNetDevice::SetOwner) calls it instead of its receive,
 * dequeue and pull callbacks (which remain, for other uses and tests).
 */
class RdmaPortOwner
{
  public:
    virtual ~RdmaPortOwner() = default;

    /**
     * A non-PFC frame \p f arrived on port \p port (device \p dev), link up.
     * \param port the port number the owner gave in SetOwner
     * \param dev the receiving device
     * \param f the frame; the owner may keep it (e.g. enqueue it on another port)
     */
    virtual void FrameReceived(uint32_t port, RdmaNetDevice* dev, const Ptr<RdmaFrame>& f) = 0;

    /**
     * Frame \p f leaves port \p port's queue of class \p priority: to be sent now, or
     * discarded because the link went down (then the device is down). The owner may edit
     * the header (and must then call RdmaFrame::HeaderChanged). Default: nothing.
     */
    virtual void FrameDequeued(uint32_t port, RdmaFrame& f, uint8_t priority);

    /**
     * Port \p port is free and its queues are empty: the next frame to send, or nullptr.
     * \param pausedMask classes paused by the peer (PFC): do not return their frames
     * Default: nullptr.
     */
    virtual Ptr<RdmaFrame> PullFrame(uint32_t port, uint8_t pausedMask);

    /**
     * Whether PullFrame may have a frame for port \p port when its current frame is out.
     * False promises two things: PullFrame would now return nullptr and change nothing,
     * and the owner calls the device's TryTransmit (a frame is ready) or NotifyPullable
     * (one will be, later) as soon as that stops being true. The port then skips its end
     * of transmission, which would find nothing to send. Default: true.
     */
    virtual bool HasFramesToPull(uint32_t port) const;

    /**
     * What PullFrame(\p port, ...) would read first if called now (for example the QP
     * it would serve), for the port's end-of-transmission event to load into the cache
     * meanwhile (RdmaSim::ScheduleReserved); any address or null, it changes
     * nothing. Default: null.
     * \param port the port that will pull
     * \param[out] more if the owner sets it: what PullFrame reads before that (its own
     *        scheduling state), loaded too (EventWheel::kHint3Lines lines)
     */
    virtual const void* PullHint(uint32_t port, const void** more) const;

    /**
     * Where the frames that arrive on port \p port find their queue pair's state (see
     * RdmaArrivalHints), for the link to prefetch it with the frame. The object must live
     * as long as the owner and be kept current as its tables move. Default: null (none).
     */
    virtual const RdmaArrivalHints* GetArrivalHints(uint32_t port) const;

    /**
     * Port \p port's end of transmission is the next event and its queues are empty
     * (DirectEvent::Warm): start loading what PullFrame will read after the state
     * PullHint named when the event was scheduled, which was loaded one event ago. It
     * must change nothing. Default: nothing.
     */
    virtual void WarmPull(uint32_t port) const;

    /**
     * Frame \p f's arrival on port \p port is the next event (DirectEvent::Warm): start
     * loading what FrameReceived will read after \p f and its queue pair's entry, both
     * loaded one event ago. It must change nothing, and must not read that entry
     * through the link's hint: the hint was taken when the frame was sent, and the
     * owner's tables may have moved since (a prefetch of a stale address is harmless, a
     * read is not). Default: nothing.
     */
    virtual void WarmArrival(uint32_t port, const RdmaFrame& f) const;
};

} // namespace ns3

#endif /* RDMA_PORT_OWNER_H */
