/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TIMELY_H
#define RDMA_TIMELY_H

#include "ns3/congestion-control.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * TIMELY (Mittal et al., SIGCOMM 2015): rate-based, delay-gradient congestion control,
 * with the CoNEXT 2016 patch (Zhu et al., "ECN or Delay") as an option.
 *
 * One rate update per RTT sample. A sample is the completion of a segment: the ACKed
 * bytes are summed and the ACK that brings the sum to Segment bytes (one MTU by default,
 * so any ACK) gives the sample's RTT
 * (that ACK's RTT minus the segment's serialization time at line rate, floored at 0; see
 * Init). With OncePerRtt, a completed segment is a sample only once the ACKs cover the
 * first packet sent after the previous sample (the HPCC simulator's once-per-RTT update).
 * With rtt the sample, prev_rtt the previous one:
 *   new_rtt_diff = rtt - prev_rtt;  rtt_diff = (1 - a) rtt_diff + a new_rtt_diff;
 *   g = rtt_diff / MinRtt;
 *   rtt < TLow:   rate += delta (N delta with HaiCount Increases, the default: the HPCC
 *                 simulator's and ns3-datacenter's TIMELY count every increase)
 *   rtt > THigh:  rate *= 1 - Beta (1 - THigh / rtt)
 *   Original: g <= 0: rate += N delta (N = HaiFactor once HaiThreshold increases in a
 *                     row, or with Gradients samples with g <= 0, had no decrease between
 *                     them; else 1)
 *             g > 0:  rate *= 1 - Beta g
 *   Patched:  rate = delta (1 - w) + rate (1 - PatchedBeta w (rtt - RttRef) / RttRef),
 *             w = 0 (g <= -1/4), 2g + 1/2 (|g| < 1/4), 1 (g >= 1/4).
 * A single update never cuts the rate by more than MaxDecrease (50%); the rate stays in
 * [MinRate, line rate]. The first sample only sets prev_rtt (a gradient needs two).
 *
 * No timers: everything happens in OnAck(). Losses, NACKs and timeouts do not change the
 * rate (TIMELY reacts to delay only; loss recovery is the NIC's job).
 */
class Timely : public CongestionControl
{
  public:
    /// Rate rule inside [TLow, THigh].
    enum Variant
    {
        ORIGINAL, ///< SIGCOMM 2015: gradient rule with HAI
        PATCHED,  ///< CoNEXT 2016: weighted gradient/RTT rule (unique fair fixed point)
    };

    /// What the hyper-active increase counts.
    enum HaiCount
    {
        INCREASES, ///< every increase in a row, below TLow too (HPCC simulator, ns3-datacenter)
        GRADIENTS, ///< non-positive gradients in a row; below TLow +delta (SIGCOMM 2015 text)
    };

    static TypeId GetTypeId();
    Timely();

    /// Weight w(g) of the patched rule: 0 (g <= -1/4), 2g + 1/2 (|g| < 1/4), 1 (g >= 1/4).
    static double PatchedWeight(double gradient);

    /// RTT samples taken so far (segments completed with an RTT).
    uint64_t GetSampleCount() const;
    /// RTT of the last sample, serialization excluded (ns, fractional).
    double GetLastRttNs() const;
    /// EWMA of the RTT differences (ns).
    double GetRttDiffNs() const;
    /// Normalised gradient of the last sample (rtt_diff / MinRtt).
    double GetGradient() const;
    /// The HAI counter: increases in a row (HaiCount Increases) or consecutive samples with
    /// a non-positive gradient and no decrease (Gradients).
    uint32_t GetNonPositiveCount() const;
    /// Additive step delta in use (bit/s), AddStep scaled to the line rate.
    double GetAddStep() const;
    /// Serialization time subtracted from each sample's RTT (ns, fractional).
    double GetSegmentSerializationNs() const;
    /// ACKed bytes counted towards the segment in progress.
    uint64_t GetSegmentBytes() const;

  private:
    // CongestionControl
    void DoInit(const CcContext& ctx) override;
    void DoOnAck(const CcAck& ack) override;
    uint64_t DoGetRate() override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: OnAck
    uint16_t DoImplementedHooks() const override;

    /// Apply the rate rule for one RTT sample (ns, serialization excluded).
    void Update(double rtt);
    /// New rate after a decrease to \p proposed, limited to MaxDecrease of the rate.
    double LimitDecrease(double proposed) const;

    // Attributes
    Variant m_variant;
    HaiCount m_haiCount;
    uint32_t m_segment;
    double m_alpha;
    double m_beta;
    double m_patchedBeta;
    DataRate m_addStep;
    Time m_tLow;
    Time m_tHigh;
    Time m_minRtt;
    Time m_rttRef;
    uint32_t m_haiThreshold;
    double m_haiFactor;
    double m_maxDecrease;
    DataRate m_minRate;
    bool m_oncePerRtt;

    // Derived at Init (ns / bit/s), so the ACK path does no Time arithmetic. Times are
    // kept in nanoseconds: the NIC's RTTs are whole ns, exact in a double.
    double m_delta;
    double m_serialization;
    uint64_t m_segmentBytes; ///< Segment in use (one MTU when Segment is 0)
    double m_tLowNs;
    double m_tHighNs;
    double m_minRttNs;
    double m_rttRefNs;
    double m_floor;

    // State
    double m_rc;        ///< current rate (bit/s)
    uint64_t m_acc;     ///< ACKed bytes of the segment in progress
    uint64_t m_samples; ///< RTT samples taken
    double m_prevRtt;   ///< previous sample (ns)
    double m_rttDiff;   ///< EWMA of RTT differences (ns)
    double m_gradient;  ///< last normalised gradient
    uint32_t m_nonPositive;
    uint32_t m_gatePsn; ///< OncePerRtt: sndNxt at the last sample
};

} // namespace ns3

#endif /* RDMA_TIMELY_H */
