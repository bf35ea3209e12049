/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/switch-mmu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/dynamic-threshold-policy.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMmu");
NS_OBJECT_ENSURE_REGISTERED(SwitchMmu);

TypeId
SwitchMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchMmu")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<SwitchMmu>()
            .AddAttribute("BufferSize",
                          "Total packet buffer (bytes). HPCC paper: 32 MB for a 100G switch.",
                          UintegerValue(32 * 1024 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_bufferSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("PfcEnabled",
                          "Lossless classes use PFC; when false every class is lossy.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SwitchMmu::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("DynamicXoff",
                          "Xoff = PfcAlpha x free shared buffer (true) or StaticXoff (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SwitchMmu::m_dynamicXoff),
                          MakeBooleanChecker())
            .AddAttribute("StaticXoff",
                          "Static Xoff threshold per ingress (port, class) (bytes).",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_staticXoff),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("PfcAlpha",
                          "Dynamic Xoff factor (HPCC simulator: 1/8).",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SwitchMmu::m_pfcAlpha),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("XonDelta",
                          "Hysteresis: resume when the ingress counter is this far below Xoff "
                          "(bytes).",
                          UintegerValue(2 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_xonDelta),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EgressAlpha",
                          "Lossy classes, dynamic_threshold policy: drop when an egress queue "
                          "exceeds this factor x free shared buffer.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SwitchMmu::m_egressAlpha),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("LosslessClasses",
                          "Bit mask of the classes protected by PFC.",
                          UintegerValue(0x7f),
                          MakeUintegerAccessor(&SwitchMmu::m_losslessClasses),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("EcnEnabled",
                          "Mark ECN-capable frames at egress (RED on the queue length).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SwitchMmu::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("Kmin",
                          "Default ECN Kmin (bytes); HPCC paper baseline at 100G: 400 KB.",
                          UintegerValue(400 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_defaultKmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Kmax",
                          "Default ECN Kmax (bytes); HPCC paper baseline at 100G: 1600 KB.",
                          UintegerValue(1600 * 1024),
                          MakeUintegerAccessor(&SwitchMmu::m_defaultKmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Pmax",
                          "Default marking probability at Kmax (HPCC paper baseline: 0.2).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&SwitchMmu::m_defaultPmax),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("EcnScaleWithRate",
                          "ConfigurePort scales Kmin and Kmax by the port's rate / "
                          "EcnReferenceRate (HPCC-paper practice).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SwitchMmu::m_ecnScaleWithRate),
                          MakeBooleanChecker())
            .AddAttribute("EcnReferenceRate",
                          "The rate Kmin and Kmax are given for (bit/s, default 100 Gb/s).",
                          UintegerValue(100000000000ULL),
                          MakeUintegerAccessor(&SwitchMmu::m_ecnReferenceRate),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

SwitchMmu::SwitchMmu()
    : m_headroomReserved(0),
      m_sharedUsed(0),
      m_maxEgress(0),
      m_rng(CreateObject<UniformRandomVariable>()),
      m_policyTracksQueues(false)
{
    SetBufferPolicy(CreateObject<DynamicThresholdPolicy>());
}

void
SwitchMmu::DoDispose()
{
    if (m_policy)
    {
        m_policy->Dispose();
        m_policy = nullptr;
    }
    m_policyTracksQueues = false;
    Object::DoDispose();
}

void
SwitchMmu::SetBufferPolicy(Ptr<BufferPolicy> policy)
{
    NS_ASSERT(policy);
    m_policy = policy;
    m_policy->Attach(this);
    m_policy->SetPortCount(GetPortCount());
    m_policyTracksQueues = m_policy->TracksQueues();
}

Ptr<BufferPolicy>
SwitchMmu::GetBufferPolicy() const
{
    return m_policy;
}

double
SwitchMmu::GetEgressAlpha() const
{
    return m_egressAlpha;
}

void
SwitchMmu::SetPortCount(uint32_t ports)
{
    // Grows (ports are added one by one); existing ports keep their settings.
    PerClass zero{};
    m_ingressShared.resize(ports, zero);
    m_headroomUsed.resize(ports, zero);
    m_egress.resize(ports, zero);
    m_egressPort.resize(ports, 0);
    m_headroom.resize(ports, 0);
    m_portHeadroomUsed.resize(ports, 0);
    m_ecn.resize(ports, Ecn{m_defaultKmin, m_defaultKmax, m_defaultPmax});
    m_policy->SetPortCount(ports);
}

uint32_t
SwitchMmu::GetPortCount() const
{
    return m_egress.size();
}

void
SwitchMmu::SetHeadroom(uint32_t port, uint64_t bytes)
{
    m_headroomReserved -= m_headroom[port];
    m_headroom[port] = bytes;
    m_headroomReserved += bytes;
}

uint64_t
SwitchMmu::GetHeadroom(uint32_t port) const
{
    return m_headroom[port];
}

void
SwitchMmu::SetEcnThresholds(uint32_t port, uint64_t kmin, uint64_t kmax, double pmax)
{
    m_ecn[port] = Ecn{kmin, kmax, pmax};
}

void
SwitchMmu::ConfigurePort(uint32_t port, uint64_t bitRate, Time delay, uint32_t mtu)
{
    const uint64_t mtuWire = rdmawire::WireBytes(RdmaPacketType::DATA, mtu);
    const uint64_t pfcWire = rdmawire::WireBytes(RdmaPacketType::PFC, 0);
    const uint64_t psPerSecond = 1000000000000ULL;
    const uint64_t roundTrip = bitRate / 8 * 2 * delay.GetPicoSeconds() / psPerSecond;
    SetHeadroom(port, roundTrip + 3 * mtuWire + pfcWire);
    m_policy->ConfigurePort(port, bitRate);
    const double scale = m_ecnScaleWithRate ? double(bitRate) / double(m_ecnReferenceRate) : 1.0;
    SetEcnThresholds(port,
                     static_cast<uint64_t>(m_defaultKmin * scale),
                     static_cast<uint64_t>(m_defaultKmax * scale),
                     m_defaultPmax);
}

uint8_t
SwitchMmu::GetLosslessMask() const
{
    return m_pfcEnabled ? m_losslessClasses : 0;
}

uint64_t
SwitchMmu::GetSharedUsed() const
{
    return m_sharedUsed;
}

bool
SwitchMmu::Admit(uint32_t inPort,
                 uint32_t outPort,
                 uint8_t priority,
                 uint32_t bytes,
                 DropReason* why)
{
    const uint64_t cap = GetSharedCapacity();
    if (IsLossless(priority))
    {
        uint64_t& shared = m_ingressShared[inPort][priority];
        uint64_t& headroom = m_headroomUsed[inPort][priority];
        if (headroom == 0 && shared + bytes <= GetXoffThreshold() && m_sharedUsed + bytes <= cap)
        {
            shared += bytes;
            m_sharedUsed += bytes;
        }
        else if (m_portHeadroomUsed[inPort] + bytes <= m_headroom[inPort])
        {
            // The port's headroom is reserved once and shared by its lossless classes.
            headroom += bytes;
            m_portHeadroomUsed[inPort] += bytes;
        }
        else
        {
            if (why)
            {
                *why = DropReason::HEADROOM_OVERFLOW;
            }
            return false;
        }
    }
    else
    {
        const uint64_t freeBytes = cap > m_sharedUsed ? cap - m_sharedUsed : 0;
        const uint64_t queue = m_egress[outPort][priority];
        if (m_sharedUsed + bytes > cap)
        {
            if (why)
            {
                *why = DropReason::SHARED_BUFFER_FULL;
            }
            return false;
        }
        if (queue + bytes > m_policy->GetThreshold(outPort, priority, freeBytes))
        {
            if (why)
            {
                *why = m_policy->GetDropReason();
            }
            NS_LOG_LOGIC("lossy frame refused at port " << outPort << " class " << +priority << " ("
                                                        << m_policy->GetName() << ")");
            return false;
        }
        m_ingressShared[inPort][priority] += bytes;
        m_sharedUsed += bytes;
    }
    uint64_t& egress = m_egress[outPort][priority];
    egress += bytes;
    m_egressPort[outPort] += bytes;
    m_maxEgress = std::max(m_maxEgress, egress);
    if (m_policyTracksQueues)
    {
        m_policy->Enqueued(outPort, priority, egress);
    }
    return true;
}

double
SwitchMmu::MarkProbability(uint32_t outPort, uint64_t queueBytes) const
{
    const Ecn& e = m_ecn[outPort];
    if (queueBytes <= e.kmin)
    {
        return 0.0;
    }
    if (queueBytes > e.kmax)
    {
        return 1.0;
    }
    return e.pmax * double(queueBytes - e.kmin) / double(e.kmax - e.kmin);
}

bool
SwitchMmu::ShouldMarkEcn(uint32_t outPort, uint8_t priority, MarkReason* why)
{
    if (!m_ecnEnabled)
    {
        return false;
    }
    const double p = MarkProbability(outPort, m_egress[outPort][priority]);
    const bool mark = p >= 1.0 || (p > 0.0 && m_rng->GetValue() < p);
    if (mark && why)
    {
        *why = m_egress[outPort][priority] > m_ecn[outPort].kmax ? MarkReason::ECN_ABOVE_KMAX
                                                                 : MarkReason::ECN_PROBABILISTIC;
    }
    return mark;
}

uint64_t
SwitchMmu::GetEgressBytes(uint32_t outPort, uint8_t priority) const
{
    return m_egress[outPort][priority];
}

uint64_t
SwitchMmu::GetEgressPortBytes(uint32_t outPort) const
{
    return m_egressPort[outPort];
}

uint64_t
SwitchMmu::GetIngressBytes(uint32_t inPort, uint8_t priority) const
{
    return m_ingressShared[inPort][priority] + m_headroomUsed[inPort][priority];
}

uint64_t
SwitchMmu::GetHeadroomUsed(uint32_t inPort, uint8_t priority) const
{
    return m_headroomUsed[inPort][priority];
}

uint64_t
SwitchMmu::GetMaxEgressBytes() const
{
    return m_maxEgress;
}

int64_t
SwitchMmu::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
