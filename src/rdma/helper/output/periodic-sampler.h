/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PERIODIC_SAMPLER_H
#define RDMA_PERIODIC_SAMPLER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <ostream>

namespace ns3
{

/**
 * \ingroup rdma
 * Base of the samplers that write one CSV row per object every interval (queues,
 * port counters, congestion-control state): one simulator event per interval in all.
 */
class PeriodicSampler
{
  public:
    PeriodicSampler(std::ostream& out, Time interval);
    virtual ~PeriodicSampler() = default;

    /// Write the header and take the first sample now.
    void Start();
    void Stop();

  protected:
    virtual void WriteHeader(std::ostream& out) = 0;
    virtual void Sample(std::ostream& out, int64_t nowNs) = 0;

  private:
    void Tick();

    std::ostream& m_out;
    Time m_interval;
    EventId m_event;
};

} // namespace ns3

#endif /* RDMA_PERIODIC_SAMPLER_H */
