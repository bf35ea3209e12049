/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaNetDevice: PFC (IEEE 802.1Qbb): pause frames sent and obeyed, the pause state per class, and
 * the watchdog's override; the port's queues and transmission are in rdma-net-device.cc.
 */
#include "ns3/rdma-net-device.h"
#include "ns3/serialization-clock.h"
#include "ns3/simulator.h"

namespace ns3
{

void
RdmaNetDevice::SendPfc(uint8_t priority, uint16_t quanta)
{
    RdmaHeader h;
    h.type = RdmaPacketType::PFC;
    h.priority = priority;
    h.quanta = quanta;
    m_pfcQueue.push_back(RdmaFrame::Make(h));
    TryTransmit();
}

void
RdmaNetDevice::HandlePfc(const RdmaHeader& h)
{
    m_pfcRxTrace(h.priority, h.quanta);
    const uint8_t c = h.priority;
    m_pauseExpiry[c].Cancel();
    if (h.quanta == 0)
    {
        PauseExpired(c);
        return;
    }
    m_pausedMask |= (1u << c);
    // A quantum is 512 bit times at this port's speed.
    uint64_t ps = SerializationClock::Picoseconds(uint64_t(h.quanta) * rdmawire::kPfcQuantumBytes,
                                                  m_rate.GetBitRate());
    m_pauseExpiry[c] = Simulator::Schedule(PicoSeconds(ps), &RdmaNetDevice::PauseExpired, this, c);
}

void
RdmaNetDevice::PauseExpired(uint8_t priority)
{
    m_pausedMask &= ~(1u << priority);
    TryTransmit();
}

bool
RdmaNetDevice::IsPaused(uint8_t priority) const
{
    return m_pausedMask & (1u << priority);
}

uint8_t
RdmaNetDevice::GetPausedMask() const
{
    return m_pausedMask;
}

void
RdmaNetDevice::SetPfcIgnored(uint8_t priority, bool ignored)
{
    if (ignored)
    {
        m_pfcIgnored |= (1u << priority);
        TryTransmit();
    }
    else
    {
        m_pfcIgnored &= ~(1u << priority);
    }
}

bool
RdmaNetDevice::IsHeldByPfc(uint8_t priority) const
{
    return m_honourPfc && (m_pausedMask & ~m_pfcIgnored & (1u << priority));
}

} // namespace ns3
