/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaNic, requester side: which QP sends next (QpScheduler), rate pacing and the
 * congestion controller's send hooks, and the data and probe packets it builds.
 */
#include "ns3/abort.h"
#include "ns3/pint-code.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-sim-schedule.h"
#include "ns3/rdma-wire.h"
#include "ns3/serialization-clock.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// Picoseconds per nanosecond (the simulator's time resolution is 1 ns).
constexpr uint64_t kPsPerNs = 1000;
} // namespace

bool
RdmaNic::WindowFull(const SendQueuePair& qp) const
{
    // A hole being resent replaces a packet the network lost: neither the in-flight cap nor
    // the window holds it back (the window counts every PSN in [sndUna, sndNxt), lost ones
    // too; held back, selective repeat would wait for the timeout, which resends nothing).
    if (qp.InRecovery() || qp.resendPending)
    {
        return false;
    }
    const uint32_t inflight = qp.sndNxt - qp.sndUna;
    if (m_inflightCap > 0 && inflight >= m_inflightCap)
    {
        return true;
    }
    uint64_t window = (qp.ccHooks & CongestionControl::HOOK_WINDOW) ? qp.cc->GetWindow() : 0;
    if (m_window > 0)
    {
        window = window > 0 ? std::min(window, m_window) : m_window;
    }
    return window > 0 && uint64_t(inflight) * m_mtu >= window;
}

void
RdmaNic::SkipReported(SendQueuePair& qp)
{
    if (qp.resendPending)
    {
        // The next PSN NACKed as trimmed and not acknowledged or reported since, if any.
        const uint32_t end = std::min<uint32_t>(qp.sndNxt, qp.sndUna + qp.sacked.size());
        uint32_t psn = std::max(qp.resendFrom, qp.sndUna);
        while (psn < end && qp.Report(psn) != SendQueuePair::TRIM_NACKED)
        {
            ++psn;
        }
        qp.resendFrom = psn;
        qp.resendPending = psn < end;
    }
    while (qp.InRecovery())
    {
        const uint32_t offset = qp.retxNext - qp.sndUna;
        if (qp.retxNext >= qp.sndUna && !(offset < qp.sacked.size() && qp.sacked[offset]))
        {
            return; // a hole
        }
        ++qp.retxNext;
    }
}

void
RdmaNic::Reschedule(SendQueuePair& qp)
{
    SkipReported(qp);
    if (qp.state != SendQueuePair::State::IDLE || !qp.HasUnsent() || WindowFull(qp))
    {
        return;
    }
    const uint64_t now = RdmaSim::NowPs();
    const uint64_t due = m_limiters[qp.limiter].nextSendPs;
    // Inside Pull the port is about to send and will pull again when it is free, so
    // neither a kick nor a wake-up is needed (a kick would even re-enter Pull).
    if (due <= now)
    {
        qp.state = SendQueuePair::State::READY;
        m_scheduler.PushReady(qp.qpn);
        if (!m_inPull)
        {
            m_device->TryTransmit();
        }
    }
    else
    {
        qp.state = SendQueuePair::State::WAITING;
        m_scheduler.PushWaiting(qp.qpn, due, ++qp.waitGeneration);
        if (!m_inPull)
        {
            ArmWake(due);
            // The port may have skipped its end of transmission (nothing to pull then);
            // it must pull when its frame is out, as it would have.
            m_device->NotifyPullable();
        }
    }
}

