/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/timely.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/rdma-wire.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Timely");
NS_OBJECT_ENSURE_REGISTERED(Timely);

namespace
{
/// Line rate at which AddStep is given; the step in use scales linearly with the line rate.
constexpr double kAddStepReferenceRate = 100e9;
} // namespace

TypeId
Timely::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Timely")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<Timely>()
            .AddAttribute("Variant",
                          "Rate rule between TLow and THigh. Original (default): SIGCOMM 2015 "
                          "gradient rule with HAI, what the HPCC simulator runs; it has no "
                          "unique fixed point, so flows may settle at an arbitrary split. "
                          "Patched: CoNEXT 2016 (Zhu et al.) rule rate = delta (1-w) + "
                          "rate (1 - PatchedBeta w (rtt - RttRef)/RttRef), which converges to "
                          "the fair share.",
                          EnumValue(Timely::ORIGINAL),
                          compat::MakeEnumAccessor(&Timely::m_variant),
                          MakeEnumChecker(Timely::ORIGINAL, "Original", Timely::PATCHED, "Patched"))
            .AddAttribute("Segment",
                          "Bytes per completion event: one RTT sample and one rate update per "
                          "Segment bytes ACKed (bytes, default 0 = one MTU: any ACK may give "
                          "the sample, as the HPCC simulator's and ns3-datacenter's TIMELY "
                          "sample; the paper's NIC completes 16-64 KB segments). With "
                          "OncePerRtt the update is once per round trip either way; a segment "
                          "larger than what a QP sends in one round trip delays it, and at a "
                          "low rate the climb back then takes one segment per step.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Timely::m_segment),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Alpha",
                          "EWMA weight a of the newest RTT difference, no unit (default 0.875, "
                          "HPCC simulator baseline; the TIMELY authors' value is 0.02, which "
                          "smooths the gradient over ~50 samples).",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&Timely::m_alpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor beta of the original gradient rule "
                          "and of the THigh rule (both variants), no unit (default 0.8, paper).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&Timely::m_beta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("PatchedBeta",
                          "Decrease factor beta of the patched rule, no unit (default 0.008, "
                          "CoNEXT 2016).",
                          DoubleValue(0.008),
                          MakeDoubleAccessor(&Timely::m_patchedBeta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AddStep",
                          "Additive increase step delta at a 100 Gb/s line rate; the step in "
                          "use scales linearly with the line rate (rate, default 100 Mb/s = "
                          "the paper's 10 Mb/s per 10 Gb/s).",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&Timely::m_addStep),
                          MakeDataRateChecker())
            .AddAttribute("TLow",
                          "Below this RTT the rate only increases additively (time, default "
                          "50 us, paper).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&Timely::m_tLow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("THigh",
                          "Above this RTT: rate *= 1 - Beta (1 - THigh/rtt) (time, default "
                          "500 us, paper).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&Timely::m_tHigh),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MinRtt",
                          "Normalises the gradient: g = rtt_diff / MinRtt (time, default 20 us, "
                          "paper and HPCC simulator).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&Timely::m_minRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RttRef",
                          "Reference RTT of the patched rule: at zero gradient the rate "
                          "settles where rtt = RttRef (1 + delta / (PatchedBeta rate)) (time, "
                          "default 50 us = TLow, simulator choice: the CoNEXT paper leaves it "
                          "as a parameter).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&Timely::m_rttRef),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("HaiThreshold",
                          "Increases (or non-positive gradients, HaiCount) in a row after which "
                          "an increase is HaiFactor x delta (samples, default 5, paper).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&Timely::m_haiThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "HaiCount",
                "What the hyper-active increase counts. Increases (default): every "
                "increase in a row, below TLow too, where the step is then also "
                "HaiFactor x delta; any decrease ends the run (the HPCC simulator's "
                "and ns3-datacenter's TIMELY). Gradients: non-positive gradients in "
                "a row, and below TLow the step is always delta (the SIGCOMM 2015 "
                "pseudo-code).",
                EnumValue(Timely::INCREASES),
                compat::MakeEnumAccessor(&Timely::m_haiCount),
                MakeEnumChecker(Timely::INCREASES, "Increases", Timely::GRADIENTS, "Gradients"))
            .AddAttribute("HaiFactor",
                          "N of the hyper-active increase, rate += N delta (no unit, default "
                          "5, paper).",
                          DoubleValue(5.0),
                          MakeDoubleAccessor(&Timely::m_haiFactor),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("MaxDecrease",
                          "Largest cut of one update, fraction of the rate (default 0.5, "
                          "docs/design.md: each decrease clamped to at most 50%).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&Timely::m_maxDecrease),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("OncePerRtt",
                          "Take at most one sample per round trip: a completed segment is a "
                          "sample only once an ACK covers the first packet sent after the "
                          "previous sample (bool, default true, as the HPCC simulator's TIMELY "
                          "updates; false = every segment is a sample, the SIGCOMM 2015 text). "
                          "At 100G a 16 KB segment lasts 1.4 us, far less than a loaded RTT: "
                          "per segment, one RTT of stale rising samples cuts the rate many "
                          "times, and an 8:1 long-flow incast then carries ~18 Gb/s instead of "
                          "filling the link, which is why false is not the default.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&Timely::m_oncePerRtt),
                          MakeBooleanChecker())
            .AddAttribute("MinRate",
                          "Lowest rate (rate, default 100 Mb/s, HPCC simulator; the paper "
                          "gives none).",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&Timely::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

Timely::Timely()
    : m_variant(ORIGINAL),
      m_haiCount(INCREASES),
      m_segment(0),
      m_alpha(0.875),
      m_beta(0.8),
      m_patchedBeta(0.008),
      m_haiThreshold(5),
      m_haiFactor(5.0),
      m_maxDecrease(0.5),
      m_oncePerRtt(true),
      m_delta(0),
      m_serialization(0),
      m_segmentBytes(0),
      m_tLowNs(0),
      m_tHighNs(0),
      m_minRttNs(0),
      m_rttRefNs(0),
      m_floor(0),
      m_rc(0),
      m_acc(0),
      m_samples(0),
      m_prevRtt(0),
      m_rttDiff(0),
      m_gradient(0),
      m_nonPositive(0),
      m_gatePsn(0)
{
}

void
Timely::DoInit(const CcContext& ctx)
{
    const double line = double(ctx.lineRate);
    m_delta = double(m_addStep.GetBitRate()) * line / kAddStepReferenceRate;
    // The paper's sample is t_completion - t_send - Seg/NLR: the time the NIC needs to put
    // the segment on the wire is not congestion. A segment of S payload bytes is
    // ceil(S / mtu) packets, each with its headers, preamble and gap on the wire.
    // The NIC's RTT is that of the segment's last packet (timestamped when it starts on the
    // wire), which holds only its own serialization; subtracting the whole segment's, as
    // the specification says (docs/design.md, "TIMELY"), also removes the other packets'
    // time (1.33 us for 16 KB at 100G): a constant offset, so the gradient is unchanged
    // and the TLow/THigh tests move by that much; the floor at 0 keeps short paths physical.
    const uint64_t mtu = ctx.mtu > 0 ? ctx.mtu : 1;
    m_segmentBytes = m_segment > 0 ? m_segment : mtu;
    const uint64_t packets = (m_segmentBytes + mtu - 1) / mtu;
    const double wireBytes =
        double(m_segmentBytes) + double(packets * rdmawire::kDataOverheadBytes);
    m_serialization = line > 0 ? wireBytes * 8 * 1e9 / line : 0;
    m_tLowNs = double(m_tLow.GetNanoSeconds());
    m_tHighNs = double(m_tHigh.GetNanoSeconds());
    m_minRttNs = double(m_minRtt.GetNanoSeconds());
    m_rttRefNs = double(m_rttRef.GetNanoSeconds());
    m_floor = double(std::min(m_minRate.GetBitRate(), ctx.lineRate));
    m_rc = line;
    m_acc = 0;
    m_samples = 0;
    m_prevRtt = 0;
    m_rttDiff = 0;
    m_gradient = 0;
    m_nonPositive = 0;
    m_gatePsn = 0;
    m_rate = ctx.lineRate;
}

std::string
Timely::DoGetName() const
{
    return "timely";
}

uint16_t
Timely::DoImplementedHooks() const
{
    return HOOK_ACK;
}

double
Timely::PatchedWeight(double gradient)
{
    if (gradient <= -0.25)
    {
        return 0;
    }
    if (gradient >= 0.25)
    {
        return 1;
    }
    return 2 * gradient + 0.5;
}

void
Timely::DoOnAck(const CcAck& ack)
{
    m_acc += ack.ackedBytes;
    // An ACK without a timestamp cannot close a segment: the next one that has one will.
    if (m_acc < m_segmentBytes || !ack.rtt.IsStrictlyPositive())
    {
        return;
    }
    // ackPsn is cumulative: every PSN below it arrived. The bytes keep accumulating while
    // the gate is closed; the remainder below is taken when it opens.
    if (m_oncePerRtt && m_samples > 0 && ack.ackPsn <= m_gatePsn)
    {
        return;
    }
    m_gatePsn = ack.sndNxt;
    // One sample per completion event even if a cumulative ACK covers several segments
    // (after a loss): they all share this one RTT.
    m_acc %= m_segmentBytes;
    ++m_samples;
    Update(std::max(0.0, double(ack.rtt.GetNanoSeconds()) - m_serialization));
}

double
Timely::LimitDecrease(double proposed) const
{
    return std::max(proposed, m_rc * (1 - m_maxDecrease));
}

void
Timely::Update(double rtt)
{
    if (m_samples == 1)
    {
        // The first sample has no predecessor: a difference against 0 would be a huge
        // positive gradient and a spurious cut.
        m_prevRtt = rtt;
        NS_LOG_LOGIC("first sample rtt " << rtt);
        return;
    }
    const double newDiff = rtt - m_prevRtt;
    m_prevRtt = rtt;
    m_rttDiff = (1 - m_alpha) * m_rttDiff + m_alpha * newDiff;
    m_gradient = m_rttDiff / m_minRttNs;
    const bool nonPositive = m_gradient <= 0;

    if (rtt < m_tLowNs)
    {
        if (m_haiCount == INCREASES)
        {
            // An increase like any other: the run of increases goes on, and its step too.
            m_rc += (m_nonPositive >= m_haiThreshold ? m_haiFactor : 1.0) * m_delta;
            ++m_nonPositive;
        }
        else
        {
            // The HAI counter follows the gradient here too, so a flow leaving the T_low
            // region with a steady RTT keeps its hyper-active step; only a decrease or a
            // positive gradient ends the run.
            m_rc += m_delta;
            m_nonPositive = nonPositive ? m_nonPositive + 1 : 0;
        }
    }
    else if (rtt > m_tHighNs)
    {
        m_rc = LimitDecrease(m_rc * (1 - m_beta * (1 - m_tHighNs / rtt)));
        m_nonPositive = 0;
    }
    else if (m_variant == PATCHED)
    {
        const double w = PatchedWeight(m_gradient);
        const double next =
            m_delta * (1 - w) + m_rc * (1 - m_patchedBeta * w * (rtt - m_rttRefNs) / m_rttRefNs);
        const bool decrease = next < m_rc;
        m_rc = decrease ? LimitDecrease(next) : next;
        m_nonPositive = nonPositive && !decrease ? m_nonPositive + 1 : 0;
    }
    else if (nonPositive)
    {
        // HAI: after HaiThreshold increases (or non-positive gradients) in a row the step is
        // N delta.
        const double n = m_nonPositive >= m_haiThreshold ? m_haiFactor : 1.0;
        m_rc += n * m_delta;
        ++m_nonPositive;
    }
    else
    {
        m_rc = LimitDecrease(m_rc * (1 - m_beta * m_gradient));
        m_nonPositive = 0;
    }
    m_rc = std::clamp(m_rc, m_floor, double(m_ctx.lineRate));
    m_rate = static_cast<uint64_t>(m_rc);
    NS_LOG_LOGIC("rtt " << rtt << " g " << m_gradient << " rate " << m_rc);
}

uint64_t
Timely::DoGetRate()
{
    return static_cast<uint64_t>(m_rc);
}

uint64_t
Timely::GetSampleCount() const
{
    return m_samples;
}

double
Timely::GetLastRttNs() const
{
    return m_prevRtt;
}

double
Timely::GetRttDiffNs() const
{
    return m_rttDiff;
}

double
Timely::GetGradient() const
{
    return m_gradient;
}

uint32_t
Timely::GetNonPositiveCount() const
{
    return m_nonPositive;
}

double
Timely::GetAddStep() const
{
    return m_delta;
}

double
Timely::GetSegmentSerializationNs() const
{
    return m_serialization;
}

uint64_t
Timely::GetSegmentBytes() const
{
    return m_acc;
}

} // namespace ns3
