/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CHANNEL_DIRECTION_H
#define RDMA_CHANNEL_DIRECTION_H

#include "ns3/compact-deque.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-sim.h"

namespace ns3
{

/**
 * One direction of the link (see RdmaChannel), and the event of its head frame's arrival
 * (never cancelled): the simulator's event is this object, so running it touches no
 * other. Aligned to a cache line, and two lines long at most, so that it loads in two
 * lines wherever the heap puts it.
 */
class alignas(64) RdmaChannel::Direction : public DirectEvent
{
  public:
    Direction(RdmaChannel* channel, RdmaNetDevice* to)
        : channel(channel),
          to(to),
          context(to->GetNode() ? to->GetNode()->GetId() : 0)
    {
    }

    ~Direction() override
    {
        for (const InFlight& f : fifo)
        {
            f.frame->Unref();
        }
    }

    /// Schedule the arrival of \p next, the FIFO's new head, under the uid it reserved
    /// (one reference of this event per scheduling, given back by the simulator).
    void ScheduleHead(const InFlight& next);

    /// The FIFO's head frame, kept here so that its arrival reads no FIFO slot.
    RdmaFrame* head = nullptr;
    RdmaChannel* channel;        ///< the link
    RdmaNetDevice* to;           ///< the receiving device
    uint32_t context;            ///< its node id (the arrival's event context)
    uint64_t lastTs = 0;         ///< arrival time stamp of the newest frame in the FIFO
    CompactDeque<InFlight> fifo; ///< frames in flight, earliest arrival first

  protected:
    void Notify() override
    {
        channel->Arrive(*this);
    }
};

} // namespace ns3

#endif /* RDMA_CHANNEL_DIRECTION_H */
