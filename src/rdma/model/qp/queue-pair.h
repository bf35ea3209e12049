/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "ns3/compact-deque.h"
#include "ns3/congestion-control.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <limits>

namespace ns3
{

/// A message (one work request: an RDMA WRITE or SEND) posted on a QP.
struct RdmaMessage
{
    /// Bytes value of a message that runs until it is truncated.
    static constexpr uint64_t kUnbounded = std::numeric_limits<uint64_t>::max();

    uint64_t flowId = 0;
    uint64_t bytes = 0;
    uint32_t firstPsn = 0;
    uint32_t lastPsn = 0; ///< inclusive
    Time posted;
};

/**
 * \ingroup rdma
 * What a congestion controller paces: one QP, or all the QPs of a NIC towards one
 * destination (NIC option). Holds the controller, the pacing time and the RTT-probe
 * state: one cache line, aligned (the pacing fields are read per packet).
 */
struct alignas(64) RateLimiter
{
    Ptr<CongestionControl> cc;
    uint64_t nextSendPs = 0; ///< earliest next data packet (ps)
    uint64_t lastSendPs = 0; ///< when the last data packet left (ps)
    uint32_t lastWire = 0;   ///< and its wire bytes
    bool probeOutstanding = false;
    Time probeTimeout; ///< doubles on each unanswered probe, reset on answer
    EventId probeTimer;
};

/**
 * \ingroup rdma
 * Requester (sender) side of an RC queue pair: messages cut into MTU packets with
 * consecutive PSNs, loss-recovery state (go-back-N or selective repeat), and the index
 * of its rate limiter. Compact plain data owned by its RdmaNic; the scheduler decides
 * when it sends.
 */
struct alignas(64) SendQueuePair
{
    /// Where the QP is in the NIC's scheduler.
    enum class State : uint8_t
    {
        IDLE,    ///< nothing it may send now (no data, or window full)
        READY,   ///< in the round-robin ready list
        WAITING, ///< in the pacing heap until its limiter's nextSendPs
        PARKED,  ///< its class is paused by PFC
    };

    // Layout: a pull and an acknowledgement read only the first two cache lines (the
    // two the event core loads ahead from the QP's start: FabricLayout), the controller
    // pointer first; loss recovery's bitmap and the
    // retransmission timer's event, which they touch rarely, come last (rdma-nic.h
    // checks this against RdmaNic::kQpLines).

    // First line.
    Ptr<CongestionControl> cc; ///< the limiter's controller (shared per destination)
    uint32_t qpn = 0;
    uint32_t peerNode = 0;
    uint32_t peerQpn = 0;
    uint16_t sport = 0;
    uint8_t priority = 0;
    State state = State::IDLE;
    uint32_t limiter = 0;               ///< index into the NIC's rate limiters
    uint32_t waitGeneration = 0;        ///< tag of its current pacing-heap entry
    CompactDeque<RdmaMessage> messages; ///< unacknowledged, oldest first
    uint32_t nextPsn = 0;               ///< PSN after the last posted message
    uint32_t sndNxt = 0;                ///< next new PSN to send

    // Second line.
    uint32_t sndUna = 0;  ///< oldest unacknowledged PSN
    uint32_t maxSent = 0; ///< one past the highest PSN ever sent
    // Selective repeat's recovery scan: unreported PSNs in [retxNext, recoverHigh) are
    // resent first.
    uint32_t retxNext = 0;
    uint32_t recoverHigh = 0;
    uint64_t completedBytes = 0;  ///< payload of the messages completed so far
    CcPeerGroup* peers = nullptr; ///< its NIC's group for its destination (per-QP limiting)
    bool started = false;         ///< has sent a data packet (FIRST_SEND was sent)
    bool active = false;          ///< counted in its peer group's activeQps
    bool rated = false;           ///< counted in its peer group's ratedQps / rateSum
    /// rto is pending (armed and not yet run; it is cancelled only at disposal): read
    /// per packet instead of the EventId, whose EventImpl is one more cold cache line.
    bool rtoArmed = false;
    /// the hooks its controller implements (CongestionControl::ImplementedHooks): the
    /// packet path skips the others without loading the controller
    uint16_t ccHooks = CongestionControl::HOOK_ALL;
    /// some PSN from resendFrom on is TRIM_NACKED (read per packet instead of `sacked`,
    /// on a cold line)
    bool resendPending = false;
    /// messages.front().lastPsn, or the largest PSN when there is none (NoteFront): an
    /// acknowledgement that completes no message reads this, not the message's line
    uint32_t frontLastPsn = std::numeric_limits<uint32_t>::max();
    uint64_t pacedRate = 0; ///< its latest rate in the group's sums (bit/s)
    Time lastProgress;

