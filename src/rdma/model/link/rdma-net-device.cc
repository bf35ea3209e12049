/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-net-device.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNetDevice");
NS_OBJECT_ENSURE_REGISTERED(RdmaNetDevice);

TypeId
RdmaNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNetDevice>()
            .AddAttribute(
                "DataRate",
                "Line rate of the port (bit/s).",
                DataRateValue(DataRate("100Gb/s")),
                MakeDataRateAccessor(&RdmaNetDevice::SetDataRate, &RdmaNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("StrictPriority",
                          "Class served before all others (control packets: ACK, NACK, CNP).",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RdmaNetDevice::m_strictPriority),
                          MakeUintegerChecker<uint8_t>(0, kRdmaNumPriorities - 1))
            .AddAttribute("HonourPfc",
                          "Stop a class when the peer sends a PFC pause for it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNetDevice::m_honourPfc),
                          MakeBooleanChecker())
            .AddAttribute("Mtu",
                          "Largest Ethernet payload (bytes); informational.",
                          UintegerValue(4200),
                          MakeUintegerAccessor(&RdmaNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>())
            .AddTraceSource("MacTx",
                            "A frame starts its transmission.",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("LinkDownDrop",
                            "A frame was lost to a link that is down (DropReason LINK_DOWN): "
                            "arriving on it, or queued for it when it went down.",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_linkDownDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A non-PFC frame has been received.",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame has been received: class and quanta (0 = resume).",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_pfcRxTrace),
                            "ns3::RdmaNetDevice::PfcTracedCallback");
    return tid;
}

RdmaNetDevice::RdmaNetDevice()
    : m_rate("100Gb/s"),
      m_clock(m_rate.GetBitRate()),
      m_strictPriority(7),
      m_honourPfc(true),
      m_linkUp(true),
      m_linkDownDrops(0),
      m_address(Mac48Address::Allocate()),
      m_ifIndex(0),
      m_mtu(4200),
      m_rrNext(0),
      m_busy(false),
      m_pausedMask(0),
      m_txBytes(0),
      m_txFrames(0)
{
    m_queueBytes.fill(0);
}

void
RdmaNetDevice::DoDispose()
{
    for (auto& q : m_queues)
    {
        q.clear();
    }
    m_pfcQueue.clear();
    m_channel = nullptr;
    m_node = nullptr;
    m_rxCallback = RxCallback();
    m_dequeueCallback = DequeueCallback();
    m_pullSource = PullCallback();
    NetDevice::DoDispose();
}

void
RdmaNetDevice::Attach(Ptr<RdmaChannel> channel)
{
    m_channel = channel;
    channel->Attach(this);
}

void
RdmaNetDevice::SetRdmaReceiveCallback(RxCallback cb)
{
    m_rxCallback = cb;
}

void
RdmaNetDevice::SetDequeueCallback(DequeueCallback cb)
{
    m_dequeueCallback = cb;
}

void
RdmaNetDevice::SetPullSource(PullCallback cb)
{
    m_pullSource = cb;
}

void
RdmaNetDevice::Enqueue(Ptr<Packet> p, uint8_t priority, uint32_t meta)
{
    m_queueBytes[priority] += p->GetSize();
    m_queues[priority].push_back({p, meta});
    TryTransmit();
}

void
RdmaNetDevice::SendPfc(uint8_t priority, uint16_t quanta)
{
    RdmaHeader h;
    h.type = RdmaPacketType::PFC;
    h.priority = priority;
    h.quanta = quanta;
    m_pfcQueue.push_back(CreateRdmaFrame(h));
    TryTransmit();
}

Ptr<Packet>
RdmaNetDevice::SelectNext()
{
    if (!m_pfcQueue.empty())
    {
        Ptr<Packet> p = m_pfcQueue.front();
        m_pfcQueue.pop_front();
        return p;
    }
    const uint8_t paused = m_honourPfc ? m_pausedMask : 0;
    int chosen = -1;
    if (!m_queues[m_strictPriority].empty() && !(paused & (1u << m_strictPriority)))
    {
        chosen = m_strictPriority;
    }
    else
    {
        for (uint32_t i = 0; i < kRdmaNumPriorities; ++i)
        {
            uint32_t c = (m_rrNext + i) % kRdmaNumPriorities;
            if (c != m_strictPriority && !m_queues[c].empty() && !(paused & (1u << c)))
            {
                chosen = c;
                m_rrNext = (c + 1) % kRdmaNumPriorities;
                break;
            }
        }
    }
    if (chosen >= 0)
    {
        Queued item = m_queues[chosen].front();
        m_queues[chosen].pop_front();
        m_queueBytes[chosen] -= item.packet->GetSize();
        if (!m_dequeueCallback.IsNull())
        {
            m_dequeueCallback(item.packet, static_cast<uint8_t>(chosen), item.meta);
        }
        return item.packet;
    }
    if (!m_pullSource.IsNull())
    {
        return m_pullSource(paused);
    }
    return nullptr;
}

void
RdmaNetDevice::TryTransmit()
{
    if (m_busy || !m_channel || !m_linkUp)
    {
        return;
    }
    Ptr<Packet> p = SelectNext();
    if (!p)
    {
        return;
    }
    const uint32_t frame = p->GetSize();
    Time txTime = m_clock.Next(frame + rdmawire::kPreambleAndIfg);
    m_busy = true;
    m_txBytes += frame;
    ++m_txFrames;
    m_macTxTrace(p);
    m_channel->Transmit(p, this, txTime);
    Simulator::Schedule(txTime, &RdmaNetDevice::TransmitComplete, this);
}

void
RdmaNetDevice::TransmitComplete()
{
    m_busy = false;
    TryTransmit();
}

void
RdmaNetDevice::Receive(Ptr<Packet> p)
{
    if (!m_linkUp)
    {
        ++m_linkDownDrops;
        m_linkDownDropTrace(p);
        return;
    }
    RdmaHeader h;
    p->PeekHeader(h);
    if (h.type == RdmaPacketType::PFC)
    {
        HandlePfc(h);
        return;
    }
    m_macRxTrace(p);
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, p, h);
    }
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

