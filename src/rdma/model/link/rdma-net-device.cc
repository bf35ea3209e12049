/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-net-device.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-port-owner.h"
#include "ns3/rdma-sim-schedule.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstddef>

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
                            "ns3::RdmaNetDevice::PfcTracedCallback")
            .AddTraceSource("Sniffer",
                            "A frame sent (at the start of its transmission) or received, "
                            "PFC frames included, as the bytes of a real RoCEv2 link "
                            "(rocewire::Render; no FCS): for pcap captures (RdmaHelper).",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

RdmaNetDevice::RdmaNetDevice()
    : m_linkUp(true),
      m_busy(false),
      m_txCompleteDeferred(false),
      m_ownerPulls(false),
      m_honourPfc(true),
      m_strictPriority(7),
      m_pausedMask(0),
      m_pfcIgnored(0),
      m_nonEmpty(0),
      m_rrNext(0),
      m_ownerPort(0),
      m_owner(nullptr),
      m_txEndTs(0),
      m_txEndUid(0),
      m_txEndContext(0),
      m_rate("100Gb/s"),
      m_clock(m_rate.GetBitRate()),
      m_txBytes(0),
      m_txFrames(0),
      m_linkDownDrops(0),
      m_address(Mac48Address::Allocate()),
      m_ifIndex(0),
      m_mtu(4200),
      m_txComplete(Create<TxEndEvent>(this))
{
    // The hot fields' layout (HotData, kHotLines): a change to it must revisit both.
    // (offsetof on this class, not standard-layout, is supported by GCC and Clang: it has
    // no virtual base.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(offsetof(RdmaNetDevice, m_ledger) + offsetof(Ledger, dequeued) +
                          sizeof(FrameTally) - offsetof(RdmaNetDevice, m_linkUp) ==
                      kHotSpanBytes,
                  "the hot fields, m_linkUp through m_ledger.dequeued, span kHotSpanBytes");
#pragma GCC diagnostic pop
    static_assert(kHotSpanBytes <= kHotLines * 64 && kHotSpanBytes + 64 > kHotLines * 64,
                  "kHotLines lines hold the hot fields where they start early in a line, "
                  "one line fewer would not");
    m_queueBytes.fill(0);
}

RdmaNetDevice::~RdmaNetDevice()
{
    ClearQueues(); // (if not disposed)
}

