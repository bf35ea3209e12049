/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/run-progress.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace ns3
{

namespace
{
/// Wall seconds between two progress lines.
constexpr double kPrintEverySeconds = 2.0;
} // namespace

RunProgress::RunProgress(Time stop, const TrafficDriver& driver, bool enabled)
    : m_stop(stop),
      m_driver(driver),
      m_enabled(enabled),
      m_lastPrint(std::chrono::steady_clock::now()),
      m_lastEvents(0)
{
}

void
RunProgress::Start()
{
    if (m_enabled)
    {
        m_event = Simulator::Schedule(Check(), &RunProgress::Tick, this);
    }
}

void
RunProgress::Stop()
{
    m_event.Cancel();
}

Time
RunProgress::Check() const
{
    return std::max(m_stop / 2000, MicroSeconds(5));
}

void
RunProgress::Tick()
{
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - m_lastPrint).count();
    if (since >= kPrintEverySeconds)
    {
        const uint64_t events = Simulator::GetEventCount();
        std::cerr << "[rdma] sim " << std::fixed << std::setprecision(3)
                  << Simulator::Now().GetSeconds() * 1e3 << " ms (" << std::setprecision(1)
                  << 100.0 * Simulator::Now().GetSeconds() / m_stop.GetSeconds()
                  << "% of stop time), flows " << m_driver.GetFlowsCompleted() << "/"
                  << m_driver.GetFlowsTotal() << ", " << std::setprecision(2)
                  << (events - m_lastEvents) / since / 1e6 << " M events/s\n";
        m_lastPrint = now;
        m_lastEvents = events;
    }
    m_event = Simulator::Schedule(Check(), &RunProgress::Tick, this);
}

} // namespace ns3
