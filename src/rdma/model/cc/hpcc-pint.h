/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HPCC_PINT_H
#define RDMA_HPCC_PINT_H

#include "ns3/hpcc.h"
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
 * probability SampleProbability (PINT's p; 1: every ACK, no draw). The rule, its
 * attributes (Eta, MaxStage, RateAi, MinRate, BaseRtt, RttBoundary) and their defaults
 * are Hpcc's own (Hpcc::ApplyWindowRule); only the source of U differs.
 */
class HpccPint : public Hpcc
{
  public:
    static TypeId GetTypeId();
    HpccPint();

  private:
    // CongestionControl (Hpcc's window rule, U from PINT's value instead of INT records)
    void DoInit(const CcContext& ctx) override;
    void DoOnAck(const CcAck& ack) override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: OnAck, GetWindow, and it reads PINT
    uint16_t DoImplementedHooks() const override;

    double m_sampleProbability;          ///< PINT's p (attribute)
    UniformRandomVariable* m_rng;        ///< the NIC's draws (or m_ownRng's)
    Ptr<UniformRandomVariable> m_ownRng; ///< outside a NIC
};

} // namespace ns3

#endif /* RDMA_HPCC_PINT_H */