Ptr<RdmaFrame>
RdmaNic::Pull(uint8_t pausedMask)
{
    const uint64_t now = RdmaSim::NowPs();
    m_scheduler.Unpark(pausedMask);
    m_scheduler.ReleaseDue(now, [this](uint32_t qpn, uint32_t generation) {
        return m_sendQps[qpn].waitGeneration == generation;
    });
    uint32_t qpn;
    while (m_scheduler.PopReady(qpn))
    {
        SendQueuePair& qp = m_sendQps[qpn];
        if (pausedMask & (1u << qp.priority))
        {
            qp.state = SendQueuePair::State::PARKED;
            m_scheduler.Park(qpn, qp.priority);
            continue;
        }
        SkipReported(qp);
        if (!qp.HasUnsent() || WindowFull(qp))
        {
            qp.state = SendQueuePair::State::IDLE;
            continue;
        }
        RateLimiter& limiter = m_limiters[qp.limiter];
        if (limiter.nextSendPs <= now && (qp.ccHooks & CongestionControl::HOOK_PACING))
        {
            // A controller pacing by credit may hold the packet back further (also
            // the QP's first, lastWire 0).
            const Time wait = limiter.cc->GetExtension()->PacingDelay(limiter.lastWire);
            if (wait.IsStrictlyPositive())
            {
                limiter.nextSendPs = now + CappedWaitPs(qp, wait.GetPicoSeconds());
            }
        }
        if (limiter.nextSendPs > now)
        {
            qp.state = SendQueuePair::State::WAITING;
            m_scheduler.PushWaiting(qpn, limiter.nextSendPs, ++qp.waitGeneration);
            continue;
        }
        Ptr<RdmaFrame> p;
        if ((qp.ccHooks & CongestionControl::HOOK_PROBE) && !limiter.probeOutstanding &&
            limiter.cc->GetExtension()->WantsProbe())
        {
            // The probe takes this turn; the QP stays ready for its data.
            p = MakeProbePacket(qp);
            qp.state = SendQueuePair::State::READY;
            m_scheduler.PushReady(qpn);
            return p;
        }
        p = MakeDataPacket(qp);
        qp.state = SendQueuePair::State::IDLE;
        m_inPull = true;
        Reschedule(qp);
        m_inPull = false;
        return p;
    }
    if (m_scheduler.HasWaiting())
    {
        ArmWake(m_scheduler.NextWaitingPs());
    }
    return nullptr;
}

// MakeDataPacket's pieces, inline in it (their only caller) as the port's SelectNext is
// in its caller: MakeDataPacket runs once per data packet sent.
namespace
{
/// The message of \p qp that holds \p psn.
__attribute__((always_inline)) inline const RdmaMessage&
MessageHolding(const SendQueuePair& qp, uint32_t psn)
{
    // The messages hold consecutive PSN ranges, oldest first: the first one ending at or
    // after psn holds it (a binary search, not a scan of every message of the QP).
    size_t lo = 0;
    size_t hi = qp.messages.size();
    while (lo < hi)
    {
        const size_t mid = (lo + hi) / 2;
        if (qp.messages[mid].lastPsn >= psn)
        {
            hi = mid;
        }
        else
        {
            lo = mid + 1;
        }
    }
    NS_ABORT_MSG_IF(lo == qp.messages.size(), "RdmaNic: no message holds PSN " << psn);
    return qp.messages[lo];
}
} // namespace

__attribute__((always_inline)) inline uint32_t
RdmaNic::FillDataHeader(RdmaHeader& h,
                        const SendQueuePair& qp,
                        const RdmaMessage& msg,
                        uint32_t psn,
                        const Time& now)
{
    uint32_t payload = m_mtu;
    if (psn == msg.lastPsn)
    {
        payload = static_cast<uint32_t>(msg.bytes - uint64_t(psn - msg.firstPsn) * m_mtu);
        h.flags = RdmaHeader::FLAG_LAST | RdmaHeader::FLAG_ACK_REQUEST;
    }
    if (psn == msg.firstPsn)
    {
        // Only the capture's opcode reads it (SEND First or Only), whatever the PSN's try.
        h.flags |= RdmaHeader::FLAG_FIRST;
    }
    if (qp.ccHooks & CongestionControl::HOOK_INT)
    {
        h.flags |= RdmaHeader::FLAG_INT;
    }
    if (qp.ccHooks & CongestionControl::HOOK_PINT)
    {
        // Room for PINT's value, 0 until a switch egress writes its own (PintCode).
        h.pintBytes = PintCode::Bytes(m_pintBits);
        h.pintCode = 0;
    }
    h.type = RdmaPacketType::DATA;
    h.priority = qp.priority;
    h.ecn = m_ecnCapable ? RdmaHeader::ECT0 : RdmaHeader::NOT_ECT;
    h.src = m_nodeId;
    h.dst = qp.peerNode;
    // (The default policy keeps the QP's port: no call per packet.)
    h.sport = m_keepsQpPort   ? qp.sport
              : m_sharedPaths ? m_sharedPaths->NextEntropy(qp.sport, psn, now)
                              : NextQpEntropy(qp, psn, now);
    h.dstQpn = qp.peerQpn;
    h.psn = psn;
    h.payload = payload;
    h.timestamp = now.GetNanoSeconds();
    return payload;
}

