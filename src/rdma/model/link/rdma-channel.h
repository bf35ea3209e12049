/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CHANNEL_H
#define RDMA_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/rdma-frame.h"

#include <deque>
#include <memory>

namespace ns3
{

class RdmaNetDevice;

/**
 * \ingroup rdma
 * \brief A full-duplex point-to-point Ethernet link between two RdmaNetDevices.
 *
 * The sender decides a frame's serialization time (it knows its rate); the channel adds
 * the propagation delay and delivers the frame, with its parsed header, to the other
 * end. Under the fast core (ns3::RdmaSim::IsFastCore()) each direction keeps its frames in flight
 * in a FIFO (arrivals on a link are in send order) and holds one simulator event, for the head's
 * arrival, scheduled under the uid reserved when the frame was sent: every arrival runs
 * exactly when, and in the order, it would run with one event per frame, but the event
 * queue holds one event per busy link direction instead of one per frame in flight.
 * Under any other simulator implementation every frame gets its own event.
 */
class RdmaChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    RdmaChannel();
    ~RdmaChannel() override; // (out of line: a Direction is complete only there)

    /// Attach a device; a channel takes exactly two.
    void Attach(Ptr<RdmaNetDevice> device);

    /// Start sending frame \p f from \p src (one of the two devices attached); it arrives
    /// at the peer after \p txSteps (its serialization time, in time steps) and the
    /// delay. (A raw pointer and time steps: this is called for every frame, and a Ptr or
    /// a Time built costs a reference count or a check each.)
    void Transmit(const Ptr<RdmaFrame>& f, const RdmaNetDevice* src, uint64_t txSteps);

    /// The device at the other end of \p device.
    Ptr<RdmaNetDevice> GetPeer(Ptr<const RdmaNetDevice> device) const;

    Time GetDelay() const;

    /// Non-PFC frames in flight to \p to (known under the fast core, whose links keep
    /// them in a FIFO; 0 otherwise).
    uint64_t GetFramesInFlight(Ptr<const RdmaNetDevice> to) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

    /**
     * Deliver frame \p f to \p dst after \p txSteps (its serialization time, in time
     * steps) and the delay, as an event of its own: Transmit's path under every
     * simulator but the fast core, and under the fast core for a link that keeps no
     * frames in flight (KeepsFramesInFlight). Here: a Receive event in \p dst's node.
     */
    virtual void Deliver(const Ptr<RdmaFrame>& f, RdmaNetDevice* dst, uint64_t txSteps);

    /**
     * Whether the link holds its frames in flight under the fast core, one arrival event
     * per busy direction (true here). A link whose frames leave this process
     * (RdmaRemoteChannel) says false, and Transmit hands each to Deliver. Asked only while a
     * direction holds no FIFO: once per direction of every other link.
     */
    virtual bool KeepsFramesInFlight() const;

    /// The propagation delay (one way).
    Time Delay() const
    {
        return m_delay;
    }

  private:
    friend class FabricLayout; ///< reads the directions' layout (model/sim)

    /// A frame on the wire, and the uid its arrival event runs under.
    struct InFlight
    {
        uint64_t ts;      ///< arrival time stamp
        uint32_t uid;     ///< reserved when it was sent (RdmaSim::ReserveUid)
        RdmaFrame* frame; ///< holds one reference (raw, so that a FIFO pop reads no slot)
    };

    /// One direction of the link: frames in flight to device `to`, in arrival order
    /// (rdma-channel-direction.h).
    class Direction;

    /// The direction to m_devices[\p to], made if it is not yet (on the link's first
    /// frame, after setup has given the devices their nodes).
    Direction& DirectionTo(uint32_t to);

    /// Deliver the frame at the head of direction \p d, then schedule the next one.
    void Arrive(Direction& d);

    /// \return the index (into m_devices and m_dirs) of the device that receives what
    ///         \p from sends
    uint32_t ReceiverOf(const RdmaNetDevice* from) const
    {
        return PeekPointer(m_devices[0]) == from ? 1 : 0;
    }

    Time m_delay;
    Ptr<RdmaNetDevice> m_devices[2];
    uint32_t m_nDevices;
    Ptr<Direction> m_dirs[2]; ///< m_dirs[i]: frames to m_devices[i] (made on first use)
};

} // namespace ns3

#endif /* RDMA_CHANNEL_H */
