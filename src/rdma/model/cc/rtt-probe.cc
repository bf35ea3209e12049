/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rtt-probe.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RttProbe");
NS_OBJECT_ENSURE_REGISTERED(RttProbe);

TypeId
RttProbe::GetTypeId()
{
    // NvidiaSample defaults: the reference parameterisation (docs/design.md, "RTT-probe": NVIDIA's
    // public RTT sample algorithm, DOCA PCC rtt_template), rates relative to the line rate.
    static TypeId tid =
        TypeId("ns3::RttProbe")
            .SetParent<CongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<RttProbe>()
            .AddAttribute("Preset",
                          "Rule set. Scalable (default): holds thousands of QPs per port "
                          "without PFC (every data packet probes, proportional decrease, "
                          "flow-scaled target, multiplicative increase below one MTU per "
                          "RTT, first rate from the NIC's QP counts; rtt-probe.h). "
                          "NvidiaSample: NVIDIA's RTT sample algorithm (fixed x0.9 / +5% "
                          "line-rate steps per probe answer, line-rate start), the "
                          "published reference.",
                          EnumValue(RttProbe::PRESET_SCALABLE),
                          compat::MakeEnumAccessor(&RttProbe::SetParam<&Params::preset>,
                                                   &RttProbe::GetParam<&Params::preset>),
                          MakeEnumChecker(RttProbe::PRESET_SCALABLE,
                                          "Scalable",
                                          RttProbe::PRESET_NVIDIA_SAMPLE,
                                          "NvidiaSample"))
            .AddAttribute("TargetMode",
                          "Where the target RTT comes from. Absolute (default): TargetRtt as "
                          "given, as the NIC sample does (a real NIC does not know the path's "
                          "base RTT); it must exceed every path's base RTT, else the "
                          "controller only decreases (4.2 us on the 1 us star, ~8.4 us on the "
                          "1 us leaf-spine: 13 us fits both). BasePlusMargin (simulator "
                          "variant): the path's base RTT + TargetMargin, the same queueing "
                          "delay for every path length (no RTT unfairness between short and "
                          "long paths, no collapse on long paths).",
                          EnumValue(RttProbe::TARGET_ABSOLUTE),
                          compat::MakeEnumAccessor(&RttProbe::SetParam<&Params::targetMode>,
                                                   &RttProbe::GetParam<&Params::targetMode>),
                          MakeEnumChecker(RttProbe::TARGET_ABSOLUTE,
                                          "Absolute",
                                          RttProbe::TARGET_BASE_PLUS,
                                          "BasePlusMargin"))
            .AddAttribute("TargetRtt",
                          "Target RTT in the Absolute mode: a sample above it decreases the "
                          "rate, at or below it increases it (time, default 13 us: NIC, "
                          "NVIDIA RTT sample BASE_RTT).",
                          TimeValue(MicroSeconds(13)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::targetRttAttr>,
                                           &RttProbe::GetParam<&Params::targetRttAttr>),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("TargetMargin",
                          "Target RTT minus the path's base RTT in the BasePlusMargin mode, "
                          "i.e. the queueing delay the controller aims at (time, default "
                          "9 us: simulator, the 13 us NIC target minus the 4.2 us base RTT of "
                          "the 1 us star, rounded, so both modes agree there).",
                          TimeValue(MicroSeconds(9)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::targetMargin>,
                                           &RttProbe::GetParam<&Params::targetMargin>),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ProbeInterval",
                          "Shortest time between two probes, sent to sent (both presets; "
                          "Scalable also waits that long without any sample before it "
                          "probes); one probe is outstanding at most, so a probe leaves every "
                          "max(ProbeInterval, "
                          "RTT) (time, default 0 = the target RTT: simulator; the controller "
                          "steers the RTT to the target, so this is one probe per RTT at the "
                          "operating point, as the NIC sample's re-ask on each answer; a "
                          "shorter interval only makes the additive increase (AiStep per "
                          "answer) faster while the queue is empty, hence a larger "
                          "overshoot: 8:1 incast at 100G with the base RTT, 4.2 us, peaks at "
                          "1.4 MB instead of 0.9 MB).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::probeIntervalAttr>,
                                           &RttProbe::GetParam<&Params::probeIntervalAttr>),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MdFactor",
                          "NvidiaSample: Rate factor for a sample above the target RTT (no unit, "
                          "default "
                          "0.9: NIC, NVIDIA sample 1 - UPDATE_FACTOR 0.1).",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::mdFactor>,
                                             &RttProbe::GetParam<&Params::mdFactor>),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("HighRtt",
                          "NvidiaSample: Samples at or above this RTT decrease by HighRttMdFactor "
                          "instead "
                          "(time, default 150 us: NIC, NVIDIA sample MAX_DELAY).",
                          TimeValue(MicroSeconds(150)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::highRtt>,
                                           &RttProbe::GetParam<&Params::highRtt>),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("HighRttMdFactor",
                          "NvidiaSample: Rate factor for a sample at or above HighRtt (no unit, "
                          "default "
                          "0.8: NIC, NVIDIA sample 1 - 2 x UPDATE_FACTOR).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::highRttMdFactor>,
                                             &RttProbe::GetParam<&Params::highRttMdFactor>),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AiStep",
                          "NvidiaSample: Additive increase per sample at or below the target, as "
                          "a fraction "
                          "of the line rate (no unit, default 0.05 = +5% of line rate: NIC, "
                          "NVIDIA sample AI).",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::aiStep>,
                                             &RttProbe::GetParam<&Params::aiStep>),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("NackFactor",
                          "Rate factor on a NACK (no unit, default 0.5: CTCC design 'halve', "
                          "NVIDIA sample 1 - 5 x UPDATE_FACTOR).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::nackFactor>,
                                             &RttProbe::GetParam<&Params::nackFactor>),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("NackMode",
                          "NvidiaSample: When a NACK acts. Immediate (default, CTCC design: a "
                          "loss halves "
                          "the rate at once). OnHighRtt (NVIDIA sample): the NACK is "
                          "remembered and the next sample at or above HighRtt applies "
                          "NackFactor instead of HighRttMdFactor; lower samples follow the "
                          "normal rules and leave it pending.",
                          EnumValue(RttProbe::NACK_IMMEDIATE),
                          compat::MakeEnumAccessor(&RttProbe::SetParam<&Params::nackMode>,
                                                   &RttProbe::GetParam<&Params::nackMode>),
                          MakeEnumChecker(RttProbe::NACK_IMMEDIATE,
                                          "Immediate",
                                          RttProbe::NACK_ON_HIGH_RTT,
                                          "OnHighRtt"))
            .AddAttribute("NackOncePerEpisode",
                          "Immediate mode: one cut per loss episode; a NACK arriving before "
                          "every PSN sent up to the cutting NACK is acknowledged reports the "
                          "same episode (bool, default true: simulator, TCP NewReno's once per "
                          "window; with selective repeat the receiver NACKs every packet "
                          "behind a hole, and halving on each would drive the rate to the "
                          "floor). false: every NACK cuts. With RateLimitPerDestination the "
                          "PSNs of different QPs are compared, so episodes are approximate.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RttProbe::SetParam<&Params::nackOncePerEpisode>,
                                              &RttProbe::GetParam<&Params::nackOncePerEpisode>),
                          MakeBooleanChecker())
            .AddAttribute("LateProbeDecrease",
                          "NvidiaSample: A probe still unanswered after k target RTTs counts as k "
                          "samples "
                          "above the target, each applied as soon as it is known (x "
                          "MdFactor; x HighRttMdFactor for the first k with k x target >= "
                          "HighRtt, which is the last: 12 at the defaults), and a probe "
                          "timeout applies those due (bool, default true: simulator; the "
                          "probe waits in the queue it measures, so without this the "
                          "feedback slows down as the queue grows: an 8:1 incast at 100G "
                          "starting at line rate then fills a 32 MB buffer). false: one "
                          "decision per answer, none on a timeout (NVIDIA sample). Both agree "
                          "on answers within twice the target.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RttProbe::SetParam<&Params::lateProbeDecrease>,
                                              &RttProbe::GetParam<&Params::lateProbeDecrease>),
                          MakeBooleanChecker())
            .AddAttribute("MinRateFraction",
                          "Lowest rate as a fraction of the line rate (no unit, default "
                          "1/16384 = line / 2^14: NIC, NVIDIA sample MIN_RATE).",
                          DoubleValue(1.0 / 16384),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::minRateFraction>,
                                             &RttProbe::GetParam<&Params::minRateFraction>),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("UseAckRtt",
                          "NvidiaSample: Data ACK RTTs (send to ACK of a data packet) also feed "
                          "the rules, "
                          "at most one ACK update per max(ProbeInterval, that RTT) after the "
                          "last update of either source (bool, default false: the CTCC "
                          "design measures with probes only; ACKs add nothing a probe does "
                          "not see, since data and probes share the queue, but up to double "
                          "the samples, hence the additive increase: the 8:1 incast's queue "
                          "peak grows from 0.9 to 1.4 MB).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RttProbe::SetParam<&Params::useAckRtt>,
                                              &RttProbe::GetParam<&Params::useAckRtt>),
                          MakeBooleanChecker())
            .AddAttribute("Beta",
                          "Scalable with a shared claim: decrease gain, rate *= 1 - min(Beta "
                          "(rtt - target) / rtt, MaxMd) (no unit, default 1: simulator; the "
                          "rate becomes rate x target / rtt, the cut that removes the excess "
                          "queue in one step when all senders apply it; Swift uses 0.8). Per "
                          "QP: QpLevelGain.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::beta>,
                                             &RttProbe::GetParam<&Params::beta>),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MaxMd",
                          "Scalable: largest decrease per update, as a fraction of the rate "
                          "(no unit, default 0.9: simulator; a QP at its fair share among "
                          "thousands samples once per packet, hundreds of microseconds "
                          "apart, so one sample must be able to undo a 7x overload; "
                          "Swift's 0.5 assumes one sample per RTT).",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::maxMd>,
                                             &RttProbe::GetParam<&Params::maxMd>),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MiFactor",
                          "Scalable: multiplicative increase per update at or below the "
                          "target, while below the additive cap (no unit, default 0.1: "
                          "simulator; the sum of any number of such QPs grows by at most "
                          "10% per sample).",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::miFactor>,
                                             &RttProbe::GetParam<&Params::miFactor>),
                          MakeDoubleChecker<double>(0, 10))
            .AddAttribute("AiPackets",
                          "Scalable: the increase per update is at most AiPackets MTUs per "
                          "TargetRtt (packets, default 1: Swift's ai of one packet per RTT; "
                          "630 Mb/s per update at 1 KB MTU and 13 us).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::aiPackets>,
                                             &RttProbe::GetParam<&Params::aiPackets>),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("FlowScaleStep",
                          "Scalable: the target grows by this much per halving of the QP's "
                          "rate below one MTU per TargetRtt (time, default 4 us: simulator; "
                          "7,000 QPs into 100G, about 5.5 halvings below, aim at about 35 "
                          "us; 0 = no flow scaling).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::flowScaleStep>,
                                           &RttProbe::GetParam<&Params::flowScaleStep>),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FlowScaleMax",
                          "Scalable: largest flow-scaling addition to the target (time, "
                          "default 64 us: simulator; bounds the standing queue however "
                          "many QPs share a port).",
                          TimeValue(MicroSeconds(64)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::flowScaleMax>,
                                           &RttProbe::GetParam<&Params::flowScaleMax>),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FirstRate",
                          "Scalable without a shared claim: a QP's rate after its first "
                          "packet, until its own samples steer it. CountShare (default): the "
                          "line rate / the NIC's active QPs to that destination (a count of "
                          "its own QPs, no rate of theirs). PeerShare: the mean "
                          "rate of the NIC's QPs to that destination that already send, the "
                          "line rate if none does. LineRate: the line rate. (With "
                          "ShareWithPeers a QP starts at the group's claim.)",
                          EnumValue(RttProbe::FIRST_COUNT_SHARE),
                          compat::MakeEnumAccessor(&RttProbe::SetParam<&Params::firstRate>,
                                                   &RttProbe::GetParam<&Params::firstRate>),
                          MakeEnumChecker(RttProbe::FIRST_COUNT_SHARE,
                                          "CountShare",
                                          RttProbe::FIRST_PEER_SHARE,
                                          "PeerShare",
                                          RttProbe::FIRST_LINE_RATE,
                                          "LineRate"))
            .AddAttribute("GradientSpan",
                          "Scalable: shortest send-time span over which the RTT's growth is "
                          "measured for the gradient cut (time, default 2 us: simulator; a "
                          "fast QP samples every packet, 0.08 us apart at 100G, where one "
                          "packet's serialization is noise; 0 = no gradient cut).",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::gradientSpan>,
                                           &RttProbe::GetParam<&Params::gradientSpan>),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AiRate",
                          "Scalable per QP: additive increase in time at or below the "
                          "target, per NIC: each of the NIC's n active QPs adds AiRate / n "
                          "x the time since its last update (bit/s per second, default "
                          "2e12 = 2 Gb/s per ms: simulator; the NIC's QPs regain what a "
                          "start-up or a departure left idle within a few milliseconds).",
                          DoubleValue(2e12),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::aiRate>,
                                             &RttProbe::GetParam<&Params::aiRate>),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("MiPeriod",
                          "Scalable per QP below one MTU per target RTT (one sample per "
                          "packet): the multiplicative increase is MiFactor x (target - rtt) "
                          "/ rtt per this much time since the QP's last update (time, "
                          "default 500 us: simulator; about one packet time of a QP among "
                          "7,000 on 100G).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::miPeriod>,
                                           &RttProbe::GetParam<&Params::miPeriod>),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("AiSpan",
                          "Scalable per QP: the longest time one increase counts "
                          "(time, default 1 ms: simulator; a QP idle for long does not "
                          "come back with a large step).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::aiSpan>,
                                           &RttProbe::GetParam<&Params::aiSpan>),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SurgeGradient",
                          "Scalable per QP: below the target RTT, a sample whose gradient (the "
                          "queueing delay's growth per second of sending) is at least this "
                          "cuts by the gradient rule, rate / (1 + g), instead of waiting for "
                          "the queue to reach the target (no unit, default 1: simulator; "
                          "senders offering twice what the port drains; a fast QP's RTT "
                          "noise over GradientSpan stays below it; 0 = never).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::surgeGradient>,
                                             &RttProbe::GetParam<&Params::surgeGradient>),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("QpLevelGain",
                          "Scalable per QP: the level term of the cut above the target, "
                          "rate *= 1 - min(QpLevelGain (rtt - target) / rtt + QpGradientGain "
                          "g, MaxMd), no cut if that is not positive (no unit, default 0.2: "
                          "simulator; each QP samples once per packet, so all QPs together "
                          "apply it over a sample interval while the queue drains, and a "
                          "larger gain overshoots to an empty queue).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::qpLevelGain>,
                                             &RttProbe::GetParam<&Params::qpLevelGain>),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("QpGradientGain",
                          "Scalable per QP: the derivative term of the cut above the target "
                          "(QpLevelGain), on the signed gradient g, the queueing delay's "
                          "change per second of sending since the QP's last sample (no "
                          "unit, default 2: simulator; it damps the aggregate's oscillation: "
                          "a draining queue stops the cuts before it empties).",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::qpGradientGain>,
                                             &RttProbe::GetParam<&Params::qpGradientGain>),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("QpIncreaseDamping",
                          "Scalable per QP: below the target, the relative increase shrinks "
                          "by this x g for a growing queue (g > 0), down to a cut of at most "
                          "MaxMd (no unit, default 6: simulator; the QPs learn of a growing "
                          "queue once per packet each, so their increases must stop before "
                          "the queue reaches the target, not when it does).",
                          DoubleValue(6.0),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::qpIncreaseDamping>,
                                             &RttProbe::GetParam<&Params::qpIncreaseDamping>),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("ShareWithPeers",
                          "Scalable: one claim per NIC and destination, on what the NIC may "
                          "send there, shared by the NIC's QPs to it and updated by the "
                          "samples of all of them; each QP paces at claim / n by credit "
                          "(PacingRecheck). It assumes the QPs to one destination share "
                          "their congestion, which load balancing can make untrue (bool, "
                          "default false: each QP has its own rate, driven by its own "
                          "samples, and paces by its own credit; docs/design-notes.md, "
                          "\"Per-QP rates\").",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RttProbe::SetParam<&Params::shareWithPeers>,
                                              &RttProbe::GetParam<&Params::shareWithPeers>),
                          MakeBooleanChecker())
            .AddAttribute("PacingRecheck",
                          "Scalable with a shared claim: longest wait before a QP's pacing "
                          "credit is checked again, so a claim that rises during a QP's "
                          "gap (hundreds of microseconds at a fair share of 7,000 QPs) "
                          "takes effect within this time; also the time constant of the "
                          "group's send-rate estimate that bounds the claim's increase "
                          "(time, default 50 us: simulator; a few target RTTs; shorter "
                          "costs more wake-ups).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::pacingRecheck>,
                                           &RttProbe::GetParam<&Params::pacingRecheck>),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PacingJitter",
                          "Scalable with a shared claim: each packet costs its wire size "
                          "x (1 + u) of credit, u uniform in [-PacingJitter, PacingJitter], "
                          "so the mean rate is exact while QPs that once sent together "
                          "(a start-up, a cut) drift apart instead of coming due together "
                          "every gap (no unit, default 0.5: simulator; the randomised timers "
                          "of Floyd and Jacobson's periodic-message synchronisation; 0 = "
                          "none).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::pacingJitter>,
                                             &RttProbe::GetParam<&Params::pacingJitter>),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("StartShare",
                          "Scalable per QP: the NIC's start budget refills at this fraction "
                          "of the line rate. A QP's first packet, and its first after an "
                          "idle restart, leave at once while the budget lasts, and beyond "
                          "it at this rate, so that a thousand QPs starting together on a "
                          "NIC cannot put a thousand packets on the wire back to back (no "
                          "unit, default 1/32: simulator; 7 NICs starting 1,000 QPs each "
                          "at once then offer 0.22 x a 100G port in first packets, and 15 "
                          "NICs 0.47 x).",
                          DoubleValue(0.03125),
                          MakeDoubleAccessor(&RttProbe::SetParam<&Params::startShare>,
                                             &RttProbe::GetParam<&Params::startShare>),
                          MakeDoubleChecker<double>(1e-6, 1))
            .AddAttribute("StartBurst",
                          "Scalable per QP: the start budget's depth, the first-packet bytes "
                          "a NIC may send at once (bytes, default 16384: simulator; a few "
                          "small messages on new QPs never wait).",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&RttProbe::SetParam<&Params::startBurst>,
                                               &RttProbe::GetParam<&Params::startBurst>),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InitialWindow",
                          "Scalable per QP: what a QP alone (of its NIC's QPs) to its "
                          "destination may send before its first sample; one of several "
                          "sends one packet (bytes of payload, default 16384: simulator; a "
                          "short message on a new QP does not wait a round trip after its "
                          "first packet, as with TCP's initial window).",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&RttProbe::SetParam<&Params::initialWindow>,
                                               &RttProbe::GetParam<&Params::initialWindow>),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IdleRestart",
                          "Scalable per QP: a QP that has had nothing to send for this long "
                          "(since it sent all it had) restarts: its next packet leaves "
                          "from the start budget, not after its pacing gap, as TCP's "
                          "restart after idle sends a fresh window (time, default 10 us: "
                          "simulator; a QP that posts a small message now and then is not "
                          "held back by a gap its rate once implied; Time::Max() = never).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RttProbe::SetParam<&Params::idleRestart>,
                                           &RttProbe::GetParam<&Params::idleRestart>),
                          MakeTimeChecker(Time(0)));
    return tid;
}