    // Last: rarely touched.
    /// Selective repeat (and trimmed PSNs): what the receiver told of each PSN (entry i
    /// for sndUna + i, a PsnReport); allocated at the first report. Selective repeat's
    /// hole scan skips every PSN whose entry is not UNREPORTED.
    CompactDeque<uint8_t> sacked;
    /// Trimmed PSNs: the lowest that may be TRIM_NACKED (where the resend search starts).
    uint32_t resendFrom = 0;
    EventId rto;

    /// An entry of `sacked`.
    enum PsnReport : uint8_t
    {
        UNREPORTED = 0,
        SACKED = 1,      ///< reported received (selective repeat's NACK)
        TRIM_NACKED = 2, ///< NACKed as trimmed (FLAG_TRIMMED): to resend, first
        TRIM_RESENT = 3, ///< resent after such a NACK: in flight again
    };

    /// Keep frontLastPsn current: after every change to the first message or to which
    /// message is first.
    void NoteFront()
    {
        frontLastPsn =
            messages.empty() ? std::numeric_limits<uint32_t>::max() : messages.front().lastPsn;
    }

    bool InRecovery() const
    {
        return retxNext < recoverHigh;
    }

    bool HasUnsent() const
    {
        return sndNxt < nextPsn || InRecovery() || resendPending;
    }

    bool HasOutstanding() const
    {
        return sndUna < sndNxt;
    }

    /// What the receiver told of PSN \p psn (at least sndUna).
    uint8_t Report(uint32_t psn) const
    {
        const uint32_t offset = psn - sndUna;
        return offset < sacked.size() ? sacked[offset] : uint8_t(UNREPORTED);
    }

    /// Note \p report for PSN \p psn (at least sndUna).
    void SetReport(uint32_t psn, PsnReport report)
    {
        const uint32_t offset = psn - sndUna;
        if (sacked.size() <= offset)
        {
            sacked.resize(offset + 1, UNREPORTED);
        }
        sacked[offset] = report;
    }
};

/// Responder (receiver) side of an RC queue pair. The 32-bit fields come together, so
/// that it is 72 bytes with no padding but the one byte after `priority` and four
/// before `lastCnp` (which keeps a flow, both ends, its controller and its records under
/// 1 KB with the RTT-probe controller).
struct RecvQueuePair
{
    uint32_t peerNode = 0;
    uint32_t peerQpn = 0;
    uint16_t sport = 0;
    uint8_t priority = 0;
    uint32_t expectedPsn = 0;
    uint32_t sinceAck = 0; ///< in-order packets since the last ACK
    uint32_t nackedPsn = std::numeric_limits<uint32_t>::max();
    /// Direct placement: an ACK is owed once every PSN below this has arrived (0: none).
    uint32_t ackRequestedBelow = 0;
    /// Go-back-N: the lowest PSN that arrived trimmed ahead of expectedPsn, NACKed when
    /// expectedPsn reaches it (none: the largest value). Fills padding: no growth.
    uint32_t trimmedAhead = std::numeric_limits<uint32_t>::max();
    Time lastCnp = Seconds(-10); ///< long ago: the first CE mark gets a CNP
    Time lastNack;
    /// Selective repeat / direct placement: packets already placed, bit i for PSN
    /// expectedPsn + i (bit 0 stays false: that packet is the one missing).
    CompactDeque<bool> placed; ///< allocated at the first gap
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
