/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HPCC_PINT_H
#define RDMA_HPCC_PINT_H

#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup rdma
 * HPCC driven by PINT's one value (Ben Basat et al., "PINT: Probabilistic In-band Network
 * Telemetry", SIGCOMM 2020, section 4.3 and its HPCC evaluation), name "hpcc-pint".
 *
 * Instead of a record per hop, a data packet carries one code (HOOK_PINT: NeedsPint()):
 * each switch egress keeps HPCC's utilisation estimate of its port,
 *   u = (1 - w) u + w (qlen/(B T) + txRate/B),  w = min(dt, T)/T   (PintMeter),
 * and writes max(code, encode(u)) on a log scale with unbiased random rounding
 * (PintCode), so the ACK echoes U, the path's largest u. The sender applies HPCC's rule
 * (Li et al., SIGCOMM 2019, Algorithm 1) to U itself, with no per-hop state:
 *   W = Wc/(U/eta) + W_AI   if U >= eta or incStage >= MaxStage   (incStage := 0)
 *   W = Wc + W_AI           otherwise                             (incStage + 1)
 * on every used ACK ("fast reaction"), clamped to [MinRate x T, line rate x T]; Wc and
 * incStage change only once per RTT, as Hpcc's (RttBoundary). The QP is paced at W/T and
 * in flight is capped at W bytes; W starts at line rate x T. An ACK is used with
 * probability SampleProbability (PINT's p; 1: every ACK, no draw). Eta, MaxStage,
 * RateAi, MinRate, BaseRtt and RttBoundary are Hpcc's, with its defaults.
 */
class HpccPint : public CongestionControl
{
  public:
    /// What ends the RTT after which Wc is updated again (as Hpcc::RttBoundary).
    enum RttBoundary
    {
        PSN,       ///< the ACK's ackPsn passes the sndNxt recorded at the last update
        SEND_TIME, ///< the ACKed packet was sent after the last update (now - rtt)
    };

    static TypeId GetTypeId();
    HpccPint();

    /// U of the last used ACK (dimensionless).
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
    /// T, the RTT the window and the rate are normalised to.
    Time GetT() const;

  private:
    // CongestionControl
    void DoInit(const CcContext& ctx) override;
    void DoOnAck(const CcAck& ack) override;
    uint64_t DoGetRate() override;
    uint64_t DoGetWindow() const override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: OnAck, GetWindow, and it reads PINT
    uint16_t DoImplementedHooks() const override;

    /// Set W, keeping it within [min, W_init], and the rate that follows from it.
    void SetWindow(double w);
    /// Whether \p ack acknowledges data sent after the last Wc update.
    bool EndsRtt(const CcAck& ack) const;

    // Attributes
    double m_eta;
    uint32_t m_maxStage;
    DataRate m_rateAi;
    DataRate m_minRate;
    Time m_baseRtt;
    RttBoundary m_rttBoundary;
    double m_sampleProbability;

    // Derived at Init
    double m_tNs;                        ///< T (ns)
    double m_wInit;                      ///< bytes
    double m_wMin;                       ///< bytes
    double m_wAi;                        ///< bytes
    UniformRandomVariable* m_rng;        ///< the NIC's draws (or m_ownRng's)
    Ptr<UniformRandomVariable> m_ownRng; ///< outside a NIC

    // State
    double m_u;
    double m_w;
    double m_wc;
    uint32_t m_incStage;
    uint32_t m_lastUpdateSeq; ///< sndNxt at the last Wc update
    Time m_lastUpdateTime;    ///< time of the last Wc update
};

} // namespace ns3

#endif /* RDMA_HPCC_PINT_H */