RttProbe::RttProbe()
    : m_minRate(0),
      m_s(nullptr),
      m_earnedMark(0),
      m_usedRate(0),
      m_lastPrice(0),
      m_startSlot(Time(-1)),
      m_probeRate(0),
      m_lateDecreases(0),
      m_inflight(0),
      m_ackPsn(0),
      m_ackSndNxt(0),
      m_recoverPsn(0),
      m_pacedOnce(false),
      m_drained(false),
      m_sampled(false),
      m_probeOutstanding(false),
      m_probedOnce(false),
      m_inLossEpisode(false),
      m_nackPending(false)
{
    // Every attribute at its default: one block for all until an attribute differs.
    static const std::shared_ptr<Params> defaults = std::make_shared<Params>();
    m_params = defaults;
}

void
RttProbe::Init(const CcContext& ctx)
{
    CongestionControl::Init(ctx);
    m_params = Intern(*m_params);
    m_targetRtt =
        P().targetMode == TARGET_ABSOLUTE ? P().targetRttAttr : ctx.baseRtt + P().targetMargin;
    m_probeInterval =
        P().probeIntervalAttr.IsStrictlyPositive() ? P().probeIntervalAttr : m_targetRtt;
    const double line = double(ctx.lineRate);
    m_minRate = std::min(line * P().minRateFraction, line);
    m_own = nullptr;
    m_group = nullptr;
    if (P().preset == PRESET_SCALABLE && P().shareWithPeers && ctx.peers)
    {
        // The group's first controller creates the claim; the others join it.
        m_group = dynamic_cast<ClaimState*>(PeekPointer(ctx.peers->shared));
        if (!m_group)
        {
            m_group = Create<ClaimState>();
            m_group->advancedAt = Now();
            m_group->jitter = ctx.rng ? Ptr<UniformRandomVariable>(ctx.rng)
                                      : CreateObject<UniformRandomVariable>();
            ctx.peers->shared = m_group;
            m_group->rc = line;
            m_group->epochs.fill(Epoch{Now(), line});
        }
        m_s = PeekPointer(m_group);
    }
    else
    {
        // The QP's own claim (allocated only then: with thousands of QPs sharing claims
        // it would be a few hundred bytes per QP never used). NvidiaSample: flows start
        // at line rate; Scalable: until OnFirstSend.
        m_own = Create<ClaimState>();
        m_s = PeekPointer(m_own);
        m_s->rc = line;
        m_s->epochs.fill(Epoch{Now(), line});
        m_s->advancedAt = Now();
    }
    m_earnedMark = 0;
    m_pacedOnce = false;
    m_drained = false;
    m_sampled = false;
    m_lastSendAt = Time(-1);
    m_usedRate = 0;
    m_drainedAt = Now();
    m_startSlot = Time(-1);

    m_probeOutstanding = false;
    m_probedOnce = false;
    m_probeRate = 0;
    m_lateDecreases = 0;
    m_lastUpdate = Now();
    m_lastSample = Now();
    m_inflight = 0;
    m_ackPsn = m_ackSndNxt = 0;
    m_inLossEpisode = false;
    m_recoverPsn = 0;
    m_nackPending = false;
    if (m_targetRtt <= ctx.baseRtt)
    {
        // Every sample is then above the target: the rate can only fall to the floor.
        NS_LOG_WARN("RttProbe: target RTT " << m_targetRtt.As(Time::US)
                                            << " is not above the path's base RTT "
                                            << ctx.baseRtt.As(Time::US));
    }
}

