/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A congestion controller's clock that a unit test sets by hand (CcClock), so every
 * rule can be driven without a simulation.
 */
#ifndef RDMA_TEST_FAKE_CC_CLOCK_H
#define RDMA_TEST_FAKE_CC_CLOCK_H

#include "ns3/congestion-control.h"

namespace rdmatest
{

class FakeClock : public ns3::CcClock
{
  public:
    ns3::Time Now() const override
    {
        return now;
    }

    ns3::Time now{0};
};

} // namespace rdmatest

#endif
