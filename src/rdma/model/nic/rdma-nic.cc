/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/go-back-n.h"
#include "ns3/int-hop.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/no-congestion-control.h"
#include "ns3/node.h"
#include "ns3/per-qp-entropy.h"
#include "ns3/pint-code.h"
#include "ns3/pointer.h"
#include "ns3/rdma-sim.h"
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
/// Today's RoCEv2 behaviour: one UDP source port per QP (PerQpEntropy). By TypeId, not
/// by name: this runs while the types are being registered.
ObjectFactory
DefaultPathFactory()
{
    ObjectFactory f;
    f.SetTypeId(PerQpEntropy::GetTypeId());
    return f;
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
            .AddAttribute("PintBits",
                          "Bits of PINT's value (PintCode) in the data packets of QPs whose "
                          "controller reads it (HOOK_PINT) and in their ACKs: ceil(bits/8) "
                          "header bytes; the switches' PintBits must be the same. Default 8 "
                          "(PINT's HPCC use case).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RdmaNic::m_pintBits),
                          MakeUintegerChecker<uint8_t>(PintCode::kMinBits, PintCode::kMaxBits))
            .AddAttribute("LossRecovery",
                          "The loss-recovery policy (a LossRecovery: GoBackN, RoCE's, by "
                          "default; SelectiveRepeat, IRN's; DirectPlacement); one instance "
                          "may serve every NIC.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNic::m_recovery),
                          MakePointerChecker<LossRecovery>())
            .AddAttribute("PathSelector",
                          "The entropy (UDP source port) of each data packet: a PathSelector "
                          "(PerQpEntropy, the QP's own port, by default; "
                          "ObliviousPathSelector, BitmapPathSelector, RepsPathSelector).",
                          ObjectFactoryValue(DefaultPathFactory()),
                          MakeObjectFactoryAccessor(&RdmaNic::m_pathFactory),
                          MakeObjectFactoryChecker())
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
            .AddAttribute("HostRx",
                          "The receiving host behind this NIC (HostRxModel): the responder "
                          "answers a data packet only once the host is done with it, and "
                          "echoes the hold time in the ACK. Null (default): no host delay.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNic::m_hostRx),
                          MakePointerChecker<HostRxModel>())
            .AddTraceSource("MessageComplete",
                            "A message has been fully acknowledged.",
                            MakeTraceSourceAccessor(&RdmaNic::m_completionTrace),
                            "ns3::RdmaNic::CompletionTracedCallback")
            .AddTraceSource("MessageDelivered",
                            "A message has arrived whole at this responder: its last packet "
                            "and every packet before it on the QP (node, receive QP number).",
                            MakeTraceSourceAccessor(&RdmaNic::m_deliveryTrace),
                            "ns3::RdmaNic::DeliveryTracedCallback");
    return tid;
}

RdmaNic::RdmaNic()
    : m_mtu(1024),
      m_ackInterval(1),
      m_window(0),
      m_ecnCapable(true),
      m_pintBits(8),
      m_inflightCap(0),
      m_cnpOnOutOfOrder(false),
      m_perDestination(false),
      m_probeRequestPriority(-1),
      m_probeResponsePriority(-1),
      m_pathFactory(DefaultPathFactory()),
      m_nodeId(0),
      m_wake(this),
      m_wakePs(0),
      m_inPull(false)
{
    m_ccFactory.SetTypeId(NoCongestionControl::GetTypeId());
    m_ccRng = CreateObject<UniformRandomVariable>();
}

Ptr<HostRxModel>
RdmaNic::GetHostRx() const
{
    return m_hostRx;
}

int64_t
RdmaNic::AssignStreams(int64_t stream)
{
    m_ccRng->SetStream(stream);
    return 1;
}

void
RdmaNic::DoDispose()
{
    for (auto& qp : m_sendQps)
    {
        qp.rto.Cancel();
        qp.cc = nullptr;
    }
    m_qpPaths.clear();
    m_sharedPaths = nullptr;
    for (auto& l : m_limiters)
    {
        l.probeTimer.Cancel();
        l.cc = nullptr;
    }
    m_wake.Cancel();
    m_device = nullptr;
    m_recovery = nullptr;
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
    if (!m_recovery)
    {
        m_recovery = CreateObject<GoBackN>();
    }
    device->SetOwner(this, 0, true);
}

void
RdmaNic::FrameReceived(uint32_t /* port */, RdmaNetDevice* /* dev */, const Ptr<RdmaFrame>& f)
{
    Receive(f->header); // the NIC reads only the header
}

Ptr<RdmaFrame>
RdmaNic::PullFrame(uint32_t /* port */, uint8_t pausedMask)
{
    return Pull(pausedMask);
}

bool
RdmaNic::HasFramesToPull(uint32_t /* port */) const
{
    return !m_scheduler.IsEmpty();
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
    // Whether its controllers read their peer group's rates (every QP of the NIC counts
    // in them then, exempt ones too, as they always have).
    m_trackPeerRates = (m_ccFactory.Create<CongestionControl>()->ImplementedHooks() &
                        CongestionControl::HOOK_PEER_RATES) != 0;
}

void
RdmaNic::SetCcContextFor(uint32_t peerNode, Time baseRtt, uint32_t hops)
{
    m_paths[peerNode] = PathInfo{baseRtt, hops};
}

void
RdmaNic::SetFabricBaseRtt(Time rtt)
{
    m_fabricBaseRtt = rtt;
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
    m.posted = RdmaSim::Now();
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
    qp.NoteFront();
    if (!qp.active && qp.peers)
    {
        qp.active = true;
        ++qp.peers->activeQps;
        ++m_nicGroup.activeQps;
        qp.cc->OnSendEvent(CcSendEvent::PEERS_CHANGED);
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
        Completion c{m_nodeId, qpn, m.flowId, 0, m.posted, RdmaSim::Now()};
        qp.nextPsn = m.firstPsn;
        qp.messages.pop_back();
        qp.NoteFront();
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
    qp.NoteFront();
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

void
RdmaNic::SetDeliveryCallback(DeliveryCallback cb)
{
    m_deliveryCallback = cb;
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

void
RdmaNic::Receive(const RdmaHeader& h)
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

} // namespace ns3
