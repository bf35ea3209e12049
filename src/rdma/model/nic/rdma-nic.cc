/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/no-congestion-control.h"
#include "ns3/node.h"
#include "ns3/serialization-clock.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");
NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

namespace
{
uint64_t
NowPs()
{
    return static_cast<uint64_t>(Simulator::Now().GetPicoSeconds());
}
} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNic>()
            .AddAttribute("Mtu",
                          "Payload bytes per data packet (RoCE MTU: 256..4096; 1024 default).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&RdmaNic::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("AckInterval",
                          "The responder acknowledges every N in-order packets (and the last "
                          "packet of each message).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CnpInterval",
                          "Minimum time between two CNPs for one QP (DCQCN tau; NIC 4 us, "
                          "paper 50 us).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&RdmaNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("NackInterval",
                          "A NACK for the same missing PSN is repeated after this time.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaNic::m_nackInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RetransmissionTimeout",
                          "Go back to the oldest unacknowledged PSN after this time without "
                          "progress.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RdmaNic::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("Window",
                          "Static limit of payload bytes in flight per QP, 0 = none (the "
                          "congestion controller may set its own).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNic::m_window),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnCapable",
                          "Send data packets as ECN-capable (ECT(0)).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_ecnCapable),
                          MakeBooleanChecker())
            .AddTraceSource("MessageComplete",
                            "A message has been fully acknowledged.",
                            MakeTraceSourceAccessor(&RdmaNic::m_completionTrace),
                            "ns3::RdmaNic::CompletionTracedCallback");
    return tid;
}

RdmaNic::RdmaNic()
    : m_mtu(1024),
      m_ackInterval(1),
      m_window(0),
      m_ecnCapable(true),
      m_nodeId(0),
      m_wakePs(0),
      m_inPull(false)
{
    m_ccFactory.SetTypeId(NoCongestionControl::GetTypeId());
}

void
RdmaNic::DoDispose()
{
    for (auto& qp : m_sendQps)
    {
        qp.rto.Cancel();
        qp.cc = nullptr;
    }
    m_wake.Cancel();
    m_device = nullptr;
    Object::DoDispose();
}

void
RdmaNic::NotifyNewAggregate()
{
    if (Ptr<Node> node = GetObject<Node>())
    {
        m_nodeId = node->GetId();
    }
    Object::NotifyNewAggregate();
}

void
RdmaNic::SetDevice(Ptr<RdmaNetDevice> device)
{
    m_device = device;
    device->SetRdmaReceiveCallback(MakeCallback(&RdmaNic::Receive, this));
    device->SetPullSource(MakeCallback(&RdmaNic::Pull, this));
}

Ptr<RdmaNetDevice>
RdmaNic::GetDevice() const
{
    return m_device;
}

void
RdmaNic::SetCongestionControl(const ObjectFactory& factory)
{
    m_ccFactory = factory;
}

void
RdmaNic::SetCcContextFor(uint32_t peerNode, Time baseRtt, uint32_t hops)
{
    if (m_paths.size() <= peerNode)
    {
        m_paths.resize(peerNode + 1, PathInfo{Time(0), 0});
    }
    m_paths[peerNode] = PathInfo{baseRtt, hops};
}

uint32_t
RdmaNic::Connect(Ptr<RdmaNic> src, Ptr<RdmaNic> dst, uint8_t priority, uint16_t sport)
{
    const uint32_t rqpn = dst->AddRecvQp(src->GetNodeId(), sport, priority);
    const uint32_t sqpn = src->AddSendQp(dst->GetNodeId(), rqpn, sport, priority);
    dst->m_recvQps[rqpn].peerQpn = sqpn;
    return sqpn;
}

