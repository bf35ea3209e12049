/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-switch.h"

#include "ns3/abort.h"
#include "ns3/ecmp-load-balancer.h"
#include "ns3/int-hop.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pint-code.h"
#include "ns3/pointer.h"
#include "ns3/rdma-sim.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwitch");
NS_OBJECT_ENSURE_REGISTERED(RdmaSwitch);

TypeId
RdmaSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSwitch")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSwitch>()
            .AddAttribute("PauseQuanta",
                          "Pause time of a PFC pause frame, in 512-bit-time quanta; the switch "
                          "refreshes it at half time while congested.",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&RdmaSwitch::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(2))
            .AddAttribute("PintBits",
                          "Bits of PINT's value (PintCode) that the egresses write into PINT "
                          "data packets (1 to 16; the code's log base follows from it). "
                          "Default 8 (PINT's HPCC use case).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RdmaSwitch::SetPintBits, &RdmaSwitch::GetPintBits),
                          MakeUintegerChecker<uint32_t>(PintCode::kMinBits, PintCode::kMaxBits))
            .AddAttribute("Mmu",
                          "The shared-buffer MMU.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaSwitch::m_mmu),
                          MakePointerChecker<SwitchMmu>())
            .AddAttribute("Trimmer",
                          "Packet trimming: DATA frames the MMU refuses are cut to their "
                          "header (PacketTrimmer); none (the default): they are dropped.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaSwitch::m_trimmer),
                          MakePointerChecker<PacketTrimmer>())
            .AddTraceSource("Pfc",
                            "A PFC frame is sent upstream: ingress port, class, PfcEvent.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_pfcTrace),
                            "ns3::RdmaSwitch::PfcTracedCallback")
            .AddTraceSource("Drop",
                            "A frame was dropped: frame, ingress port, egress port (the "
                            "ingress when it had no route), reason (DropReasonName).",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_dropTrace),
                            "ns3::RdmaSwitch::DropTracedCallback")
            .AddTraceSource("Mark",
                            "An ECN-capable frame is CE-marked as it leaves an egress queue: "
                            "frame, egress port, reason (MarkReasonName).",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_markTrace),
                            "ns3::RdmaSwitch::MarkTracedCallback")
            .AddTraceSource("Trim",
                            "A refused DATA frame was trimmed to its header: frame (as "
                            "trimmed), ingress port, egress port, reason the frame was refused "
                            "(DropReasonName).",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_trimTrace),
                            "ns3::RdmaSwitch::TrimTracedCallback");
    return tid;
}

RdmaSwitch::RdmaSwitch()
    : m_mmu(CreateObject<SwitchMmu>()),
      m_lb(CreateObject<EcmpLoadBalancer>()),
      m_stormDropping(0),
      m_pauseQuanta(0xffff),
      m_nodeId(0),
      m_forwarded(0)
{
}

void
RdmaSwitch::DoDispose()
{
    if (m_watchdog)
    {
        m_watchdog->Dispose();
    }
    m_watchdog = nullptr;
    m_pauseTracker = nullptr;
    m_ports.clear();
    m_mmu = nullptr;
    m_trimmer = nullptr;
    m_lb = nullptr;
    Object::DoDispose();
}

void
RdmaSwitch::NotifyNewAggregate()
{
    if (Ptr<Node> node = GetObject<Node>())
    {
        m_nodeId = node->GetId();
    }
    Object::NotifyNewAggregate();
}

uint32_t
RdmaSwitch::AddPort(Ptr<RdmaNetDevice> device)
{
    const uint32_t port = m_ports.size();
    m_ports.push_back(device);
    m_stats.emplace_back();
    m_pausedUpstream.push_back(0);
    m_stormDrop.push_back(0);
    m_refresh.emplace_back();
    m_mmu->SetPortCount(m_ports.size());
    device->SetOwner(this, port);
    return port;
}