std::string
RttProbe::GetName() const
{
    return "rtt-probe";
}

uint8_t
RttProbe::ImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW | HOOK_PACING | HOOK_PROBE | HOOK_PEER_RATES;
}

Time
RttProbe::GetTargetRtt() const
{
    return TargetFor(P().preset == PRESET_SCALABLE ? Effective() : m_s->rc);
}

Time
RttProbe::GetProbeInterval() const
{
    return m_probeInterval;
}

bool
RttProbe::IsProbeOutstanding() const
{
    return m_probeOutstanding;
}

Time
RttProbe::TargetFor(double rate) const
{
    if (P().preset != PRESET_SCALABLE || !P().flowScaleStep.IsStrictlyPositive() || rate <= 0)
    {
        return m_targetRtt;
    }
    // Packets per target RTT at this rate; flow scaling below one.
    const double window = rate * m_targetRtt.GetSeconds() / (8.0 * m_ctx.mtu);
    if (window >= 1)
    {
        return m_targetRtt;
    }
    const double halvings = -std::log2(window);
    const double extra =
        std::min(halvings * P().flowScaleStep.GetSeconds(), P().flowScaleMax.GetSeconds());
    return m_targetRtt + Seconds(extra);
}

void
RttProbe::SetRate(double rate)
{
    Advance(); // credit earned so far at the old claim
    // Scalable with a shared claim: the floor is per QP, so the claim's is n floors.
    const double floor = std::min(m_minRate * Sharers(), double(m_ctx.lineRate));
    m_s->rc = std::clamp(rate, floor, double(m_ctx.lineRate));
    Advance(); // the new claim is in force from now
    const uint64_t r = static_cast<uint64_t>(m_s->rc);
    if (r != m_rate.Get())
    {
        m_rate = r;
    }
}

} // namespace ns3
