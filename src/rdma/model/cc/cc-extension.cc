/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/cc-extension.h"

namespace ns3
{

Time
CcSendTiming::PacingDelay(uint32_t /* lastWireBytes */)
{
    return Time(0);
}

Time
CcSendTiming::PacingRecheck() const
{
    return Time::Max();
}

bool
CcSendTiming::PacesByCredit() const
{
    return false;
}

bool
CcSendTiming::WantsProbe()
{
    return false;
}

void
CcSendTiming::OnProbeResponse(Time /* rtt */)
{
}

void
CcSendTiming::OnProbeTimeout()
{
}

Time
CcSendTiming::RetransmissionTimeout() const
{
    return Time(0);
}

} // namespace ns3