uint32_t
RdmaNic::AddSendQp(uint32_t peerNode, uint32_t peerQpn, uint16_t sport, uint8_t priority)
{
    NS_ABORT_MSG_IF(!m_device, "RdmaNic: SetDevice before creating QPs");
    SendQueuePair qp;
    qp.qpn = m_sendQps.size();
    qp.peerNode = peerNode;
    qp.peerQpn = peerQpn;
    qp.sport = sport;
    qp.priority = priority;
    qp.cc = m_ccFactory.Create<CongestionControl>();
    CcContext ctx;
    ctx.lineRate = m_device->GetBitRate();
    ctx.mtu = m_mtu;
    if (peerNode < m_paths.size())
    {
        ctx.baseRtt = m_paths[peerNode].baseRtt;
        ctx.hops = m_paths[peerNode].hops;
    }
    qp.cc->Init(ctx);
    m_sendQps.push_back(std::move(qp));
    return m_sendQps.size() - 1;
}

uint32_t
RdmaNic::AddRecvQp(uint32_t peerNode, uint16_t sport, uint8_t priority)
{
    RecvQueuePair rq;
    rq.peerNode = peerNode;
    rq.sport = sport;
    rq.priority = priority;
    m_recvQps.push_back(rq);
    return m_recvQps.size() - 1;
}

void
RdmaNic::PostSend(uint32_t qpn, uint64_t bytes, uint64_t flowId)
{
    NS_ABORT_MSG_IF(qpn >= m_sendQps.size(), "RdmaNic::PostSend: no QP " << qpn);
    NS_ABORT_MSG_IF(bytes == 0, "RdmaNic::PostSend: empty message");
    SendQueuePair& qp = m_sendQps[qpn];
    NS_ABORT_MSG_IF(!qp.messages.empty() && qp.messages.back().bytes == RdmaMessage::kUnbounded,
                    "RdmaNic::PostSend: QP " << qpn << " has an unbounded message");
    RdmaMessage m;
    m.flowId = flowId;
    m.bytes = bytes;
    m.firstPsn = qp.nextPsn;
    m.posted = Simulator::Now();
    if (bytes == RdmaMessage::kUnbounded)
    {
        m.lastPsn = std::numeric_limits<uint32_t>::max() - 1;
    }
    else
    {
        const uint64_t packets = (bytes + m_mtu - 1) / m_mtu;
        NS_ABORT_MSG_IF(uint64_t(qp.nextPsn) + packets >= std::numeric_limits<uint32_t>::max(),
                        "RdmaNic::PostSend: PSN space exhausted on QP " << qpn);
        m.lastPsn = qp.nextPsn + static_cast<uint32_t>(packets) - 1;
    }
    qp.nextPsn = m.lastPsn + 1;
    qp.messages.push_back(m);
    Reschedule(qp);
}

void
RdmaNic::TruncateMessage(uint32_t qpn)
{
    SendQueuePair& qp = m_sendQps.at(qpn);
    if (qp.messages.empty() || qp.messages.back().bytes != RdmaMessage::kUnbounded)
    {
        return;
    }
    RdmaMessage& m = qp.messages.back();
    if (qp.maxSent <= m.firstPsn)
    {
        // Nothing sent yet: the message never existed on the wire; complete it empty.
        Completion c{m_nodeId, qpn, m.flowId, 0, m.posted, Simulator::Now()};
        qp.nextPsn = m.firstPsn;
        qp.messages.pop_back();
        m_completionTrace(c);
        if (!m_completionCallback.IsNull())
        {
            m_completionCallback(c);
        }
        return;
    }
    m.lastPsn = qp.maxSent - 1;
    m.bytes = uint64_t(m.lastPsn - m.firstPsn + 1) * m_mtu;
    qp.nextPsn = m.lastPsn + 1;
    qp.sndNxt = std::min(qp.sndNxt, qp.nextPsn);
}

void
RdmaNic::SetCompletionCallback(CompletionCallback cb)
{
    m_completionCallback = cb;
}

const RdmaNic::Stats&
RdmaNic::GetStats() const
{
    return m_stats;
}

const SendQueuePair&
RdmaNic::GetSendQp(uint32_t qpn) const
{
    return m_sendQps.at(qpn);
}

uint64_t
RdmaNic::GetAckedBytes(uint32_t qpn) const
{
    const SendQueuePair& qp = m_sendQps.at(qpn);
    uint64_t acked = qp.completedBytes;
    if (!qp.messages.empty() && qp.sndUna > qp.messages.front().firstPsn)
    {
        acked += uint64_t(qp.sndUna - qp.messages.front().firstPsn) * m_mtu;
    }
    return acked;
}

