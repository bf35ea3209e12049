/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/abm-buffer-policy.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-sim.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AbmBufferPolicy");
NS_OBJECT_ENSURE_REGISTERED(AbmBufferPolicy);

TypeId
AbmBufferPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AbmBufferPolicy")
            .SetParent<BufferPolicy>()
            .SetGroupName("Rdma")
            .AddConstructor<AbmBufferPolicy>()
            .AddAttribute("Alpha",
                          "alpha_p of every class (dimensionless; ABM paper's evaluation: 0.5).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&AbmBufferPolicy::m_alpha),
                          MakeDoubleChecker<double>(1e-6, 1024))
            .AddAttribute("UpdateInterval",
                          "Window over which a congested queue's drain rate is measured, "
                          "about one RTT (ns3-datacenter's ABM default: 30 us).",
                          TimeValue(MicroSeconds(30)),
                          MakeTimeAccessor(&AbmBufferPolicy::m_updateInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("CongestedBytes",
                          "A queue holding at least this many bytes is congested and counts "
                          "in n_p (bytes; ns3-datacenter's ABM default: 20 x 1400).",
                          UintegerValue(28000),
                          MakeUintegerAccessor(&AbmBufferPolicy::m_congestedBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("MinDrainRate",
                          "Floor of a measured drain rate mu / b (dimensionless; "
                          "ns3-datacenter's ABM: 1 / number of classes = 1/8).",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&AbmBufferPolicy::m_minDrainRate),
                          MakeDoubleChecker<double>(1e-6, 1));
    return tid;
}

AbmBufferPolicy::AbmBufferPolicy()
    : m_alpha(0.5),
      m_updateInterval(MicroSeconds(30)),
      m_congestedBytes(28000),
      m_minDrainRate(0.125)
{
}

void
AbmBufferPolicy::SetPortCount(uint32_t ports)
{
    m_queues.resize(ports);
    m_bitRate.resize(ports, 0);
}

void
AbmBufferPolicy::ConfigurePort(uint32_t port, uint64_t bitRate)
{
    m_bitRate.at(port) = bitRate;
}

void
AbmBufferPolicy::UpdateCongestion(uint32_t port, uint8_t priority, uint64_t queueBytes)
{
    Queue& q = m_queues[port][priority];
    const bool congested = queueBytes >= m_congestedBytes;
    if (congested == q.congested)
    {
        return;
    }
    q.congested = congested;
    q.measured = false;
    q.windowStartPs = RdmaSim::NowPs();
    q.windowBytes = 0;
    if (congested)
    {
        ++m_congested[priority];
    }
    else
    {
        --m_congested[priority];
    }
    NS_LOG_LOGIC("port " << port << " class " << +priority
                         << (congested ? " congested" : " no longer congested") << ", n_p "
                         << m_congested[priority]);
}

void
AbmBufferPolicy::RollWindow(uint32_t port, uint8_t priority)
{
    Queue& q = m_queues[port][priority];
    if (!q.congested)
    {
        return;
    }
    const uint64_t now = RdmaSim::NowPs();
    const uint64_t elapsed = now - q.windowStartPs;
    if (elapsed < static_cast<uint64_t>(m_updateInterval.GetPicoSeconds()) || elapsed == 0)
    {
        return;
    }
    if (m_bitRate[port] > 0)
    {
        // bytes x 8 bit / (elapsed ps x 1e-12 s/ps) / b
        const double rate = q.windowBytes * 8.0 * 1e12 / double(elapsed) / double(m_bitRate[port]);
        q.drainRate = std::clamp(rate, m_minDrainRate, 1.0);
    }
    else
    {
        q.drainRate = 1.0;
    }
    q.measured = true;
    q.windowStartPs = now;
    q.windowBytes = 0;
}

double
AbmBufferPolicy::GetNormalizedDrainRate(uint32_t port, uint8_t priority)
{
    RollWindow(port, priority);
    const Queue& q = m_queues[port][priority];
    return q.congested && q.measured ? q.drainRate : 1.0;
}

uint32_t
AbmBufferPolicy::GetCongestedQueues(uint8_t priority) const
{
    return m_congested[priority];
}

double
AbmBufferPolicy::GetThreshold(uint32_t outPort, uint8_t priority, uint64_t freeBytes)
{
    const double n = std::max<uint32_t>(1, m_congested[priority]);
    return m_alpha / n * double(freeBytes) * GetNormalizedDrainRate(outPort, priority);
}

DropReason
AbmBufferPolicy::GetDropReason() const
{
    return DropReason::ABM_THRESHOLD;
}

bool
AbmBufferPolicy::TracksQueues() const
{
    return true;
}

void
AbmBufferPolicy::Enqueued(uint32_t outPort, uint8_t priority, uint64_t queueBytes)
{
    RollWindow(outPort, priority);
    UpdateCongestion(outPort, priority, queueBytes);
}

void
AbmBufferPolicy::Dequeued(uint32_t outPort, uint8_t priority, uint32_t bytes, uint64_t queueBytes)
{
    RollWindow(outPort, priority);
    Queue& q = m_queues[outPort][priority];
    if (q.congested)
    {
        q.windowBytes += bytes;
    }
    UpdateCongestion(outPort, priority, queueBytes);
}

std::string
AbmBufferPolicy::GetName() const
{
    return "abm";
}

} // namespace ns3
