/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LOSS_RECOVERY_H
#define RDMA_LOSS_RECOVERY_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/queue-pair.h"
#include "ns3/rdma-header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * What a responder answers to one data packet, as a loss-recovery policy decides it.
 */
struct RecvReply
{
    bool send = false;                         ///< whether an ACK or NACK goes out
    RdmaPacketType type = RdmaPacketType::ACK; ///< ACK or NACK
    uint32_t psn = 0;            ///< its PSN: ACK the last in-order PSN, NACK the expected one
    bool outOfOrder = false;     ///< the packet arrived beyond the expected PSN
    uint32_t deliveredBytes = 0; ///< payload accepted for the first time
};

/**
 * \ingroup rdma
 * How an RC queue pair recovers from loss, in the style of ns-3's TcpCongestionOps: a
 * policy chosen by TypeId (RdmaNic attribute LossRecovery) whose methods are pure
 * decisions on the queue-pair state the NIC hands them, so that a new recovery scheme is
 * one class and every rule can be tested without a simulation. One instance may serve
 * every NIC: it keeps no state of its own besides its attributes.
 *
 * Call order, per packet: the NIC has already sent any CNP the packet's CE mark calls for
 * when it asks OnData; it applies the cumulative acknowledgement of a NACK (and tells the
 * congestion controller) before OnNack; it calls OnTimeout when the retransmission timer
 * expires with packets outstanding, then reschedules the QP and re-arms the timer with
 * GetRto. The NIC sends what the QP state says, holes first (SendQueuePair::retxNext up to
 * recoverHigh, skipping PSNs in `sacked`), then new PSNs from sndNxt.
 */
class LossRecovery : public Object
{
  public:
    static TypeId GetTypeId();
    LossRecovery();

    /**
     * Responder: data packet \p h arrived on \p rq at \p now.
     * \param rq the responder QP (expectedPsn, placed, sinceAck, NACK state), updated
     * \param h the packet's header (psn, payload, flags)
     * \param ackInterval the NIC's AckInterval: acknowledge every N in-order packets
     * \param now the time of arrival
     * \return what to send back and what was accepted
     */
    virtual RecvReply OnData(RecvQueuePair& rq,
                             const RdmaHeader& h,
                             uint32_t ackInterval,
                             Time now) const = 0;
    /**
     * Requester: NACK \p h arrived (its cumulative acknowledgement, h.psn, is already
     * applied). Sets what the QP sends next; the NIC reschedules it. Default: go back to
     * the PSN the responder expects (go-back-N).
     * \param qp the requester QP (sndUna, sndNxt, recovery state), updated
     * \param h the NACK (psn: the PSN expected; sackPsn: the one that arrived)
     * \param now the time of arrival (recorded as progress)
     */
    virtual void OnNack(SendQueuePair& qp, const RdmaHeader& h, Time now) const;
    /**
     * Responder: data packet \p h arrived trimmed (FLAG_TRIMMED: a switch cut its
     * payload off) on \p rq at \p now. Nothing of it is delivered. Default (selective
     * repeat, direct placement): a NACK (cumulative ACK expectedPsn; the NIC sends the
     * packet's PSN as sackPsn, with FLAG_TRIMMED) unless the packet is one the responder
     * already has (then nothing).
     */
    virtual RecvReply OnTrimmedData(RecvQueuePair& rq, const RdmaHeader& h, Time now) const;
    /**
     * Requester: a NACK with FLAG_TRIMMED arrived (its cumulative acknowledgement already
     * applied): PSN \p h.sackPsn was trimmed. Default: resend exactly that PSN, first
     * (SendQueuePair::TRIM_NACKED), however full the window is: it is no longer in
     * flight. Once resent (TRIM_RESENT) selective repeat's hole scan skips it.
     */
    virtual void OnTrimNack(SendQueuePair& qp, const RdmaHeader& h, Time now) const;
    /**
     * Requester: the retransmission timer expired at \p now with packets outstanding and
     * no progress for GetRto(). Sets what the QP sends next; the NIC then reschedules the
     * QP and re-arms the timer. Default: go back to the oldest unacknowledged PSN.
     * \param qp the requester QP, updated
     * \param now the expiry time (recorded as progress)
     */
    virtual void OnTimeout(SendQueuePair& qp, Time now) const;
    /**
     * Requester: the retransmission timeout in force for \p qp (used unless its
     * congestion controller chooses one). Default: RetransmissionTimeout.
     */
    virtual Time GetRto(const SendQueuePair& qp) const;
    /// Short name used in scenarios (nic.loss_recovery) and outputs: "go_back_n", ...
    virtual std::string GetName() const = 0;

  protected:
    /// Restart sending at \p psn (never below the oldest unacknowledged PSN).
    static void GoBack(SendQueuePair& qp, uint32_t psn, Time now);
    /**
     * Responder: the expected packet \p h arrived: it and the packets placed after it
     * are now in sequence. Returns its payload (accepted).
     */
    static uint32_t AcceptInOrder(RecvQueuePair& rq, const RdmaHeader& h);
    /// A reply of \p type for \p psn.
    static RecvReply Reply(RdmaPacketType type, uint32_t psn);

  private:
    Time m_rto;
};

} // namespace ns3

#endif /* RDMA_LOSS_RECOVERY_H */