uint32_t
RdmaSwitch::GetNPorts() const
{
    return m_ports.size();
}

Ptr<RdmaNetDevice>
RdmaSwitch::GetPort(uint32_t port) const
{
    return m_ports.at(port);
}

void
RdmaSwitch::SetRoute(uint32_t dst, const std::vector<uint32_t>& ports)
{
    m_routes.Set(dst, ports);
}

const std::vector<uint32_t>&
RdmaSwitch::GetRoute(uint32_t dst) const
{
    return m_routes.Get(dst);
}

void
RdmaSwitch::SetLoadBalancer(Ptr<LoadBalancer> lb)
{
    m_lb = lb;
    m_lb->Attach(this);
}

Ptr<LoadBalancer>
RdmaSwitch::GetLoadBalancer() const
{
    return m_lb;
}

Ptr<SwitchMmu>
RdmaSwitch::GetMmu() const
{
    return m_mmu;
}

const RdmaSwitch::PortStats&
RdmaSwitch::GetPortStats(uint32_t port) const
{
    return m_stats.at(port);
}

uint64_t
RdmaSwitch::GetForwardedFrames() const
{
    return m_forwarded;
}

uint32_t
RdmaSwitch::GetNodeId() const
{
    return m_nodeId;
}

void
RdmaSwitch::SetPintBaseRtt(Time t)
{
    m_pint.SetBaseRtt(t);
}

int64_t
RdmaSwitch::AssignPintStream(int64_t stream)
{
    return m_pint.AssignStream(stream);
}

double
RdmaSwitch::GetPintUtilization(uint32_t port) const
{
    return m_pint.GetUtilization(port);
}

void
RdmaSwitch::SetPintBits(uint32_t bits)
{
    m_pint.SetBits(bits);
}

uint32_t
RdmaSwitch::GetPintBits() const
{
    return m_pint.GetBits();
}

uint64_t
RdmaSwitch::GetQueuedBytes(uint32_t port) const
{
    return m_mmu->GetEgressPortBytes(port);
}

bool
RdmaSwitch::IsPaused(uint32_t port, uint8_t priority) const
{
    return m_ports[port]->IsPaused(priority);
}

void
RdmaSwitch::FrameReceived(uint32_t inPort, RdmaNetDevice* /* dev */, const Ptr<RdmaFrame>& f)
{
    const RdmaHeader& h = f->header;
    const uint8_t prio = h.priority;
    const std::vector<uint32_t>* candidates = nullptr;
    uint32_t outPort = m_routes.Route(h.dst, &candidates);
    if (outPort == RouteTable::kNotSingle)
    {
        if (candidates->empty())
        {
            // Unreachable (a link went down): drop, counted on the ingress port.
            CountDrop(*f, inPort, inPort, DropReason::NO_ROUTE);
            return;
        }
        outPort = m_lb->SelectPort(h, *candidates);
    }
    const uint32_t bytes = f->GetSize();
    if (m_stormDropping != 0 && (m_stormDrop[outPort] & (1u << prio)))
    {
        CountDrop(*f, inPort, outPort, DropReason::PFC_WATCHDOG);
        return;
    }
    DropReason why;
    if (!m_mmu->Admit(inPort, outPort, prio, bytes, &why) &&
        !(m_trimmer && TrimRefused(*f, inPort, outPort, why)))
    {
        CountDrop(*f, inPort, outPort, why);
        return;
    }
    // (h.priority, not prio, from here: a trimmed frame has moved to the trim class.)
    ++m_forwarded;
    if (m_mmu->ShouldPause(inPort, h.priority))
    {
        // One pause frame per such frame under the per-packet rule; this switch sends one
        // per episode (and its refreshes).
        ++m_stats[inPort].pausesPerPacketRule;
        if (!(m_pausedUpstream[inPort] & (1u << h.priority)))
        {
            Pause(inPort, h.priority);
        }
    }
    // FrameDequeued gets the ingress port, and whether to stamp INT, from the frame's meta.
    // (ACKs carry the echoed stack with FLAG_INT too: only data packets collect records.)
    // (Computed as data: DATA and ACKs mix, and a branch on it would often be mispredicted.)
    const uint32_t stamp =
        static_cast<uint32_t>(h.type == RdmaPacketType::DATA) & ((h.flags >> 2) & 1u);
    static_assert(RdmaHeader::FLAG_INT == 1u << 2, "FLAG_INT is bit 2");
    f->meta = inPort | (stamp * kMetaInt);
    m_ports[outPort]->Enqueue(f, h.priority);
}

