/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RUN_PROGRESS_H
#define RDMA_RUN_PROGRESS_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traffic-driver.h"

#include <chrono>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * A progress line on stderr at most every 2 s of wall time: simulated time, share of the
 * stop time, flows done, events per second. Checks the clock every stop / 2000 of
 * simulated time (at least 5 us); does nothing when disabled.
 */
class RunProgress
{
  public:
    RunProgress(Time stop, const TrafficDriver& driver, bool enabled);
    void Start();
    void Stop();

  private:
    Time Check() const;
    void Tick();

    Time m_stop;
    const TrafficDriver& m_driver;
    bool m_enabled;
    std::chrono::steady_clock::time_point m_lastPrint;
    uint64_t m_lastEvents;
    EventId m_event;
};

} // namespace ns3

#endif /* RDMA_RUN_PROGRESS_H */