__attribute__((always_inline)) inline void
RdmaNic::CountDataPacket(SendQueuePair& qp, uint32_t psn, uint32_t payload, bool hole)
{
    ++m_stats.dataPackets;
    if (psn < qp.maxSent)
    {
        ++m_stats.retransmittedPackets;
    }
    else
    {
        qp.maxSent = psn + 1;
        m_stats.payloadBytesSent += payload;
    }
    if (!hole)
    {
        ++qp.sndNxt;
    }
}

__attribute__((always_inline)) inline void
RdmaNic::PaceDataPacket(SendQueuePair& qp, uint32_t payload)
{
    // Pace: the next packet may leave once this one has left at the limiter's rate.
    // At line rate the port itself is the pacer: pacing too would leave sub-ns gaps
    // between the port's (ns-rounded) free time and the exact due time.
    RateLimiter& limiter = m_limiters[qp.limiter];
    if (!qp.started)
    {
        qp.started = true;
        qp.cc->OnSendEvent(CcSendEvent::FIRST_SEND);
    }
    const uint64_t rate = qp.cc->GetRate();
    if (m_trackPeerRates)
    {
        NotePeerRate(qp, rate);
    }
    qp.cc->OnSendEvent(CcSendEvent::SEND, payload);
    const uint64_t nowPs = RdmaSim::NowPs();
    const uint32_t wire = rdmawire::WireBytes(RdmaPacketType::DATA, payload);
    bool creditPaced = false;
    if ((qp.ccHooks & CongestionControl::HOOK_PACING) && qp.peers != nullptr)
    {
        // Per-QP limiting: the controller is the QP's own.
        if (!qp.HasUnsent())
        {
            qp.cc->OnSendEvent(CcSendEvent::DRAINED); // the next packet waits for the application
        }
        creditPaced = qp.cc->GetExtension()->PacesByCredit(); // then PacingDelay decides the gap
    }
    limiter.nextSendPs =
        creditPaced || rate >= m_device->GetBitRate()
            ? nowPs
            : nowPs +
                  CappedWaitPs(qp,
                               SerializationClock::Picoseconds(wire, std::max<uint64_t>(rate, 1)));
    limiter.lastSendPs = nowPs;
    limiter.lastWire = wire;
}

__attribute__((always_inline)) inline void
RdmaNic::ArmRtoForSend(SendQueuePair& qp, bool wasIdle, const Time& now)
{
    const bool rtoPending = qp.rtoArmed;
    if (wasIdle || !rtoPending)
    {
        // The timeout counts from the oldest unacknowledged packet: a QP that sends
        // again after everything was acknowledged starts a new wait, even if the timer
        // armed for an earlier packet is still pending (it re-arms from lastProgress).
        qp.lastProgress = now;
    }
    if (!rtoPending)
    {
        ArmRto(qp, now + CurrentRto(qp));
    }
}

Ptr<RdmaFrame>
RdmaNic::MakeDataPacket(SendQueuePair& qp)
{
    // Selective repeat resends the holes of the recovery window first (SkipReported
    // has left retxNext on a hole, if any remain).
    // A PSN NACKed as trimmed goes first (SkipReported has dropped those no longer needed).
    const bool resend = qp.resendPending;
    const bool hole = resend || qp.InRecovery();
    const bool wasIdle = !qp.HasOutstanding(); // nothing in flight before this packet
    const uint32_t psn = resend ? TakeResend(qp) : hole ? qp.retxNext++ : qp.sndNxt;
    const RdmaMessage& msg = MessageHolding(qp, psn);
    const Time now = RdmaSim::Now();
    Ptr<RdmaFrame> frame = RdmaFrame::MakeBlank(); // its header filled in place
    const uint32_t payload = FillDataHeader(frame->header, qp, msg, psn, now);
    CountDataPacket(qp, psn, payload, hole);
    PaceDataPacket(qp, payload);
    ArmRtoForSend(qp, wasIdle, now);
    frame->Sized();
    return frame;
}

uint32_t
RdmaNic::TakeResend(SendQueuePair& qp)
{
    // SkipReported has left resendFrom on it; it finds the next one.
    const uint32_t psn = qp.resendFrom++;
    qp.SetReport(psn, SendQueuePair::TRIM_RESENT);
    return psn;
}

