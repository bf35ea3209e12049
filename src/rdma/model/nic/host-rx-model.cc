/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/host-rx-model.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/nstime.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostRxModel");
NS_OBJECT_ENSURE_REGISTERED(HostRxModel);

TypeId
HostRxModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostRxModel")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<HostRxModel>()
            .AddAttribute("Rate",
                          "Rate at which the host takes delivered payload, one packet after "
                          "the other (bit/s); 0 = no limit (default).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&HostRxModel::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("Delay",
                          "Processing time of each packet after its payload is taken, before "
                          "its acknowledgement may leave (time, default 0).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&HostRxModel::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("HostDelay",
                            "A packet's hold time in the host: arrival to acknowledgement.",
                            MakeTraceSourceAccessor(&HostRxModel::m_delayTrace),
                            "ns3::HostRxModel::DelayTracedCallback");
    return tid;
}

HostRxModel::HostRxModel()
    : m_packets(0)
{
}

Time
HostRxModel::Admit(uint64_t bytes, Time now)
{
    Time start = std::max(now, m_busyUntil);
    if (m_rate.GetBitRate() > 0 && bytes > 0)
    {
        start += m_rate.CalculateBytesTxTime(bytes);
    }
    m_busyUntil = start;
    const Time done = start + m_delay;
    const Time held = done - now;
    ++m_packets;
    m_totalDelay += held;
    m_maxDelay = std::max(m_maxDelay, held);
    NS_LOG_LOGIC(bytes << " bytes held " << held.GetNanoSeconds() << " ns");
    m_delayTrace(held);
    return done;
}

uint64_t
HostRxModel::GetPackets() const
{
    return m_packets;
}

Time
HostRxModel::GetTotalDelay() const
{
    return m_totalDelay;
}

Time
HostRxModel::GetMaxDelay() const
{
    return m_maxDelay;
}

} // namespace ns3
