/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PORT_PREFETCH_H
#define RDMA_PORT_PREFETCH_H

#include "ns3/rdma-frame.h"

namespace ns3
{

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
 * \brief Optional hooks of a port's owner (RdmaPortOwner::GetPrefetch) that say what it
 * will read next, so that the event core can load it into the cache one event ahead.
 * None of them changes anything: a model runs the same without them, and under an event
 * core that does not prefetch (ns-3's DefaultSimulatorImpl) they are never called.
 */
class RdmaPortPrefetch
{
  public:
    virtual ~RdmaPortPrefetch() = default;

    /**
     * What PullFrame(\p port, ...) would read first if called now (for example the QP
     * it would serve), for the port's end-of-transmission event to load into the cache
     * meanwhile (RdmaSim::ScheduleReserved); any address or null, it changes
     * nothing. Default: null.
     * \param port the port that will pull
     * \param[out] more if the owner sets it: what PullFrame reads before that (its own
     *        scheduling state), loaded too (PrefetchBudget::kThirdHintLines lines)
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

#endif /* RDMA_PORT_PREFETCH_H */