std::size_t
RdmaNic::GetNSendQps() const
{
    return m_sendQps.size();
}

uint32_t
RdmaNic::GetNodeId() const
{
    return m_nodeId;
}

uint32_t
RdmaNic::GetMtu() const
{
    return m_mtu;
}

// ---------------------------------------------------------------- transmit path

bool
RdmaNic::WindowFull(const SendQueuePair& qp) const
{
    uint64_t window = qp.cc->GetWindow();
    if (m_window > 0)
    {
        window = window > 0 ? std::min(window, m_window) : m_window;
    }
    return window > 0 && uint64_t(qp.sndNxt - qp.sndUna) * m_mtu >= window;
}

void
RdmaNic::Reschedule(SendQueuePair& qp)
{
    if (qp.state != SendQueuePair::State::IDLE || !qp.HasUnsent() || WindowFull(qp))
    {
        return;
    }
    const uint64_t now = NowPs();
    // Inside Pull the port is about to send and will pull again when it is free, so
    // neither a kick nor a wake-up is needed (a kick would even re-enter Pull).
    if (qp.nextSendPs <= now)
    {
        qp.state = SendQueuePair::State::READY;
        m_scheduler.PushReady(qp.qpn);
        if (!m_inPull)
        {
            m_device->TryTransmit();
        }
    }
    else
    {
        qp.state = SendQueuePair::State::WAITING;
        m_scheduler.PushWaiting(qp.qpn, qp.nextSendPs);
        if (!m_inPull)
        {
            ArmWake(qp.nextSendPs);
        }
    }
}

Ptr<Packet>
RdmaNic::Pull(uint8_t pausedMask)
{
    const uint64_t now = NowPs();
    m_scheduler.Unpark(pausedMask);
    m_scheduler.ReleaseDue(now);
    uint32_t qpn;
    while (m_scheduler.PopReady(qpn))
    {
        SendQueuePair& qp = m_sendQps[qpn];
        if (pausedMask & (1u << qp.priority))
        {
            qp.state = SendQueuePair::State::PARKED;
            m_scheduler.Park(qpn, qp.priority);
            continue;
        }
        if (!qp.HasUnsent() || WindowFull(qp))
        {
            qp.state = SendQueuePair::State::IDLE;
            continue;
        }
        if (qp.nextSendPs > now)
        {
            qp.state = SendQueuePair::State::WAITING;
            m_scheduler.PushWaiting(qpn, qp.nextSendPs);
            continue;
        }
        Ptr<Packet> p = MakeDataPacket(qp);
        qp.state = SendQueuePair::State::IDLE;
        m_inPull = true;
        Reschedule(qp);
        m_inPull = false;
        return p;
    }
    if (m_scheduler.HasWaiting())
    {
        ArmWake(m_scheduler.NextWaitingPs());
    }
    return nullptr;
}

