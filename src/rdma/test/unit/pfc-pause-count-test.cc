/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What a switch counts of its PFC pauses (RdmaSwitch::PortStats, summary.json's
 * pfc_pause_frames, pfc_pause_episodes, pfc_pause_frames_per_packet_rule):
 *  - it sends one pause when an ingress (port, class) reaches Xoff and nothing more
 *    until it resumes (plus refreshes at half the pause time): one episode;
 *  - the per-packet count is what the HPCC and ConWeave simulators would send: one pause
 *    frame for every frame admitted while the ingress is at or above Xoff (or in its
 *    headroom), the frame that reaches Xoff included; frames below Xoff count nothing.
 * A line sender - switch - receiver at 100 Gb/s; the receiver holds the switch's egress
 * paused so that the frames stay in the buffer and the ingress counter grows by one
 * frame per arrival; the sender ignores pauses, so every frame arrives when it is sent.
 */
#include "bare-link.h"

#include "ns3/boolean.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-switch.h"
#include "ns3/rdma-wire.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <tuple>

using namespace ns3;

namespace
{

constexpr uint8_t kClass = 3; // a lossless data class
constexpr uint32_t kPayload = 1000;

/// sender - switch - receiver, 100 Gb/s, 1 us links; the switch's Xoff is static.
class PauseLine
{
  public:
    explicit PauseLine(uint64_t xoffBytes)
    {
        Ptr<Node> srcNode = CreateObject<Node>();
        Ptr<Node> swNode = CreateObject<Node>();
        Ptr<Node> dstNode = CreateObject<Node>();
        sw = CreateObject<RdmaSwitch>();
        swNode->AggregateObject(sw);
        Ptr<RdmaNetDevice> in;
        Ptr<RdmaNetDevice> out;
        std::tie(src, in) = rdmatest::BareLink(srcNode, swNode);
        std::tie(out, dst) = rdmatest::BareLink(swNode, dstNode);
        sw->GetMmu()->SetAttribute("DynamicXoff", BooleanValue(false));
        sw->GetMmu()->SetAttribute("StaticXoff", UintegerValue(xoffBytes));
        EXPECT_EQ(sw->AddPort(in), 0u);
        EXPECT_EQ(sw->AddPort(out), 1u);
        sw->GetMmu()->SetHeadroom(0, 100 * FrameBytes());
        sw->SetRoute(dstNode->GetId(), {1});
        m_dstId = dstNode->GetId();
        m_srcId = srcNode->GetId();
        // The sender ignores pauses: every frame reaches the switch when it is sent.
        src->SetAttribute("HonourPfc", BooleanValue(false));
    }

    ~PauseLine()
    {
        Simulator::Destroy();
    }

    PauseLine(const PauseLine&) = delete;
    PauseLine& operator=(const PauseLine&) = delete;

    static uint32_t FrameBytes()
    {
        return rdmawire::FrameBytes(RdmaPacketType::DATA, kPayload);
    }

    /// At \p t the sender queues one data frame.
    void Send(Time t)
    {
        Simulator::Schedule(t, [this]() {
            RdmaHeader h;
            h.type = RdmaPacketType::DATA;
            h.priority = kClass;
            h.src = m_srcId;
            h.dst = m_dstId;
            h.psn = m_psn++;
            h.payload = kPayload;
            src->Enqueue(CreateRdmaFrame(h), kClass, 0);
        });
    }

    /// The receiver pauses the switch's egress from 0 to \p t.
    void HoldEgressUntil(Time t)
    {
        Simulator::Schedule(Time(0), [this]() { dst->SendPfc(kClass, 0xffff); });
        Simulator::Schedule(t, [this]() { dst->SendPfc(kClass, 0); });
    }

    Ptr<RdmaSwitch> sw;
    Ptr<RdmaNetDevice> src;
    Ptr<RdmaNetDevice> dst;

  private:
    uint32_t m_srcId = 0;
    uint32_t m_dstId = 0;
    uint32_t m_psn = 0;
};

} // namespace

TEST(PfcPauseCount, OnePausePerEpisodeAndOnePerFrameAtOrAboveXoffByThePerPacketRule)
{
    // Xoff = 3 frames. Ten frames 200 ns apart while the egress is held: the ingress
    // counter is k frames after the k-th, so frames 3 to 10 arrive at or above Xoff
    // (the 3rd reaches it, the later ones go to headroom): 8 by the per-packet rule, one
    // pause sent. After the egress resumes the buffer drains and the switch resumes its
    // upstream; two more frames, far apart, find one frame in the buffer: none counts.
    const uint32_t s = PauseLine::FrameBytes();
    PauseLine line(3 * s);
    line.HoldEgressUntil(MicroSeconds(20));
    for (int k = 0; k < 10; ++k)
    {
        line.Send(MicroSeconds(2) + NanoSeconds(200 * k));
    }
    line.Send(MicroSeconds(40));
    line.Send(MicroSeconds(50));
    Simulator::Run();

    const RdmaSwitch::PortStats& in = line.sw->GetPortStats(0);
    EXPECT_EQ(in.pausesPerPacketRule, 8u);
    EXPECT_EQ(in.pauseEpisodes, 1u);
    EXPECT_EQ(in.pauseFrames, 1u) << "no refresh within the 168 us half pause time";
    EXPECT_EQ(in.resumeFrames, 1u);
    EXPECT_EQ(line.sw->GetForwardedFrames(), 12u) << "nothing dropped";
    EXPECT_EQ(line.sw->GetPortStats(1).pausesPerPacketRule, 0u) << "counted at the ingress";
}

TEST(PfcPauseCount, FramesThatNeverReachXoffCountNothing)
{
    // Xoff = 11 frames: ten held frames stay below it (the 10th brings the counter to
    // 10 frames), so neither count moves.
    const uint32_t s = PauseLine::FrameBytes();
    PauseLine line(11 * s);
    line.HoldEgressUntil(MicroSeconds(20));
    for (int k = 0; k < 10; ++k)
    {
        line.Send(MicroSeconds(2) + NanoSeconds(200 * k));
    }
    Simulator::Run();

    const RdmaSwitch::PortStats& in = line.sw->GetPortStats(0);
    EXPECT_EQ(in.pausesPerPacketRule, 0u);
    EXPECT_EQ(in.pauseEpisodes, 0u);
    EXPECT_EQ(in.pauseFrames, 0u);
}

TEST(PfcPauseCount, EveryRefreshIsAPauseFrameButNotAnEpisode)
{
    // Xoff = 1 frame, egress held: the first frame (arriving at about 3.1 us) starts the
    // episode; the refreshes at every half pause time (65535 quanta x 512 bits at
    // 100 Gb/s = 335.5 us, so 167.8 and 335.5 us after it) are pause frames of the same
    // episode; the first, second and third frames, each at or above Xoff once counted,
    // count by the per-packet rule. (Xoff - XonDelta < 0: it never resumes; the run
    // stops at 390 us, before a third refresh at 506 us.)
    PauseLine line(PauseLine::FrameBytes());
    line.HoldEgressUntil(MicroSeconds(1000));
    for (int k = 0; k < 3; ++k)
    {
        line.Send(MicroSeconds(2) + NanoSeconds(200 * k));
    }
    Simulator::Stop(MicroSeconds(390));
    Simulator::Run();

    const RdmaSwitch::PortStats& in = line.sw->GetPortStats(0);
    EXPECT_EQ(in.pauseEpisodes, 1u);
    EXPECT_EQ(in.pauseFrames, 3u);
    EXPECT_EQ(in.pausesPerPacketRule, 3u);
}