void
RdmaNetDevice::DoDispose()
{
    ClearQueues();
    m_pfcQueue.clear();
    m_owner = nullptr;
    m_txComplete = nullptr;
    m_channel = nullptr;
    m_node = nullptr;
    m_rxCallback = RxCallback();
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
RdmaNetDevice::SetPullSource(PullCallback cb)
{
    m_pullSource = cb;
}

void
RdmaNetDevice::SetOwner(RdmaPortOwner* owner, uint32_t port, bool pulls)
{
    m_owner = owner;
    m_ownerPort = port;
    m_ownerPulls = pulls;
}

void
RdmaNetDevice::Enqueue(Ptr<Packet> p, uint8_t priority, uint32_t meta)
{
    Ptr<RdmaFrame> f = RdmaFrame::FromPacket(p);
    f->meta = meta;
    Enqueue(f, priority);
}

void
RdmaNetDevice::Enqueue(const Ptr<RdmaFrame>& f, uint8_t priority)
{
    RdmaFrame* frame = PeekPointer(f);
    frame->Ref(); // the queue's reference
    m_queueBytes[priority] += frame->GetSize();
    m_queues[priority].push_back(frame);
    m_nonEmpty |= 1u << priority;
    TryTransmit();
}

// (Inline in TryTransmitIfFree, its only caller: a call per frame sent, with a Ptr
// returned through memory, cost more than its body.)
__attribute__((always_inline)) inline Ptr<RdmaFrame>
RdmaNetDevice::SelectNext()
{
    if (!m_pfcQueue.empty())
    {
        return m_pfcQueue.take_front();
    }
    const uint8_t paused = m_honourPfc ? (m_pausedMask & ~m_pfcIgnored) : 0;
    // Classes with frames that may go: the strict class first, then round robin from
    // m_rrNext over the others. Chosen by arithmetic, not branches: whether the strict
    // class (ACKs) has a frame changes from frame to frame, which a branch predictor
    // keeps getting wrong.
    const uint32_t ready = m_nonEmpty & ~paused;
    if (ready != 0)
    {
        const uint32_t strict = m_strictPriority;
        const uint32_t others = ready & ~(1u << strict);
        const uint32_t rr = m_rrNext;
        // The sentinel bit makes "none of the others" choose rr itself (then unused).
        const uint32_t rotated = (((others >> rr) | (others << (kRdmaNumPriorities - rr))) &
                                  ((1u << kRdmaNumPriorities) - 1)) |
                                 (1u << kRdmaNumPriorities);
        const uint32_t rrChoice = (__builtin_ctz(rotated) + rr) % kRdmaNumPriorities;
        const uint32_t strictMask = 0u - ((ready >> strict) & 1u);
        const uint32_t chosen = rrChoice ^ ((rrChoice ^ strict) & strictMask);
        const uint32_t keepMask = strictMask | (0u - static_cast<uint32_t>(others == 0));
        const uint32_t rrNext = (rrChoice + 1) % kRdmaNumPriorities;
        m_rrNext = static_cast<uint8_t>(rrNext ^ ((rrNext ^ rr) & keepMask));
        Ptr<RdmaFrame> f = TakeQueuedHead(static_cast<uint8_t>(chosen));
        m_ledger.dequeued.Add(*f, f->GetSize());
        NotifyDequeued(*f, static_cast<uint8_t>(chosen));
        return f;
    }
    if (m_owner)
    {
        return m_owner->PullFrame(m_ownerPort, paused);
    }
    if (!m_pullSource.IsNull())
    {
        Ptr<Packet> p = m_pullSource(paused);
        return p ? RdmaFrame::FromPacket(p) : nullptr;
    }
    return nullptr;
}

void
RdmaNetDevice::ClearQueues()
{
    for (auto& q : m_queues)
    {
        for (RdmaFrame* f : q)
        {
            f->Unref();
        }
        q.clear();
    }
}

bool
RdmaNetDevice::StillBusy()
{
    if (!m_busy)
    {
        return false;
    }
    if (m_txCompleteDeferred)
    {
        // The end of transmission was not scheduled: busy until its slot in event order,
        // (time stamp, reserved uid), has passed.
        const uint64_t now = RdmaSim::NowTs();
        if (now > m_txEndTs || (now == m_txEndTs && RdmaSim::CurrentUid() > m_txEndUid))
        {
            m_busy = false;
            m_txCompleteDeferred = false;
            return false;
        }
    }
    return true;
}

void
RdmaNetDevice::ScheduleDeferredTxComplete()
{
    m_txCompleteDeferred = false;
    m_txComplete->Ref();
    RdmaSim::ScheduleReserved(m_txEndTs, m_txEndUid, m_txEndContext, PeekPointer(m_txComplete));
}

void
RdmaNetDevice::TryTransmitIfFree()
{
    if (StillBusy())
    {
        if (m_txCompleteDeferred)
        {
            // Someone wants the port: it must look again when the frame is out.
            ScheduleDeferredTxComplete();
        }
        return;
    }
    if (!m_channel || !m_linkUp)
    {
        return;
    }
    Ptr<RdmaFrame> f = SelectNext();
    if (!f)
    {
        return;
    }
    const uint32_t frame = f->GetSize();
    const uint64_t txSteps = RdmaSim::NsToSteps(m_clock.NextNs(frame + rdmawire::kPreambleAndIfg));
    m_busy = true;
    m_txBytes += frame;
    ++m_txFrames;
    if (f->header.type != RdmaPacketType::PFC)
    {
        m_ledger.sent.Add(*f, frame);
    }
    if (!m_macTxTrace.IsEmpty())
    {
        m_macTxTrace(f->GetPacket());
    }
    if (!m_snifferTrace.IsEmpty())
    {
        Sniff(*f, true);
    }
    m_channel->Transmit(f, this, txSteps);
    const bool fastCore = RdmaSim::IsFastCore();
    const bool morePending = m_nonEmpty != 0 || !m_pfcQueue.empty() ||
                             (m_ownerPulls && m_owner->HasFramesToPull(m_ownerPort)) ||
                             !m_pullSource.IsNull();
    if (!fastCore || morePending)
    {
        m_txComplete->ScheduleInSteps(txSteps);
        return;
    }
    // Nothing waits for the port: its end of transmission would find nothing to send.
    // Keep the event's slot (the uid ns-3 would give it) and schedule it only if a frame
    // or an unpause comes before then (TryTransmit while busy).
    m_txCompleteDeferred = true;
    m_txEndTs = RdmaSim::NowTs() + txSteps;
    m_txEndUid = RdmaSim::ReserveUid();
    m_txEndContext = RdmaSim::CurrentContext();
}

void
RdmaNetDevice::NotifyPullable()
{
    if (m_txCompleteDeferred && StillBusy())
    {
        ScheduleDeferredTxComplete();
    }
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
    Receive(RdmaFrame::FromPacket(p));
}

void
RdmaNetDevice::Receive(const Ptr<RdmaFrame>& f)
{
    if (!m_linkUp)
    {
        ++m_linkDownDrops;
        if (f->header.type == RdmaPacketType::PFC)
        {
            ++m_ledger.pfcLostArriving;
        }
        else
        {
            m_ledger.lostArriving.Add(*f, f->GetSize());
        }
        if (!m_linkDownDropTrace.IsEmpty())
        {
            m_linkDownDropTrace(f->GetPacket());
        }
        return;
    }
    if (!m_snifferTrace.IsEmpty())
    {
        Sniff(*f, false);
    }
    if (f->header.type == RdmaPacketType::PFC)
    {
        HandlePfc(f->header);
        return;
    }
    m_ledger.received.Add(*f, f->GetSize());
    if (!m_macRxTrace.IsEmpty())
    {
        m_macRxTrace(f->GetPacket());
    }
    if (m_owner)
    {
        m_owner->FrameReceived(m_ownerPort, this, f);
    }
    else if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, f->GetPacket(), f->header);
    }
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

const CompactDeque<RdmaFrame*>&
RdmaNetDevice::GetQueue(uint8_t priority) const
{
    return m_queues[priority];
}

uint64_t
RdmaNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

const RdmaNetDevice::Ledger&
RdmaNetDevice::GetLedger() const
{
    return m_ledger;
}

uint64_t
RdmaNetDevice::GetTxFrames() const
{
    return m_txFrames;
}

} // namespace ns3