void
RdmaSwitch::FrameDequeued(uint32_t outPort, RdmaFrame& f, uint8_t priority)
{
    const uint32_t inPort = f.meta & ~kMetaInt;
    const uint32_t bytes = f.GetSize();
    RdmaHeader& h = f.header;
    // A frame discarded because its link went down (LINK_DOWN, counted by the port) only
    // gives its buffer back: it neither is marked nor collects an INT record.
    const bool leaving = m_ports[outPort]->IsLinkUp();
    // Mark on the queue the frame has just waited in (as the HPCC simulator does).
    MarkReason why;
    const bool mark = leaving && m_mmu->ShouldMarkEcn(outPort, priority, &why);
    const bool stamp = leaving & ((f.meta & kMetaInt) != 0); // (no branch, as above)
    const bool pint = leaving && h.pintBytes != 0 && h.type == RdmaPacketType::DATA;
    if (mark || stamp || pint)
    {
        // Edit the header that travels with the frame (HeaderChanged keeps its size and
        // any Packet made of it in step).
        const uint32_t oldHeaderBytes = h.GetSerializedSize();
        const bool marked = mark && h.ecn != RdmaHeader::NOT_ECT;
        if (marked)
        {
            h.ecn = RdmaHeader::CE;
            ++m_stats[outPort].ecnMarked;
            ++m_stats[outPort].marksByReason[static_cast<std::size_t>(why)];
        }
        if (stamp)
        {
            // INT record of this egress: queue left behind, bytes sent so far, now.
            Ptr<RdmaNetDevice> port = m_ports[outPort];
            h.AppendIntHop(IntHop::Pack(port->GetBitRate(),
                                        RdmaSim::Now().GetNanoSeconds(),
                                        port->GetTxBytes(),
                                        m_mmu->GetEgressBytes(outPort, priority) - bytes));
        }
        if (pint)
        {
            // PINT: this egress's utilisation, if it is the path's largest so far.
            Ptr<RdmaNetDevice> port = m_ports[outPort];
            h.pintCode = m_pint.Stamp(outPort,
                                      h.pintCode,
                                      RdmaSim::Now().GetNanoSeconds(),
                                      m_mmu->GetEgressBytes(outPort, priority) - bytes,
                                      port->GetTxBytes(),
                                      port->GetBitRate());
        }
        f.HeaderChanged(oldHeaderBytes);
        if (marked && !m_markTrace.IsEmpty())
        {
            m_markTrace(f.GetPacket(), outPort, MarkReasonName(why));
        }
    }
    // The MMU still counts the frame in MarkEcn and in the INT queue length above.
    ReleaseBuffer(inPort, outPort, priority, bytes);
}

void
RdmaSwitch::ReleaseBuffer(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes)
{
    m_mmu->Release(inPort, outPort, priority, bytes);
    if ((m_pausedUpstream[inPort] & (1u << priority)) && m_mmu->ShouldResume(inPort, priority))
    {
        m_pausedUpstream[inPort] &= ~(1u << priority);
        m_refresh[inPort][priority].Cancel();
        ++m_stats[inPort].resumeFrames;
        m_ports[inPort]->SendPfc(priority, 0);
        m_pfcTrace(inPort, priority, PFC_RESUME);
    }
}

