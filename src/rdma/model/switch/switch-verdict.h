/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SWITCH_VERDICT_H
#define RDMA_SWITCH_VERDICT_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Why a frame was dropped, in the manner of ns-3's QueueDisc drop reasons: every drop in
 * the fabric carries one, counted per switch port, traced with its name, and summed in
 * summary.json (`drops_by_reason`).
 */
enum class DropReason : uint8_t
{
    LOSSY_EGRESS_THRESHOLD, ///< lossy class: egress queue above EgressAlpha x free buffer (DT)
    SHARED_BUFFER_FULL,     ///< lossy class: the shared pool has no room
    HEADROOM_OVERFLOW,      ///< lossless class: past Xoff and the port's headroom is full
    LINK_DOWN,              ///< arriving on, or queued for, a link that is down
    NO_ROUTE,               ///< the switch has no route to the destination (links down)
    PFC_WATCHDOG,           ///< lossless queue declared stormed by the PFC watchdog (drop)
    STATIC_QUEUE_LIMIT,     ///< lossy class, static policy: egress queue at its fixed share
    ABM_THRESHOLD,          ///< lossy class, ABM policy: egress queue above its ABM threshold
    /// packet trimming: the frame was refused and even its trimmed header did not fit in
    /// the trim class's queue
    TRIM_HEADER_OVERFLOW,
};

/// Number of DropReason values.
constexpr std::size_t kDropReasons = 9;

/**
 * \ingroup rdma
 * Why a frame was CE-marked at a switch egress (RED on the egress queue length, the
 * frame's own class).
 */
enum class MarkReason : uint8_t
{
    ECN_PROBABILISTIC, ///< queue between Kmin and Kmax: marked with the RED probability
    ECN_ABOVE_KMAX,    ///< queue above Kmax: every ECN-capable frame is marked
};

/// Number of MarkReason values.
constexpr std::size_t kMarkReasons = 2;

/// The reason's name as in traces and summary.json, e.g. "headroom_overflow".
const char* DropReasonName(DropReason reason);
/// The reason's name as in traces and summary.json, e.g. "ecn_above_kmax".
const char* MarkReasonName(MarkReason reason);

} // namespace ns3

#endif /* RDMA_SWITCH_VERDICT_H */
