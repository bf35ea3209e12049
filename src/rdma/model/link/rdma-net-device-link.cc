/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaNetDevice: link failure and repair: a down link loses what its port holds (counted and
 * traced); the port's queues and transmission are in rdma-net-device.cc.
 */
#include "ns3/make-event.h"
#include "ns3/node.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-sim-schedule.h"
#include "ns3/simulator.h"

namespace ns3
{

void
RdmaNetDevice::ReceiveRemote(Time delay, uint32_t uid, const uint8_t* bytes, uint32_t size)
{
    using ReceiveFrame = void (RdmaNetDevice::*)(const Ptr<RdmaFrame>&);
    // (Records cross on the fast core's own engine only.) Under the uid the sender
    // reserved, if it did (ordered by node: the arrival's place among the sender's
    // events, as on a serial link), else one taken now.
    RdmaSim::ScheduleReserved(RdmaSim::NowTs() + static_cast<uint64_t>(delay.GetTimeStep()),
                              uid != 0 ? uid : RdmaSim::ReserveUid(),
                              GetNode()->GetId(),
                              MakeEvent(static_cast<ReceiveFrame>(&RdmaNetDevice::Receive),
                                        this,
                                        RdmaFrame::FromHeaderBytes(bytes, size)));
}

void
RdmaNetDevice::SetLinkUp(bool up)
{
    m_linkUp = up;
    if (up)
    {
        TryTransmit();
        return;
    }
    for (uint32_t c = 0; c < kRdmaNumPriorities; ++c)
    {
        while (Ptr<RdmaFrame> f = TakeQueuedHead(static_cast<uint8_t>(c)))
        {
            m_ledger.discardedQueued.Add(*f, f->GetSize());
            ++m_linkDownDrops;
            if (!m_linkDownDropTrace.IsEmpty())
            {
                m_linkDownDropTrace(f->GetPacket());
            }
            NotifyDequeued(*f, static_cast<uint8_t>(c));
        }
    }
    // PFC frames waiting for the wire are lost with it too (counted, and traced).
    while (!m_pfcQueue.empty())
    {
        Ptr<RdmaFrame> f = m_pfcQueue.take_front();
        ++m_linkDownDrops;
        ++m_ledger.pfcDiscarded;
        if (!m_linkDownDropTrace.IsEmpty())
        {
            m_linkDownDropTrace(f->GetPacket());
        }
    }
}

uint64_t
RdmaNetDevice::GetLinkDownDrops() const
{
    return m_linkDownDrops;
}

} // namespace ns3