void
RdmaSwitch::CountDrop(RdmaFrame& f, uint32_t inPort, uint32_t outPort, DropReason why)
{
    const uint32_t bytes = f.GetSize();
    PortStats& s = m_stats[outPort];
    // (Frames without a route are counted in the ingress's reasons only.)
    if (why != DropReason::NO_ROUTE)
    {
        ++s.drops;
        s.dropBytes += bytes;
    }
    ++s.dropsByReason[static_cast<std::size_t>(why)];
    s.droppedByReason[static_cast<std::size_t>(why)].Add(f, bytes);
    if (!m_dropTrace.IsEmpty())
    {
        m_dropTrace(f.GetPacket(), inPort, outPort, DropReasonName(why));
    }
}

Ptr<PfcPauseTracker>
RdmaSwitch::GetPauseTracker()
{
    if (!m_pauseTracker)
    {
        m_pauseTracker = Create<PfcPauseTracker>(m_ports);
    }
    return m_pauseTracker;
}

void
RdmaSwitch::SetPfcWatchdog(Ptr<PfcWatchdog> watchdog)
{
    m_watchdog = watchdog;
}

Ptr<PfcWatchdog>
RdmaSwitch::GetPfcWatchdog() const
{
    return m_watchdog;
}

void
RdmaSwitch::SetStormDrop(uint32_t port, uint8_t priority, bool on)
{
    const uint8_t bit = 1u << priority;
    if (!on)
    {
        if (m_stormDrop[port] & bit)
        {
            m_stormDrop[port] &= ~bit;
            --m_stormDropping;
        }
        return;
    }
    if (!(m_stormDrop[port] & bit))
    {
        m_stormDrop[port] |= bit;
        ++m_stormDropping;
    }
    while (Ptr<RdmaFrame> f = m_ports[port]->TakeQueuedHead(priority))
    {
        CountDrop(*f, f->meta & ~kMetaInt, port, DropReason::PFC_WATCHDOG);
        ReleaseBuffer(f->meta & ~kMetaInt, port, priority, f->GetSize());
    }
}

bool
RdmaSwitch::HoldsFramesFrom(uint32_t outPort, uint8_t priority, uint32_t inPort) const
{
    for (const RdmaFrame* f : m_ports[outPort]->GetQueue(priority))
    {
        if ((f->meta & ~kMetaInt) == inPort)
        {
            return true;
        }
    }
    return false;
}

Time
RdmaSwitch::PauseDuration(uint32_t port) const
{
    const uint64_t ps =
        SerializationClock::Picoseconds(uint64_t(m_pauseQuanta) * rdmawire::kPfcQuantumBytes,
                                        m_ports[port]->GetBitRate());
    return PicoSeconds(ps);
}

void
RdmaSwitch::Pause(uint32_t inPort, uint8_t priority)
{
    m_pausedUpstream[inPort] |= (1u << priority);
    ++m_stats[inPort].pauseFrames;
    ++m_stats[inPort].pauseEpisodes;
    m_ports[inPort]->SendPfc(priority, m_pauseQuanta);
    m_pfcTrace(inPort, priority, PFC_PAUSE);
    m_refresh[inPort][priority] = Simulator::Schedule(PauseDuration(inPort) / 2,
                                                      &RdmaSwitch::Refresh,
                                                      this,
                                                      inPort,
                                                      priority);
}

void
RdmaSwitch::Refresh(uint32_t inPort, uint8_t priority)
{
    ++m_stats[inPort].pauseFrames;
    m_ports[inPort]->SendPfc(priority, m_pauseQuanta);
    m_pfcTrace(inPort, priority, PFC_REFRESH);
    m_refresh[inPort][priority] = Simulator::Schedule(PauseDuration(inPort) / 2,
                                                      &RdmaSwitch::Refresh,
                                                      this,
                                                      inPort,
                                                      priority);
}

} // namespace ns3
