/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/periodic-sampler.h"

#include "ns3/simulator.h"

namespace ns3
{

PeriodicSampler::PeriodicSampler(std::ostream& out, Time interval)
    : m_out(out),
      m_interval(interval)
{
}

void
PeriodicSampler::Start()
{
    WriteHeader(m_out);
    m_event = Simulator::ScheduleNow(&PeriodicSampler::Tick, this);
}

void
PeriodicSampler::Stop()
{
    m_event.Cancel();
}

void
PeriodicSampler::Tick()
{
    Sample(m_out, Simulator::Now().GetNanoSeconds());
    m_event = Simulator::Schedule(m_interval, &PeriodicSampler::Tick, this);
}

} // namespace ns3
