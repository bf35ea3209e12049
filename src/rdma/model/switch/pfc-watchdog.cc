/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/pfc-watchdog.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcWatchdog");
NS_OBJECT_ENSURE_REGISTERED(PfcWatchdog);

TypeId
PfcWatchdog::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcWatchdog")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<PfcWatchdog>()
            .AddAttribute("DetectionTime",
                          "A lossless queue holding frames and paused by its peer without a "
                          "break for this long is declared stormed (SONiC ships 200 ms).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&PfcWatchdog::m_detect),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RestorationTime",
                          "A stormed queue is restored once its port has received no pause "
                          "for its class for this long (SONiC ships 200 ms).",
                          TimeValue(MilliSeconds(2)),
                          MakeTimeAccessor(&PfcWatchdog::m_restore),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PollInterval",
                          "Time between two looks at the queues; detection and restoration "
                          "happen at the first poll after their time has passed.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&PfcWatchdog::m_poll),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute(
                "Action",
                "What a stormed queue does: drop its frames and everything routed "
                "to it, or forward (ignore the peer's pauses).",
                EnumValue(PfcWatchdog::DROP),
                compat::MakeEnumAccessor(&PfcWatchdog::m_action),
                MakeEnumChecker(PfcWatchdog::DROP, "drop", PfcWatchdog::FORWARD, "forward"))
            .AddTraceSource("Storm",
                            "A storm was detected (true) or restored (false): egress port, "
                            "class.",
                            MakeTraceSourceAccessor(&PfcWatchdog::m_stormTrace),
                            "ns3::PfcWatchdog::StormTracedCallback");
    return tid;
}

PfcWatchdog::PfcWatchdog()
    : m_detect(MilliSeconds(1)),
      m_restore(MilliSeconds(2)),
      m_poll(MicroSeconds(100)),
      m_action(DROP),
      m_switch(nullptr),
      m_lossless(0),
      m_detected(0),
      m_restored(0)
{
}

void
PfcWatchdog::DoDispose()
{
    m_pollEvent.Cancel();
    m_switch = nullptr;
    Object::DoDispose();
}

void
PfcWatchdog::Install(Ptr<RdmaSwitch> sw, uint8_t lossless)
{
    m_switch = PeekPointer(sw);
    m_lossless = lossless;
    m_stormed.assign(sw->GetNPorts(), 0);
    sw->GetPauseTracker();
    sw->SetPfcWatchdog(this);
}

void
PfcWatchdog::Start()
{
    m_pollEvent = Simulator::Schedule(m_poll, &PfcWatchdog::Poll, this);
}

void
PfcWatchdog::Poll()
{
    Ptr<PfcPauseTracker> pauses = m_switch->GetPauseTracker();
    for (uint32_t port = 0; port < m_stormed.size(); ++port)
    {
        Ptr<RdmaNetDevice> dev = m_switch->GetPort(port);
        for (uint8_t c = 0; c < kRdmaNumPriorities; ++c)
        {
            if (!(m_lossless & (1u << c)))
            {
                continue;
            }
            if (m_stormed[port] & (1u << c))
            {
                if (pauses->SinceLastPause(port, c) >= m_restore)
                {
                    SetStormed(port, c, false);
                }
            }
            else if (dev->GetQueueBytes(c) > 0 && pauses->PausedFor(port, c) >= m_detect)
            {
                SetStormed(port, c, true);
            }
        }
    }
    m_pollEvent = Simulator::Schedule(m_poll, &PfcWatchdog::Poll, this);
}

void
PfcWatchdog::SetStormed(uint32_t port, uint8_t priority, bool stormed)
{
    NS_LOG_INFO("switch " << m_switch->GetNodeId() << " port " << port << " class " << +priority
                          << (stormed ? ": PFC storm detected" : ": PFC storm restored"));
    m_stormed[port] ^= (1u << priority);
    ++(stormed ? m_detected : m_restored);
    m_stormTrace(port, priority, stormed);
    if (m_action == DROP)
    {
        m_switch->SetStormDrop(port, priority, stormed);
    }
    else
    {
        m_switch->GetPort(port)->SetPfcIgnored(priority, stormed);
    }
}

bool
PfcWatchdog::IsStormed(uint32_t port, uint8_t priority) const
{
    return port < m_stormed.size() && (m_stormed[port] & (1u << priority));
}

uint64_t
PfcWatchdog::GetStormsDetected() const
{
    return m_detected;
}

uint64_t
PfcWatchdog::GetStormsRestored() const
{
    return m_restored;
}

} // namespace ns3
