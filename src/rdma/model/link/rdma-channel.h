/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CHANNEL_H
#define RDMA_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

namespace ns3
{

class RdmaNetDevice;

/**
 * \ingroup rdma
 * A full-duplex point-to-point Ethernet link between two RdmaNetDevices. The sender
 * decides the serialization time (it knows its rate); the channel adds the propagation
 * delay and delivers the frame to the other end.
 */
class RdmaChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    RdmaChannel();

    /// Attach a device; a channel takes exactly two.
    void Attach(Ptr<RdmaNetDevice> device);

    /// Start sending \p p from \p src; it arrives at the peer after txTime + delay.
    void Transmit(Ptr<Packet> p, Ptr<RdmaNetDevice> src, Time txTime);

    /// The device at the other end of \p device.
    Ptr<RdmaNetDevice> GetPeer(Ptr<const RdmaNetDevice> device) const;

    Time GetDelay() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  private:
    Time m_delay;
    Ptr<RdmaNetDevice> m_devices[2];
    uint32_t m_nDevices;
};

} // namespace ns3

#endif /* RDMA_CHANNEL_H */
