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
};

} // namespace ns3

#endif /* RDMA_PORT_OWNER_H */
