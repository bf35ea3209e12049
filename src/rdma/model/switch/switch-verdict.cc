/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/switch-verdict.h"

namespace ns3
{

const char*
DropReasonName(DropReason reason)
{
    switch (reason)
    {
    case DropReason::LOSSY_EGRESS_THRESHOLD:
        return "lossy_egress_threshold";
    case DropReason::SHARED_BUFFER_FULL:
        return "shared_buffer_full";
    case DropReason::HEADROOM_OVERFLOW:
        return "headroom_overflow";
    case DropReason::LINK_DOWN:
        return "link_down";
    case DropReason::NO_ROUTE:
        return "no_route";
    case DropReason::PFC_WATCHDOG:
        return "pfc_watchdog";
    case DropReason::STATIC_QUEUE_LIMIT:
        return "static_queue_limit";
    case DropReason::ABM_THRESHOLD:
        return "abm_threshold";
    case DropReason::TRIM_HEADER_OVERFLOW:
        return "trim_header_overflow";
    }
    return "unknown";
}

const char*
MarkReasonName(MarkReason reason)
{
    switch (reason)
    {
    case MarkReason::ECN_PROBABILISTIC:
        return "ecn_probabilistic";
    case MarkReason::ECN_ABOVE_KMAX:
        return "ecn_above_kmax";
    }
    return "unknown";
}

} // namespace ns3
