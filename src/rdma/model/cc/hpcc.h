/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HPCC_H
#define RDMA_HPCC_H

#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/int-hop.h"
#include "ns3/int-path-history.h"

namespace ns3
{

/**
 * \ingroup rdma
 * HPCC sender (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019).
 *
 * Switches push one IntHop record per egress on every data packet (HOOK_INT: NeedsInt()),
 * the receiver echoes the stack in the ACK. Per ACK, for each hop i against the record of
 * the previous ACK: txRate = dTxBytes/dts and
 *   u_i = min(qlen, qlen_prev)/(B_i T) + txRate/B_i      (B_i in bytes/s, T = BaseRtt),
 * u = max_i u_i, tau = the dts of that hop (at most T), U = (1 - tau/T) U + (tau/T) u.
 * The window is recomputed from the reference window Wc on every ACK:
 *   W = Wc/(U/eta) + W_AI   if U >= eta or incStage >= MaxStage   (multiplicative step)
 *   W = Wc + W_AI           otherwise                             (additive step)
 * clamped to [MinRate x T, line rate x T]. Wc = W, and incStage (0 after a
 * multiplicative step, +1 after an additive one), change only once per RTT: when the
 * ACK's ackPsn passes (is above) the sndNxt recorded at the previous Wc update, i.e. when
 * data sent after that update is acknowledged. The QP is paced at W/T and in flight is
 * capped at W bytes. W starts at line rate x T.
 *
 * With the NIC's per-destination rate limiting one controller serves several QPs whose
 * PSNs are unrelated, and the PSN rule fires at random or never (a QP with larger PSNs
 * passes at once; once the recorded sndNxt exceeds every short message's last PSN, Wc
 * freezes). RttBoundary = SendTime uses the ACKed packet's send time instead (now - rtt
 * after the last update), which is the same test for one QP with in-order delivery.
 *
 * Refinements where the specification is silent, each explained in hpcc.cc:
 *  - the first ACK with INT only stores the records (no delta yet) and starts the first
 *    RTT; a change of the number of records (a path change) re-stores them;
 *  - U starts at 1, as in the HPCC simulator;
 *  - a hop whose timestamp did not advance carries no new information and is skipped; a
 *    record older than the stored one (reordering: timestamp delta above half the 24-bit
 *    range) is ignored; after a silence of a quarter of the wrap period of the 24-bit
 *    timestamp (16.8 ms) or of the 20-bit byte counter (128 MiB at the hop's rate) the
 *    deltas could be ambiguous, so the records are re-stored instead;
 *  - only the first (hops - 1) records are used, the switch egresses of the forward path
 *    (CcContext::hops counts links). A switch that also stamps the ACK on its way back
 *    appends the reverse path's records after them; they must not drive this QP's window.
 * HPCC with PINT's one value instead of per-hop records is HpccPint (hpcc-pint).
 */
class Hpcc : public CongestionControl
{
  public:
    /// What ends the RTT after which Wc is updated again.
    enum RttBoundary
    {
        PSN,       ///< the ACK's ackPsn passes the sndNxt recorded at the last update
        SEND_TIME, ///< the ACKed packet was sent after the last update (now - rtt)
    };

    static TypeId GetTypeId();
    Hpcc();

    /// Normalised utilisation estimate U (EWMA over the most loaded hop).
    double GetUtilization() const;
    /// Window W in use (bytes).
    double GetCurrentWindow() const;
    /// Reference window Wc (bytes), updated once per RTT.
    double GetReferenceWindow() const;
    /// Additive-increase stages since the last multiplicative step.
    uint32_t GetIncStage() const;
    /// W_AI in bytes for this QP's line rate and T.
    double GetWindowAi() const;
    /// W_init = line rate x T (bytes), also the largest window.
    double GetInitialWindow() const;
    /// T, the RTT the utilisation is normalised to.
    Time GetT() const;

  protected:
    /// Derive T, W_init, W_min and W_AI from \p ctx and start at W_init (a subclass that
    /// obtains U otherwise, HpccPint, calls it from its own DoInit).
    void DoInit(const CcContext& ctx) override;
    /**
     * HPCC's window rule on the current U (m_u): W from Wc (multiplicative or additive
     * step), and Wc and incStage once per RTT (EndsRtt). Called on every used ACK, after
     * U is updated; shared by every source of U (INT records here, PINT's value in
     * HpccPint).
     * \param ack the ACK that brought the new U
     */
    void ApplyWindowRule(const CcAck& ack);

  private:
    // CongestionControl
    void DoOnAck(const CcAck& ack) override;
    uint64_t DoGetRate() override;
    uint64_t DoGetWindow() const override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: OnAck, GetWindow, and it reads INT
    uint16_t DoImplementedHooks() const override;

    /// Set W, keeping it within [min, W_init], and the rate that follows from it.
    void SetWindow(double w);
    /// Whether \p ack acknowledges data sent after the last Wc update.
    bool EndsRtt(const CcAck& ack) const;
    /// The most loaded of \p n hops (\p uMax, its \p tau), newer records kept; false: none.
    bool MostLoadedHop(const CcAck& ack, uint32_t n, double& uMax, double& tau);
    /// Fold \p uMax over \p tau into U, then ApplyWindowRule.
    void UpdateWindow(const CcAck& ack, double uMax, double tau);

  protected:
    // Attributes
    double m_eta;
    uint32_t m_maxStage;
    DataRate m_rateAi;
    DataRate m_minRate;
    Time m_baseRtt;
    RttBoundary m_rttBoundary;

    // Derived at Init
    double m_tNs;   ///< T (ns)
    double m_wInit; ///< bytes
    double m_wMin;  ///< bytes
    double m_wAi;   ///< bytes

    // State
    double m_u;
    double m_w;
    double m_wc;
    uint32_t m_incStage;
    uint32_t m_lastUpdateSeq; ///< sndNxt at the last Wc update
    Time m_lastUpdateTime;    ///< time of the last Wc update
    IntPathHistory m_int;     ///< the forward path's records of the previous ACK
};

} // namespace ns3

#endif /* RDMA_HPCC_H */
