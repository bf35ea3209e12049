/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/cc-extension.h"

namespace ns3
{

Time
CcPacingAndProbes::PacingDelay(uint32_t /* lastWireBytes */)
{
    return Time(0);
}

Time
CcPacingAndProbes::PacingRecheck() const
{
    return Time::Max();
}

bool
CcPacingAndProbes::PacesByCredit() const
{
    return false;
}

bool
CcPacingAndProbes::WantsProbe()
{
    return false;
}

void
CcPacingAndProbes::OnProbeResponse(Time /* rtt */)
{
}

void
CcPacingAndProbes::OnProbeTimeout()
{
}

} // namespace ns3
