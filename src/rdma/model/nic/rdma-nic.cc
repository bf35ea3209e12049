/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/int-hop.h"
#include "ns3/integer.h"
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
            .AddAttribute("LossRecovery",
                          "GoBackN (RoCE default) or SelectiveRepeat (IRN).",
                          EnumValue(GO_BACK_N),
                          MakeEnumAccessor(&RdmaNic::m_lossRecovery),
                          MakeEnumChecker(GO_BACK_N,
                                          "GoBackN",
                                          SELECTIVE_REPEAT,
                                          "SelectiveRepeat",
                                          DIRECT_PLACEMENT,
                                          "DirectPlacement"))
            .AddAttribute("EntropyChangePackets",
                          "Host-side spraying: change the UDP source port (ECMP entropy) every "
                          "N packets of a QP; 0 = one port per QP.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNic::m_entropyChangePackets),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RtoLow",
                          "Selective repeat: timeout with few packets in flight (IRN: 100 us).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaNic::m_rtoLow),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("RtoHigh",
                          "Selective repeat: timeout otherwise (IRN: 320 us).",
                          TimeValue(MicroSeconds(320)),
                          MakeTimeAccessor(&RdmaNic::m_rtoHigh),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("RtoLowThreshold",
                          "Selective repeat: RtoLow applies up to this many packets in flight "
                          "(IRN: 3).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaNic::m_rtoLowThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InflightCap",
                          "At most this many packets in flight per QP, 0 = none (IRN's BDP-FC: "
                          "ceil(BDP / MTU); the scenario runner derives it).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNic::m_inflightCap),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CnpOnOutOfOrder",
                          "A NACK for an out-of-sequence packet also counts as a CNP (as recent "
                          "NICs do; DCQCN then slows down on reordering).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaNic::m_cnpOnOutOfOrder),
                          MakeBooleanChecker())
            .AddAttribute("RateLimitPerDestination",
                          "All QPs to one destination share one controller and rate (false: "
                          "one per QP).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaNic::m_perDestination),
                          MakeBooleanChecker())
            .AddAttribute("ProbeTimeout",
                          "First timeout of an RTT probe; doubles on each unanswered probe.",
                          TimeValue(MicroSeconds(300)),
                          MakeTimeAccessor(&RdmaNic::m_probeTimeout),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("ProbeRequestPriority",
                          "Class of RTT probe requests; -1 = the QP's data class.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&RdmaNic::m_probeRequestPriority),
                          MakeIntegerChecker<int32_t>(-1, kRdmaNumPriorities - 1))
            .AddAttribute("ProbeResponsePriority",
                          "Class of RTT probe responses; -1 = the port's strict class.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&RdmaNic::m_probeResponsePriority),
                          MakeIntegerChecker<int32_t>(-1, kRdmaNumPriorities - 1))
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
      m_lossRecovery(GO_BACK_N),
      m_rtoLowThreshold(3),
      m_inflightCap(0),
      m_cnpOnOutOfOrder(false),
      m_perDestination(false),
      m_probeRequestPriority(-1),
      m_probeResponsePriority(-1),
      m_entropyChangePackets(0),
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
    for (auto& l : m_limiters)
    {
        l.probeTimer.Cancel();
        l.cc = nullptr;
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

void
RdmaNic::SetFabricBaseRtt(Time rtt)
{
    m_fabricBaseRtt = rtt;
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
    if (!m_perDestination)
    {
        if (m_peerGroups.size() <= peerNode)
        {
            m_peerGroups.resize(peerNode + 1); // a deque: earlier groups stay in place
        }
        qp.peers = &m_peerGroups[peerNode];
    }
    const uint32_t none = std::numeric_limits<uint32_t>::max();
    if (m_perDestination && peerNode < m_destinationLimiter.size() &&
        m_destinationLimiter[peerNode] != none)
    {
        qp.limiter = m_destinationLimiter[peerNode];
    }
    else
    {
        qp.limiter = AddLimiter(m_ccFactory.Create<CongestionControl>(), peerNode, qp.peers);
        if (m_perDestination)
        {
            if (m_destinationLimiter.size() <= peerNode)
            {
                m_destinationLimiter.resize(peerNode + 1, none);
            }
            m_destinationLimiter[peerNode] = qp.limiter;
        }
    }
    qp.cc = m_limiters[qp.limiter].cc;
    m_sendQps.push_back(std::move(qp));
    return m_sendQps.size() - 1;
}

uint32_t
RdmaNic::AddLimiter(Ptr<CongestionControl> cc, uint32_t peerNode, CcPeerGroup* peers)
{
    RateLimiter limiter;
    limiter.cc = cc;
    limiter.probeTimeout = m_probeTimeout;
    CcContext ctx;
    ctx.lineRate = m_device->GetBitRate();
    ctx.mtu = m_mtu;
    ctx.fabricBaseRtt = m_fabricBaseRtt;
    if (peerNode < m_paths.size())
    {
        ctx.baseRtt = m_paths[peerNode].baseRtt;
        ctx.hops = m_paths[peerNode].hops;
    }
    ctx.peers = peers;
    limiter.cc->Init(ctx);
    m_limiters.push_back(limiter);
    return m_limiters.size() - 1;
}

void
RdmaNic::ExemptFromCongestionControl(uint32_t qpn)
{
    NS_ABORT_MSG_IF(qpn >= m_sendQps.size(), "RdmaNic: no send QP " << qpn);
    SendQueuePair& qp = m_sendQps[qpn];
    NS_ABORT_MSG_IF(qp.active || qp.started, "RdmaNic: exempt QP " << qpn << " before it is used");
    // Its own limiter at line rate, outside its peer group (it does not take a share).
    qp.peers = nullptr;
    qp.limiter = AddLimiter(CreateObject<NoCongestionControl>(), qp.peerNode, nullptr);
    qp.cc = m_limiters[qp.limiter].cc;
}

Ptr<CongestionControl>
RdmaNic::GetCongestionControl(uint32_t qpn) const
{
    return m_sendQps.at(qpn).cc;
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
    if (!qp.active && qp.peers)
    {
        qp.active = true;
        ++qp.peers->activeQps;
        qp.cc->OnPeersChanged();
    }
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
        LeavePeerGroupIfDone(qp);
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
    // Everything sent may already be acknowledged: then no ACK is coming to complete it.
    CompleteAcknowledged(qp);
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
    const uint32_t inflight = qp.sndNxt - qp.sndUna;
    if (m_inflightCap > 0 && inflight >= m_inflightCap && !qp.InRecovery())
    {
        return true;
    }
    uint64_t window = qp.cc->GetWindow();
    if (m_window > 0)
    {
        window = window > 0 ? std::min(window, m_window) : m_window;
    }
    return window > 0 && uint64_t(inflight) * m_mtu >= window;
}

void
RdmaNic::SkipReported(SendQueuePair& qp)
{
    while (qp.InRecovery())
    {
        const uint32_t offset = qp.retxNext - qp.sndUna;
        if (qp.retxNext >= qp.sndUna && !(offset < qp.sacked.size() && qp.sacked[offset]))
        {
            return; // a hole
        }
        ++qp.retxNext;
    }
}

void
RdmaNic::Reschedule(SendQueuePair& qp)
{
    SkipReported(qp);
    if (qp.state != SendQueuePair::State::IDLE || !qp.HasUnsent() || WindowFull(qp))
    {
        return;
    }
    const uint64_t now = NowPs();
    const uint64_t due = m_limiters[qp.limiter].nextSendPs;
    // Inside Pull the port is about to send and will pull again when it is free, so
    // neither a kick nor a wake-up is needed (a kick would even re-enter Pull).
    if (due <= now)
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
        m_scheduler.PushWaiting(qp.qpn, due, ++qp.waitGeneration);
        if (!m_inPull)
        {
            ArmWake(due);
        }
    }
}

Ptr<Packet>
RdmaNic::Pull(uint8_t pausedMask)
{
    const uint64_t now = NowPs();
    m_scheduler.Unpark(pausedMask);
    m_scheduler.ReleaseDue(now, [this](uint32_t qpn, uint32_t generation) {
        return m_sendQps[qpn].waitGeneration == generation;
    });
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
        SkipReported(qp);
        if (!qp.HasUnsent() || WindowFull(qp))
        {
            qp.state = SendQueuePair::State::IDLE;
            continue;
        }
        RateLimiter& limiter = m_limiters[qp.limiter];
        if (limiter.nextSendPs <= now)
        {
            // A controller pacing by credit may hold the packet back further (also
            // the QP's first, lastWire 0).
            const Time wait = limiter.cc->PacingDelay(limiter.lastWire);
            if (wait.IsStrictlyPositive())
            {
                limiter.nextSendPs = now + CappedWaitPs(limiter, wait.GetPicoSeconds());
            }
        }
        if (limiter.nextSendPs > now)
        {
            qp.state = SendQueuePair::State::WAITING;
            m_scheduler.PushWaiting(qpn, limiter.nextSendPs, ++qp.waitGeneration);
            continue;
        }
        Ptr<Packet> p;
        if (!limiter.probeOutstanding && limiter.cc->WantsProbe())
        {
            // The probe takes this turn; the QP stays ready for its data.
            p = MakeProbePacket(qp);
            qp.state = SendQueuePair::State::READY;
            m_scheduler.PushReady(qpn);
            return p;
        }
        p = MakeDataPacket(qp);
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
    // Selective repeat resends the holes of the recovery window first (SkipReported
    // has left retxNext on a hole, if any remain).
    const bool hole = qp.InRecovery();
    const bool wasIdle = !qp.HasOutstanding(); // nothing in flight before this packet
    const uint32_t psn = hole ? qp.retxNext++ : qp.sndNxt;
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
    if (qp.cc->NeedsInt())
    {
        h.flags |= RdmaHeader::FLAG_INT;
    }
    h.type = RdmaPacketType::DATA;
    h.priority = qp.priority;
    h.ecn = m_ecnCapable ? RdmaHeader::ECT0 : RdmaHeader::NOT_ECT;
    h.src = m_nodeId;
    h.dst = qp.peerNode;
    h.sport = qp.sport;
    if (m_entropyChangePackets > 0)
    {
        // A new entropy value every N packets, spread over the dynamic port range.
        const uint32_t epoch = psn / m_entropyChangePackets;
        h.sport = 49152 + ((qp.sport * 40503u + epoch) * 2654435761u >> 12) % 16384;
    }
    h.dstQpn = qp.peerQpn;
    h.psn = psn;
    h.payload = payload;
    h.timestamp = Simulator::Now().GetNanoSeconds();

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
    if (!hole)
    {
        ++qp.sndNxt;
    }

    // Pace: the next packet may leave once this one has left at the limiter's rate.
    // At line rate the port itself is the pacer: pacing too would leave sub-ns gaps
    // between the port's (ns-rounded) free time and the exact due time.
    RateLimiter& limiter = m_limiters[qp.limiter];
    if (!qp.started)
    {
        qp.started = true;
        qp.cc->OnFirstSend();
    }
    const uint64_t rate = qp.cc->GetRate();
    NotePeerRate(qp, rate);
    qp.cc->OnSend(payload);
    const uint64_t now = NowPs();
    const uint32_t wire = rdmawire::WireBytes(RdmaPacketType::DATA, payload);
    limiter.nextSendPs =
        rate >= m_device->GetBitRate()
            ? now
            : now + CappedWaitPs(limiter,
                                 SerializationClock::Picoseconds(wire,
                                                                 std::max<uint64_t>(rate, 1)));
    limiter.lastSendPs = now;
    limiter.lastWire = wire;
    if (wasIdle || !qp.rto.IsRunning())
    {
        // The timeout counts from the oldest unacknowledged packet: a QP that sends
        // again after everything was acknowledged starts a new wait, even if the timer
        // armed for an earlier packet is still pending (it re-arms from lastProgress).
        qp.lastProgress = Simulator::Now();
    }
    if (!qp.rto.IsRunning())
    {
        ArmRto(qp, Simulator::Now() + CurrentRto(qp));
    }
    return CreateRdmaFrame(h);
}

Ptr<Packet>
RdmaNic::MakeProbePacket(SendQueuePair& qp)
{
    RateLimiter& limiter = m_limiters[qp.limiter];
    limiter.probeOutstanding = true;
    ++m_stats.probesSent;
    limiter.probeTimer = Simulator::Schedule(limiter.probeTimeout,
                                             &RdmaNic::ProbeExpired,
                                             this,
                                             qp.limiter);
    RdmaHeader h;
    h.type = RdmaPacketType::PROBE;
    h.priority = m_probeRequestPriority >= 0 ? m_probeRequestPriority : qp.priority;
    h.ecn = m_ecnCapable ? RdmaHeader::ECT0 : RdmaHeader::NOT_ECT;
    h.src = m_nodeId;
    h.dst = qp.peerNode;
    h.sport = qp.sport;
    h.dstQpn = qp.peerQpn;
    h.timestamp = Simulator::Now().GetNanoSeconds();
    return CreateRdmaFrame(h);
}

void
RdmaNic::ProbeExpired(uint32_t index)
{
    RateLimiter& limiter = m_limiters[index];
    limiter.probeOutstanding = false;
    limiter.probeTimeout = limiter.probeTimeout * 2;
    ++m_stats.probeTimeouts;
    limiter.cc->OnProbeTimeout();
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
RdmaNic::SendAck(const RecvQueuePair& rq,
                 const RdmaHeader& data,
                 RdmaPacketType type,
                 uint32_t psn,
                 uint8_t extraFlags)
{
    RdmaHeader h;
    h.type = type;
    h.priority = m_device->GetStrictPriority();
    h.src = m_nodeId;
    h.dst = rq.peerNode;
    h.sport = rq.sport;
    h.dstQpn = rq.peerQpn;
    h.psn = psn;
    h.sackPsn = data.psn;
    h.timestamp = data.timestamp;
    h.flags = extraFlags;
    if (data.ecn == RdmaHeader::CE)
    {
        h.flags |= RdmaHeader::FLAG_ECN_ECHO;
    }
    if (data.flags & RdmaHeader::FLAG_INT)
    {
        h.flags |= RdmaHeader::FLAG_INT;
        h.intHops = data.intHops;
        h.intStack = data.intStack;
    }
    if (type == RdmaPacketType::ACK)
    {
        ++m_stats.acksSent;
    }
    else
    {
        ++m_stats.nacksSent;
    }
    m_device->Enqueue(CreateRdmaFrame(h), h.priority, 0);
}

void
RdmaNic::SendCnp(const RecvQueuePair& rq)
{
    RdmaHeader h;
    h.type = RdmaPacketType::CNP;
    h.priority = m_device->GetStrictPriority();
    h.src = m_nodeId;
    h.dst = rq.peerNode;
    h.sport = rq.sport;
    h.dstQpn = rq.peerQpn;
    ++m_stats.cnpsSent;
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
    case RdmaPacketType::PROBE:
        ReceiveProbe(h);
        break;
    case RdmaPacketType::PROBE_RESP:
        ReceiveProbeResponse(h);
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
        SendCnp(rq);
    }
    const bool selective = m_lossRecovery == SELECTIVE_REPEAT;
    const bool placement = m_lossRecovery == DIRECT_PLACEMENT;
    if (placement)
    {
        ReceivePlaced(rq, h);
        return;
    }
    if (h.psn == rq.expectedPsn)
    {
        rq.bytesReceived += h.payload;
        m_stats.payloadBytesDelivered += h.payload;
        // It and the packets placed after it are now in sequence.
        if (rq.placed.empty())
        {
            ++rq.expectedPsn;
        }
        else
        {
            rq.placed.front() = true;
            while (!rq.placed.empty() && rq.placed.front())
            {
                rq.placed.pop_front();
                ++rq.expectedPsn;
            }
        }
        if (++rq.sinceAck >= m_ackInterval || (h.flags & RdmaHeader::FLAG_ACK_REQUEST) ||
            selective)
        {
            rq.sinceAck = 0;
            SendAck(rq, h, RdmaPacketType::ACK, rq.expectedPsn - 1, 0);
        }
    }
    else if (h.psn > rq.expectedPsn)
    {
        ++m_stats.outOfOrderPackets;
        const uint8_t cnp = m_cnpOnOutOfOrder ? RdmaHeader::FLAG_CNP : 0;
        if (selective)
        {
            // Place it; NACK = cumulative ACK + the PSN that arrived.
            const uint32_t offset = h.psn - rq.expectedPsn;
            if (rq.placed.size() <= offset)
            {
                rq.placed.resize(offset + 1, false);
            }
            if (!rq.placed[offset])
            {
                rq.placed[offset] = true;
                rq.bytesReceived += h.payload;
                m_stats.payloadBytesDelivered += h.payload;
            }
            SendAck(rq, h, RdmaPacketType::NACK, rq.expectedPsn, cnp);
        }
        else if (rq.nackedPsn != rq.expectedPsn || now - rq.lastNack >= m_nackInterval)
        {
            // Go-back-N: drop, and ask once per hole (again after NackInterval).
            rq.nackedPsn = rq.expectedPsn;
            rq.lastNack = now;
            SendAck(rq, h, RdmaPacketType::NACK, rq.expectedPsn, cnp);
        }
    }
    else if ((h.flags & RdmaHeader::FLAG_ACK_REQUEST) || selective)
    {
        // Duplicate (our ACK was lost or late): acknowledge what we have.
        SendAck(rq, h, RdmaPacketType::ACK, rq.expectedPsn - 1, 0);
    }
}

void
RdmaNic::ReceivePlaced(RecvQueuePair& rq, const RdmaHeader& h)
{
    // Direct placement: any order is fine; new packets are counted once.
    if (h.psn >= rq.expectedPsn)
    {
        const uint32_t offset = h.psn - rq.expectedPsn;
        if (offset > 0)
        {
            ++m_stats.outOfOrderPackets;
        }
        if (rq.placed.size() <= offset)
        {
            rq.placed.resize(offset + 1, false);
        }
        if (!rq.placed[offset])
        {
            rq.placed[offset] = true;
            rq.bytesReceived += h.payload;
            m_stats.payloadBytesDelivered += h.payload;
        }
        while (!rq.placed.empty() && rq.placed.front())
        {
            rq.placed.pop_front();
            ++rq.expectedPsn;
        }
    }
    // Cumulative ACK every AckInterval arrivals, for a duplicate, and as soon as a
    // message's last packet (ACK requested) and everything before it have arrived.
    if (h.flags & RdmaHeader::FLAG_ACK_REQUEST)
    {
        rq.ackRequestedBelow = std::max(rq.ackRequestedBelow, h.psn + 1);
    }
    const bool requested = rq.ackRequestedBelow > 0 && rq.expectedPsn >= rq.ackRequestedBelow;
    if (requested)
    {
        rq.ackRequestedBelow = 0;
    }
    if (++rq.sinceAck >= m_ackInterval || requested || h.psn + 1 < rq.expectedPsn)
    {
        rq.sinceAck = 0;
        SendAck(rq, h, RdmaPacketType::ACK, rq.expectedPsn - 1, 0);
    }
}

void
RdmaNic::ReceiveProbe(const RdmaHeader& h)
{
    RecvQueuePair& rq = m_recvQps[h.dstQpn];
    RdmaHeader r;
    r.type = RdmaPacketType::PROBE_RESP;
    r.priority =
        m_probeResponsePriority >= 0 ? m_probeResponsePriority : m_device->GetStrictPriority();
    r.src = m_nodeId;
    r.dst = rq.peerNode;
    r.sport = rq.sport;
    r.dstQpn = rq.peerQpn;
    r.timestamp = h.timestamp;
    m_device->Enqueue(CreateRdmaFrame(r), r.priority, 0);
}

void
RdmaNic::ReceiveProbeResponse(const RdmaHeader& h)
{
    SendQueuePair& qp = m_sendQps[h.dstQpn];
    RateLimiter& limiter = m_limiters[qp.limiter];
    if (!limiter.probeOutstanding)
    {
        return; // answer to a probe already given up
    }
    limiter.probeTimer.Cancel();
    limiter.probeOutstanding = false;
    limiter.probeTimeout = m_probeTimeout;
    limiter.cc->OnProbeResponse(Simulator::Now() - NanoSeconds(h.timestamp));
    Repace(qp);
    Reschedule(qp);
}

void
RdmaNic::Acknowledge(SendQueuePair& qp, uint32_t newUna, const RdmaHeader& h)
{
    uint64_t acked = 0;
    if (newUna > qp.sndUna)
    {
        acked = uint64_t(newUna - qp.sndUna) * m_mtu;
        // Keep the SACK bitmap aligned with sndUna.
        for (uint32_t i = qp.sndUna; i < newUna && !qp.sacked.empty(); ++i)
        {
            qp.sacked.pop_front();
        }
        qp.sndUna = newUna;
        qp.sndNxt = std::max(qp.sndNxt, qp.sndUna);
        qp.retxNext = std::max(qp.retxNext, qp.sndUna);
        qp.lastProgress = Simulator::Now();
    }
    CcAck ack;
    ack.ackedBytes = acked;
    ack.rtt = h.timestamp > 0 ? Simulator::Now() - NanoSeconds(h.timestamp) : Time(0);
    ack.ecnEcho = h.flags & RdmaHeader::FLAG_ECN_ECHO;
    ack.ackPsn = qp.sndUna;
    ack.sndNxt = qp.sndNxt;
    ack.inflightBytes = uint64_t(qp.sndNxt - qp.sndUna) * m_mtu;
    if (h.flags & RdmaHeader::FLAG_INT)
    {
        ack.intHops = h.intHops;
        ack.intStack = h.intStack;
    }
    qp.cc->OnAck(ack);
    CompleteAcknowledged(qp);
}

void
RdmaNic::CompleteAcknowledged(SendQueuePair& qp)
{
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
    LeavePeerGroupIfDone(qp);
}

void
RdmaNic::NotePeerRate(SendQueuePair& qp, uint64_t rate)
{
    if (!qp.active)
    {
        return;
    }
    // The NIC's view of the rates of its QPs to this destination.
    CcPeerGroup& group = *qp.peers;
    if (!qp.rated)
    {
        qp.rated = true;
        ++group.ratedQps;
        qp.pacedRate = 0;
    }
    group.rateSum = group.rateSum - qp.pacedRate + rate;
    qp.pacedRate = rate;
}

void
RdmaNic::LeavePeerGroupIfDone(SendQueuePair& qp)
{
    if (!qp.active || !qp.messages.empty())
    {
        return;
    }
    CcPeerGroup& group = *qp.peers;
    qp.active = false;
    --group.activeQps;
    qp.cc->OnPeersChanged();
    if (qp.rated)
    {
        qp.rated = false;
        --group.ratedQps;
        group.rateSum -= qp.pacedRate;
        qp.pacedRate = 0;
    }
}

uint64_t
RdmaNic::CappedWaitPs(const RateLimiter& limiter, uint64_t waitPs) const
{
    // A controller pacing by credit asks to be re-checked within PacingRecheck(), so a
    // rate that rises during a long gap takes effect within that time.
    const Time cap = limiter.cc->PacingRecheck();
    return cap == Time::Max() ? waitPs : std::min<uint64_t>(waitPs, cap.GetPicoSeconds());
}

void
RdmaNic::Repace(SendQueuePair& qp)
{
    // The gap after the last packet was fixed at the rate of that moment; if the
    // controller has raised the rate since (an ACK can lift a window-limited Swift from
    // a millisecond gap), shorten the wait to what the new rate implies.
    RateLimiter& limiter = m_limiters[qp.limiter];
    const uint64_t now = NowPs();
    if (limiter.nextSendPs <= now)
    {
        return;
    }
    const uint64_t rate = qp.cc->GetRate();
    const uint64_t due = rate >= m_device->GetBitRate()
                             ? limiter.lastSendPs
                             : limiter.lastSendPs +
                                   SerializationClock::Picoseconds(limiter.lastWire, std::max<uint64_t>(rate, 1));
    const uint64_t earlier = std::max(now, due);
    if (earlier >= limiter.nextSendPs)
    {
        return;
    }
    limiter.nextSendPs = earlier;
    if (qp.state == SendQueuePair::State::WAITING)
    {
        // Re-queue under the earlier time; the old heap entry is now stale.
        m_scheduler.PushWaiting(qp.qpn, earlier, ++qp.waitGeneration);
        if (earlier <= now)
        {
            m_device->TryTransmit();
        }
        else
        {
            ArmWake(earlier);
        }
    }
}

void
RdmaNic::ReceiveAck(const RdmaHeader& h)
{
    SendQueuePair& qp = m_sendQps[h.dstQpn];
    Acknowledge(qp, h.psn + 1, h);
    Repace(qp);
    Reschedule(qp);
}

void
RdmaNic::ReceiveNack(const RdmaHeader& h)
{
    SendQueuePair& qp = m_sendQps[h.dstQpn];
    Acknowledge(qp, h.psn, h);
    if (h.flags & RdmaHeader::FLAG_CNP)
    {
        ++m_stats.cnpsReceived;
        qp.cc->OnCnp();
    }
    qp.cc->OnNack();
    if (m_lossRecovery == SELECTIVE_REPEAT)
    {
        Sack(qp, h.sackPsn);
        Reschedule(qp);
    }
    else
    {
        GoBack(qp, h.psn);
    }
}

void
RdmaNic::Sack(SendQueuePair& qp, uint32_t psn)
{
    if (psn < qp.sndUna || psn >= qp.sndNxt)
    {
        return;
    }
    const uint32_t offset = psn - qp.sndUna;
    if (qp.sacked.size() <= offset)
    {
        qp.sacked.resize(offset + 1, false);
    }
    qp.sacked[offset] = true;
    // Everything below the reported PSN that was not reported is a hole to resend, once
    // per recovery episode: while the cumulative ACK has not passed the episode's high
    // mark the scan goes on from where it is (a later NACK only adds the PSNs above the
    // old mark); once it has, a new episode scans from the cumulative ACK.
    if (qp.sndUna > qp.recoverHigh)
    {
        qp.retxNext = qp.sndUna;
    }
    qp.recoverHigh = std::max(qp.recoverHigh, psn);
    qp.lastProgress = Simulator::Now();
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

Time
RdmaNic::CurrentRto(const SendQueuePair& qp) const
{
    const Time wanted = qp.cc->GetRetransmissionTimeout();
    if (wanted.IsStrictlyPositive())
    {
        return wanted;
    }
    if (m_lossRecovery != SELECTIVE_REPEAT)
    {
        return m_rto;
    }
    return qp.sndNxt - qp.sndUna <= m_rtoLowThreshold ? m_rtoLow : m_rtoHigh;
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
    const Time rto = CurrentRto(qp);
    if (now - qp.lastProgress < rto)
    {
        ArmRto(qp, qp.lastProgress + rto); // progress since arming: not expired yet
        return;
    }
    ++m_stats.timeouts;
    qp.cc->OnTimeout();
    if (m_lossRecovery == SELECTIVE_REPEAT)
    {
        // Resend every unreported PSN that was sent.
        qp.retxNext = qp.sndUna;
        qp.recoverHigh = qp.sndNxt;
        qp.lastProgress = now;
        Reschedule(qp);
    }
    else
    {
        GoBack(qp, qp.sndUna);
    }
    ArmRto(qp, now + CurrentRto(qp));
}

} // namespace ns3