DataRate
RdmaNetDevice::GetDataRate() const
{
    return m_rate;
}

uint64_t
RdmaNetDevice::GetBitRate() const
{
    return m_rate.GetBitRate();
}

void
RdmaNetDevice::SetDataRate(DataRate rate)
{
    m_rate = rate;
    m_clock.SetBitRate(rate.GetBitRate());
}

Ptr<RdmaChannel>
RdmaNetDevice::GetRdmaChannel() const
{
    return m_channel;
}

uint8_t
RdmaNetDevice::GetStrictPriority() const
{
    return m_strictPriority;
}

uint64_t
RdmaNetDevice::GetQueueBytes(uint8_t priority) const
{
    return m_queueBytes[priority];
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

uint64_t
RdmaNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
RdmaNetDevice::GetTxFrames() const
{
    return m_txFrames;
}

void
RdmaNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
RdmaNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
RdmaNetDevice::GetChannel() const
{
    return m_channel;
}

void
RdmaNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
RdmaNetDevice::GetAddress() const
{
    return m_address;
}

bool
RdmaNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
RdmaNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
RdmaNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && m_linkUp;
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
        while (!m_queues[c].empty())
        {
            Queued item = m_queues[c].front();
            m_queues[c].pop_front();
            m_queueBytes[c] -= item.packet->GetSize();
            ++m_linkDownDrops;
            m_linkDownDropTrace(item.packet);
            if (!m_dequeueCallback.IsNull())
            {
                m_dequeueCallback(item.packet, static_cast<uint8_t>(c), item.meta);
            }
        }
    }
    m_pfcQueue.clear();
}

uint64_t
RdmaNetDevice::GetLinkDownDrops() const
{
    return m_linkDownDrops;
}

void
RdmaNetDevice::AddLinkChangeCallback(Callback<void> /* callback */)
{
}

bool
RdmaNetDevice::IsBroadcast() const
{
    return false;
}

Address
RdmaNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
RdmaNetDevice::IsMulticast() const
{
    return false;
}

Address
RdmaNetDevice::GetMulticast(Ipv4Address /* multicastGroup */) const
{
    return Mac48Address::GetMulticast(Ipv4Address("224.0.0.0"));
}

Address
RdmaNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
RdmaNetDevice::IsBridge() const
{
    return false;
}

bool
RdmaNetDevice::IsPointToPoint() const
{
    return true;
}

bool
RdmaNetDevice::Send(Ptr<Packet> packet, const Address& /* dest */, uint16_t /* protocol */)
{
    RdmaHeader h;
    packet->PeekHeader(h);
    Enqueue(packet, h.priority, 0);
    return true;
}

bool
RdmaNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& /* source */,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
RdmaNetDevice::GetNode() const
{
    return m_node;
}

void
RdmaNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
RdmaNetDevice::NeedsArp() const
{
    return false;
}

void
RdmaNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback /* cb */)
{
    // Frames go up through SetRdmaReceiveCallback, with their parsed header.
}

void
RdmaNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback /* cb */)
{
}

bool
RdmaNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