Ptr<Packet>
RdmaNic::MakeDataPacket(SendQueuePair& qp)
{
    const uint32_t psn = qp.sndNxt;
    const RdmaMessage* msg = nullptr;
    for (const RdmaMessage& m : qp.messages)
    {
        if (m.lastPsn >= psn)
        {
            msg = &m;
            break;
        }
    }
    NS_ABORT_MSG_IF(!msg, "RdmaNic: no message holds PSN " << psn);
    uint32_t payload = m_mtu;
    RdmaHeader h;
    if (psn == msg->lastPsn)
    {
        payload = static_cast<uint32_t>(msg->bytes - uint64_t(psn - msg->firstPsn) * m_mtu);
        h.flags = RdmaHeader::FLAG_LAST | RdmaHeader::FLAG_ACK_REQUEST;
    }
    h.type = RdmaPacketType::DATA;
    h.priority = qp.priority;
    h.ecn = m_ecnCapable ? RdmaHeader::ECT0 : RdmaHeader::NOT_ECT;
    h.src = m_nodeId;
    h.dst = qp.peerNode;
    h.sport = qp.sport;
    h.dstQpn = qp.peerQpn;
    h.psn = psn;
    h.payload = payload;

    ++m_stats.dataPackets;
    if (psn < qp.maxSent)
    {
        ++m_stats.retransmittedPackets;
    }
    else
    {
        qp.maxSent = psn + 1;
        m_stats.payloadBytesSent += payload;
    }
    ++qp.sndNxt;

    // Pace: the next packet may leave once this one has left at the QP's rate.
    const uint64_t rate = qp.cc->GetRate();
    qp.cc->OnSend(payload);
    // At line rate the port itself is the pacer: pacing too would leave sub-ns gaps
    // between the port's (ns-rounded) free time and the QP's exact due time.
    const uint64_t now = NowPs();
    const uint32_t wire = rdmawire::WireBytes(RdmaPacketType::DATA, payload);
    qp.nextSendPs = rate >= m_device->GetBitRate()
                        ? now
                        : now + SerializationClock::Picoseconds(wire, std::max<uint64_t>(rate, 1));
    if (!qp.rto.IsRunning())
    {
        qp.lastProgress = Simulator::Now();
        ArmRto(qp, Simulator::Now() + m_rto);
    }
    return CreateRdmaFrame(h);
}

void
RdmaNic::ArmWake(uint64_t ps)
{
    if (m_wake.IsRunning() && m_wakePs <= ps)
    {
        return;
    }
    if (ps <= NowPs())
    {
        return; // already due: the port's next pull will take it
    }
    m_wake.Cancel();
    m_wakePs = ps;
    const uint64_t nowPs = NowPs();
    // Round up to the time resolution so the QP is due when we wake.
    const uint64_t delayNs = (ps - nowPs + 999) / 1000;
    m_wake = Simulator::Schedule(NanoSeconds(delayNs), &RdmaNic::Wake, this);
}

void
RdmaNic::Wake()
{
    // If the port is busy it pulls again when the frame is out (and Pull re-arms the
    // wake-up for QPs still waiting), so one kick is all that is needed.
    m_device->TryTransmit();
}

void
RdmaNic::SendControl(RdmaPacketType type,
                     uint32_t peerNode,
                     uint32_t peerQpn,
                     uint16_t sport,
                     uint32_t psn)
{
    RdmaHeader h;
    h.type = type;
    h.priority = m_device->GetStrictPriority();
    h.src = m_nodeId;
    h.dst = peerNode;
    h.sport = sport;
    h.dstQpn = peerQpn;
    h.psn = psn;
    m_device->Enqueue(CreateRdmaFrame(h), h.priority, 0);
}

// ---------------------------------------------------------------- receive path

void
RdmaNic::Receive(Ptr<RdmaNetDevice> /* dev */, Ptr<Packet> /* p */, const RdmaHeader& h)
{
    NS_ABORT_MSG_IF(h.dst != m_nodeId,
                    "RdmaNic " << m_nodeId << ": frame for node " << h.dst << " delivered here");
    switch (h.type)
    {
    case RdmaPacketType::DATA:
        ReceiveData(h);
        break;
    case RdmaPacketType::ACK:
        ReceiveAck(h);
        break;
    case RdmaPacketType::NACK:
        ReceiveNack(h);
        break;
    case RdmaPacketType::CNP:
        ++m_stats.cnpsReceived;
        m_sendQps[h.dstQpn].cc->OnCnp();
        break;
    case RdmaPacketType::PFC:
        break; // consumed by the device
    }
}