Ptr<RdmaFrame>
RdmaNic::MakeProbePacket(SendQueuePair& qp)
{
    RateLimiter& limiter = m_limiters[qp.limiter];
    limiter.probeOutstanding = true;
    ++m_stats.probesSent;
    limiter.probeTimer =
        Simulator::Schedule(limiter.probeTimeout, &RdmaNic::ProbeExpired, this, qp.limiter);
    RdmaHeader h;
    h.type = RdmaPacketType::PROBE;
    h.priority = m_probeRequestPriority >= 0 ? m_probeRequestPriority : qp.priority;
    h.ecn = m_ecnCapable ? RdmaHeader::ECT0 : RdmaHeader::NOT_ECT;
    h.src = m_nodeId;
    h.dst = qp.peerNode;
    h.sport = qp.sport;
    h.dstQpn = qp.peerQpn;
    h.timestamp = RdmaSim::Now().GetNanoSeconds();
    return RdmaFrame::Make(h);
}

void
RdmaNic::ProbeExpired(uint32_t index)
{
    RateLimiter& limiter = m_limiters[index];
    limiter.probeOutstanding = false;
    limiter.probeTimeout = limiter.probeTimeout * 2;
    ++m_stats.probeTimeouts;
    limiter.cc->GetExtension()->OnProbeTimeout();
}

void
RdmaNic::NotePeerRate(SendQueuePair& qp, uint64_t rate)
{
    if (!qp.active)
    {
        return;
    }
    // The NIC's view of the rates of its QPs to this destination.
    CcPeerGroup& group = *qp.peers;
    if (!qp.rated)
    {
        qp.rated = true;
        ++group.ratedQps;
        qp.pacedRate = 0;
    }
    group.rateSum = group.rateSum - qp.pacedRate + rate;
    qp.pacedRate = rate;
}

uint64_t
RdmaNic::CappedWaitPs(const SendQueuePair& qp, uint64_t waitPs) const
{
    // A controller pacing by credit asks to be re-checked within PacingRecheck(), so a
    // rate that rises during a long gap takes effect within that time.
    if (!(qp.ccHooks & CongestionControl::HOOK_PACING))
    {
        return waitPs;
    }
    const Time cap = qp.cc->GetExtension()->PacingRecheck();
    return cap == Time::Max() ? waitPs : std::min<uint64_t>(waitPs, cap.GetPicoSeconds());
}

void
RdmaNic::Repace(SendQueuePair& qp)
{
    // The gap after the last packet was fixed at the rate of that moment; if the
    // controller has raised the rate since (an ACK can lift a window-limited Swift from
    // a millisecond gap), shorten the wait to what the new rate implies.
    RateLimiter& limiter = m_limiters[qp.limiter];
    const uint64_t now = RdmaSim::NowPs();
    if (limiter.nextSendPs <= now)
    {
        return;
    }
    const uint64_t rate = qp.cc->GetRate();
    const uint64_t due =
        rate >= m_device->GetBitRate()
            ? limiter.lastSendPs
            : limiter.lastSendPs +
                  SerializationClock::Picoseconds(limiter.lastWire, std::max<uint64_t>(rate, 1));
    const uint64_t earlier = std::max(now, due);
    if (earlier >= limiter.nextSendPs)
    {
        return;
    }
    limiter.nextSendPs = earlier;
    if (qp.state == SendQueuePair::State::WAITING)
    {
        // Re-queue under the earlier time; the old heap entry is now stale.
        m_scheduler.PushWaiting(qp.qpn, earlier, ++qp.waitGeneration);
        if (earlier <= now)
        {
            m_device->TryTransmit();
        }
        else
        {
            ArmWake(earlier);
        }
    }
}

void
RdmaNic::ArmWake(uint64_t ps)
{
    if (m_wake.IsPending() && m_wakePs <= ps)
    {
        return;
    }
    if (ps <= RdmaSim::NowPs())
    {
        return; // already due: the port's next pull will take it
    }
    m_wakePs = ps;
    const uint64_t nowPs = RdmaSim::NowPs();
    // Round up to the time resolution so the QP is due when we wake.
    m_wake.Schedule(NanoSeconds((ps - nowPs + kPsPerNs - 1) / kPsPerNs));
}

void
RdmaNic::Wake()
{
    // If the port is busy it pulls again when the frame is out (and Pull re-arms the
    // wake-up for QPs still waiting), so one kick is all that is needed.
    m_device->TryTransmit();
}

} // namespace ns3