void
RdmaNic::ReceiveData(const RdmaHeader& h)
{
    RecvQueuePair& rq = m_recvQps[h.dstQpn];
    const Time now = Simulator::Now();
    if (h.ecn == RdmaHeader::CE && now - rq.lastCnp >= m_cnpInterval)
    {
        rq.lastCnp = now;
        ++m_stats.cnpsSent;
        SendControl(RdmaPacketType::CNP, rq.peerNode, rq.peerQpn, rq.sport, 0);
    }
    if (h.psn == rq.expectedPsn)
    {
        ++rq.expectedPsn;
        rq.bytesReceived += h.payload;
        m_stats.payloadBytesDelivered += h.payload;
        if (++rq.sinceAck >= m_ackInterval || (h.flags & RdmaHeader::FLAG_ACK_REQUEST))
        {
            rq.sinceAck = 0;
            ++m_stats.acksSent;
            SendControl(RdmaPacketType::ACK, rq.peerNode, rq.peerQpn, rq.sport, h.psn);
        }
    }
    else if (h.psn > rq.expectedPsn)
    {
        // Go-back-N: drop, and ask once per hole (again after NackInterval).
        ++m_stats.outOfOrderPackets;
        if (rq.nackedPsn != rq.expectedPsn || now - rq.lastNack >= m_nackInterval)
        {
            rq.nackedPsn = rq.expectedPsn;
            rq.lastNack = now;
            ++m_stats.nacksSent;
            SendControl(RdmaPacketType::NACK, rq.peerNode, rq.peerQpn, rq.sport, rq.expectedPsn);
        }
    }
    else if (h.flags & RdmaHeader::FLAG_ACK_REQUEST)
    {
        // Duplicate (our ACK was lost or late): acknowledge what we have.
        ++m_stats.acksSent;
        SendControl(RdmaPacketType::ACK, rq.peerNode, rq.peerQpn, rq.sport, rq.expectedPsn - 1);
    }
}

void
RdmaNic::Acknowledge(SendQueuePair& qp, uint32_t newUna)
{
    if (newUna <= qp.sndUna)
    {
        return;
    }
    const uint64_t acked = uint64_t(newUna - qp.sndUna) * m_mtu;
    qp.sndUna = newUna;
    qp.sndNxt = std::max(qp.sndNxt, qp.sndUna);
    qp.lastProgress = Simulator::Now();
    CcAck ack;
    ack.ackedBytes = acked;
    qp.cc->OnAck(ack);
    while (!qp.messages.empty() && qp.messages.front().lastPsn < qp.sndUna)
    {
        const RdmaMessage& m = qp.messages.front();
        Completion c{m_nodeId, qp.qpn, m.flowId, m.bytes, m.posted, Simulator::Now()};
        qp.completedBytes += m.bytes;
        qp.messages.pop_front();
        m_completionTrace(c);
        if (!m_completionCallback.IsNull())
        {
            m_completionCallback(c);
        }
    }
}

void
RdmaNic::ReceiveAck(const RdmaHeader& h)
{
    SendQueuePair& qp = m_sendQps[h.dstQpn];
    Acknowledge(qp, h.psn + 1);
    Reschedule(qp);
}

void
RdmaNic::ReceiveNack(const RdmaHeader& h)
{
    SendQueuePair& qp = m_sendQps[h.dstQpn];
    Acknowledge(qp, h.psn);
    qp.cc->OnNack();
    GoBack(qp, h.psn);
}

void
RdmaNic::GoBack(SendQueuePair& qp, uint32_t psn)
{
    qp.lastProgress = Simulator::Now();
    if (psn < qp.sndNxt)
    {
        qp.sndNxt = std::max(psn, qp.sndUna);
    }
    Reschedule(qp);
}

void
RdmaNic::ArmRto(SendQueuePair& qp, Time at)
{
    qp.rto = Simulator::Schedule(at - Simulator::Now(), &RdmaNic::RtoExpired, this, qp.qpn);
}

void
RdmaNic::RtoExpired(uint32_t qpn)
{
    SendQueuePair& qp = m_sendQps[qpn];
    if (!qp.HasOutstanding())
    {
        return; // everything sent is acknowledged: the timer stops until the next send
    }
    const Time now = Simulator::Now();
    if (now - qp.lastProgress < m_rto)
    {
        ArmRto(qp, qp.lastProgress + m_rto); // progress since arming: not expired yet
        return;
    }
    ++m_stats.timeouts;
    qp.cc->OnTimeout();
    GoBack(qp, qp.sndUna);
    ArmRto(qp, now + m_rto);
}

} // namespace ns3
