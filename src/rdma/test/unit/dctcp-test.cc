/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of DCTCP for RoCE QPs (Alizadeh et al., SIGCOMM 2010; RFC 8257), driven by a
 * fake clock (no simulation).
 *
 * Specification (docs/design.md, "DCTCP"), window W in payload bytes:
 *  - a window of data ends with the first ACK whose cumulative PSN passes the sndNxt
 *    recorded when it began (the first begins at the first ACK); then, with F the bytes
 *    acknowledged with ECN echo / the bytes acknowledged in it, alpha = (1 - g) alpha + g F;
 *  - an ACK with echo cuts W = W (1 - alpha / 2), at most once per window of data (a
 *    reduction episode lasts until data sent after the cut is acknowledged);
 *  - without echo, outside an episode: W += Ai MTU for every W bytes acknowledged;
 *  - NACK or timeout: W *= LossFactor, once per loss episode (until the data sent when it
 *    began is acknowledged);
 *  - W within [1 MTU, MaxWindow]; rate = W x wire/payload x 8 / base RTT within
 *    [MinRate, line rate].
 * Defaults: g 1/16, alpha starts at 1, Ai 1 MTU, LossFactor 1/2, W starts at line rate x
 * base RTT, MinRate 100 Mb/s.
 *
 * Context: 100 Gb/s, MTU 1024 B (1106 wire bytes), base RTT 10 us. The driver below is a
 * QP in lockstep: Send(n) advances sndNxt, Ack() acknowledges the next PSN, one packet
 * per ACK (the NIC's default AckInterval 1).
 */

#include "fake-cc-clock.h"

#include "ns3/core-module.h"
#include "ns3/dctcp.h"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr uint32_t kMtu = 1024;
constexpr double kWire = 1106; // wire bytes of a full data packet
constexpr double kG = 1.0 / 16;
constexpr double kTol = 1e-9;

class DctcpTest : public ::testing::Test
{
  protected:
    /// A controller with the given attributes (name -> value string).
    void Make(std::vector<std::pair<std::string, std::string>> attributes = {})
    {
        cc = CreateObject<Dctcp>();
        for (const auto& [k, v] : attributes)
        {
            cc->SetAttribute(k, StringValue(v));
        }
        CcContext ctx;
        ctx.lineRate = kLine;
        ctx.baseRtt = MicroSeconds(10);
        ctx.fabricBaseRtt = MicroSeconds(10);
        ctx.mtu = kMtu;
        ctx.hops = 2;
        ctx.clock = &clock;
        cc->Init(ctx);
    }

    void Send(uint32_t packets)
    {
        sndNxt += packets;
    }

    /// The ACK of the next PSN, with ECN echo if \p ece.
    void Ack(bool ece = false)
    {
        clock.now += NanoSeconds(100);
        ++ackPsn;
        CcAck a;
        a.ackedBytes = kMtu;
        a.rtt = MicroSeconds(10);
        a.ecnEcho = ece;
        a.ackPsn = ackPsn;
        a.sndNxt = sndNxt;
        a.inflightBytes = uint64_t(sndNxt - ackPsn) * kMtu;
        cc->OnAck(a);
    }

    /// Send \p n packets, then acknowledge them, those with index in [from, to) marked.
    void Round(uint32_t n, uint32_t from = 0, uint32_t to = 0)
    {
        Send(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            Ack(i >= from && i < to);
        }
    }

    double W() const
    {
        return cc->GetCwnd() / kMtu; // in MTUs
    }

    rdmatest::FakeClock clock;
    Ptr<Dctcp> cc;
    uint32_t sndNxt = 0;
    uint32_t ackPsn = 0;
};

} // namespace

// Rule: the defaults are the paper's and RFC 8257's (g 1/16, alpha from 1, +1 MTU per
// RTT, halving on loss); the optional hooks are OnAck and GetWindow.
TEST(DctcpDefaults, MatchSpecification)
{
    Ptr<Dctcp> d = CreateObject<Dctcp>();
    auto dbl = [&d](const char* n) {
        DoubleValue v;
        d->GetAttribute(n, v);
        return v.Get();
    };
    EXPECT_EQ(dbl("G"), 1.0 / 16);
    EXPECT_EQ(dbl("InitialAlpha"), 1.0);
    EXPECT_EQ(dbl("Ai"), 1.0);
    EXPECT_EQ(dbl("LossFactor"), 0.5);
    DataRateValue minRate;
    d->GetAttribute("MinRate", minRate);
    EXPECT_EQ(minRate.Get(), DataRate("100Mb/s"));
    EXPECT_EQ(d->GetName(), "dctcp");
    // OnAck and GetWindow; and its alpha needs one ACK (one ECN echo) per packet.
    EXPECT_EQ(d->ImplementedHooks(),
              CongestionControl::HOOK_ACK | CongestionControl::HOOK_WINDOW |
                  CongestionControl::HOOK_ECN_PER_PACKET);
}

// Rule: parameters out of their range are refused by their checkers (a scenario then
// stops with exit code 2, cli-test).
TEST(DctcpDefaults, RefusesOutOfRangeParameters)
{
    Ptr<Dctcp> d = CreateObject<Dctcp>();
    EXPECT_FALSE(d->SetAttributeFailSafe("G", DoubleValue(-0.1)));
    EXPECT_FALSE(d->SetAttributeFailSafe("G", DoubleValue(1.5)));
    EXPECT_FALSE(d->SetAttributeFailSafe("InitialAlpha", DoubleValue(-1)));
    EXPECT_FALSE(d->SetAttributeFailSafe("LossFactor", DoubleValue(0)));
    EXPECT_FALSE(d->SetAttributeFailSafe("Ai", DoubleValue(-1)));
    EXPECT_TRUE(d->SetAttributeFailSafe("G", DoubleValue(0.5)));
}

// Rule: W starts at one BDP, 100e9 / 8 x 10e-6 = 125,000 bytes, paced at line rate (the
// BDP in wire bytes over one base RTT exceeds it); GetWindow is W rounded.
TEST_F(DctcpTest, StartsAtOneBdpAtLineRate)
{
    Make();
    EXPECT_NEAR(cc->GetCwnd(), 125000, kTol);
    EXPECT_EQ(cc->GetWindow(), 125000u);
    EXPECT_EQ(cc->GetRate(), kLine);
    EXPECT_EQ(cc->GetAlpha(), 1.0);
}

// Rule: the rate sends W in one base RTT in wire bytes: 10 MTU -> 10 x 1106 x 8 / 10 us =
// 8.848 Gb/s.
TEST_F(DctcpTest, RateIsTheWindowOverTheBaseRtt)
{
    Make({{"InitialWindow", "10240"}});
    EXPECT_NEAR(double(cc->GetRate()), 10 * kWire * 8 / 10e-6, 1);
    EXPECT_EQ(cc->PeekRate(), cc->GetRate());
}

// Rule: alpha changes once per window of data, by (1 - g) alpha + g F. Windows: the first
// is round 1 (10 ACKs) plus the first ACK of round 2, which ends it; each later one is
// ACKs 2..10 of its round plus the first of the next. Marks on ACKs 2..(m+1) of a round,
// so F = 3/11, then 5/10, then 0.
TEST_F(DctcpTest, AlphaIsUpdatedOncePerWindowOfData)
{
    Make({{"InitialWindow", "1024000"}}); // 1000 MTU: no cut or increase matters here
    double alpha = 1.0;
    Round(10, 1, 4);
    EXPECT_EQ(cc->GetAlpha(), alpha) << "no window has ended yet";
    Send(10);
    Ack(); // ends window 1: 3 of 11 ACKed packets marked
    alpha = (1 - kG) * alpha + kG * 3.0 / 11;
    EXPECT_NEAR(cc->GetAlpha(), alpha, kTol);
    for (uint32_t i = 1; i < 10; ++i)
    {
        Ack(i >= 1 && i < 6);
        EXPECT_NEAR(cc->GetAlpha(), alpha, kTol) << "alpha moves only at a window's end";
    }
    Send(10);
    Ack(); // ends window 2: 5 of 10
    alpha = (1 - kG) * alpha + kG * 5.0 / 10;
    EXPECT_NEAR(cc->GetAlpha(), alpha, kTol);
    for (uint32_t i = 1; i < 10; ++i)
    {
        Ack();
    }
    Send(10);
    Ack(); // ends window 3: none marked
    alpha = (1 - kG) * alpha;
    EXPECT_NEAR(cc->GetAlpha(), alpha, kTol);
}

// Rule: with every packet marked alpha converges to 1, with none to 0, geometrically at
// rate 1 - g per window: after k unmarked windows alpha = a0 (1 - g)^k.
TEST_F(DctcpTest, AlphaConvergesToTheMarkedFraction)
{
    Make({{"InitialWindow", "1024000"}, {"InitialAlpha", "0.5"}});
    Round(8);
    for (int k = 1; k <= 40; ++k)
    {
        Round(8);
        EXPECT_NEAR(cc->GetAlpha(), 0.5 * std::pow(1 - kG, k), kTol) << k;
    }
    for (int k = 0; k < 400; ++k)
    {
        Round(8, 0, 8);
    }
    EXPECT_NEAR(cc->GetAlpha(), 1.0, 1e-9);
}

// Rule: an echo cuts W by alpha / 2 once per window of data: round 1 (100 packets), ACK 2
// marked cuts 100 -> 100 (1 - 0.4 / 2) = 80 MTU; ACKs 3..100 marked do not cut again (the
// episode lasts until PSN 100, sent after the cut, is acknowledged), nor does W grow. The
// first ACK of round 2 ends the episode and the window (F = 99/101), the second, marked,
// cuts with the new alpha.
TEST_F(DctcpTest, EchoCutsByHalfAlphaOncePerWindow)
{
    Make({{"InitialWindow", "102400"}, {"InitialAlpha", "0.4"}});
    Send(100);
    Ack();
    EXPECT_NEAR(W(), 100, kTol);
    Ack(true);
    EXPECT_NEAR(W(), 80, kTol);
    EXPECT_TRUE(cc->InReduction());
    for (int i = 2; i < 100; ++i)
    {
        Ack(true);
    }
    EXPECT_NEAR(W(), 80, kTol) << "one cut per window";
    Send(80);
    Ack();
    EXPECT_FALSE(cc->InReduction());
    const double alpha = (1 - kG) * 0.4 + kG * 99.0 / 101;
    EXPECT_NEAR(cc->GetAlpha(), alpha, kTol);
    EXPECT_NEAR(W(), 80, kTol);
    Ack(true);
    EXPECT_NEAR(W(), 80 * (1 - alpha / 2), kTol);
}

// Rule: without marks W grows by one MTU per window of acknowledged bytes, i.e. per
// round trip: from 10 MTU, the 10th ACK (10 x 1024 >= W) makes 11, the next 11 make 12...
TEST_F(DctcpTest, AdditiveIncreaseOneMtuPerRtt)
{
    Make({{"InitialWindow", "10240"}});
    Send(10);
    for (int i = 0; i < 9; ++i)
    {
        Ack();
    }
    EXPECT_NEAR(W(), 10, kTol);
    Ack();
    EXPECT_NEAR(W(), 11, kTol);
    for (int k = 11; k < 30; ++k)
    {
        Round(k);
        EXPECT_NEAR(W(), k + 1, kTol) << "one MTU per window of " << k << " packets";
    }
    // The rate follows: W x 1106/1024 x 8 / 10 us.
    EXPECT_NEAR(double(cc->GetRate()), 30 * kWire * 8 / 10e-6, 1);
}

// Rule: Ai scales the step: Ai 2 adds two MTUs per window.
TEST_F(DctcpTest, AdditiveIncreaseFollowsAi)
{
    Make({{"InitialWindow", "10240"}, {"Ai", "2"}});
    Round(10);
    EXPECT_NEAR(W(), 12, kTol);
}

// Rule: a loss halves W once per loss episode. NACK at PSN 10 of 100 sent: 100 -> 50;
// more NACKs and a timeout in the episode change nothing, nor does an echo (the loss cut
// is this window's reduction). Once PSN 100 (sent when the loss began) is acknowledged
// the episode is over and the next NACK halves again.
TEST_F(DctcpTest, LossHalvesOncePerEpisode)
{
    Make({{"InitialWindow", "102400"}});
    Send(100);
    for (int i = 0; i < 10; ++i)
    {
        Ack();
    }
    cc->OnNack();
    EXPECT_NEAR(W(), 50, kTol);
    cc->OnNack();
    cc->OnTimeout();
    EXPECT_NEAR(W(), 50, kTol) << "same episode";
    for (int i = 10; i < 100; ++i)
    {
        Ack(i == 50);
    }
    EXPECT_NEAR(W(), 50, kTol) << "no echo cut nor increase in the episode";
    Send(50);
    Ack(); // PSN 100: the episode is over
    cc->OnTimeout();
    EXPECT_NEAR(W(), 25, kTol);
}

// Rule: LossFactor sets the loss cut; a timeout before any ACK also cuts once.
TEST_F(DctcpTest, LossFactorAndTimeoutBeforeAnyAck)
{
    Make({{"InitialWindow", "102400"}, {"LossFactor", "0.8"}});
    cc->OnTimeout();
    EXPECT_NEAR(W(), 80, kTol);
    cc->OnTimeout();
    EXPECT_NEAR(W(), 80, kTol);
}

// Rule: W never falls below one MTU (rate 1024 x 1106/1024 x 8 / 10 us = 884.8 Mb/s),
// nor the rate below MinRate.
TEST_F(DctcpTest, FloorsOneMtuAndMinRate)
{
    Make({{"InitialWindow", "1500"}, {"InitialAlpha", "1"}});
    Send(1);
    Ack();
    Send(1);
    Ack(true);
    EXPECT_NEAR(W(), 1, kTol);
    EXPECT_EQ(cc->GetWindow(), kMtu);
    EXPECT_NEAR(double(cc->GetRate()), kWire * 8 / 10e-6, 1);
    Make({{"InitialWindow", "1024"}, {"MinRate", "2Gb/s"}});
    cc->OnTimeout();
    EXPECT_NEAR(W(), 1, kTol);
    EXPECT_EQ(cc->GetRate(), 2000000000u);
}

// Rule: W never exceeds MaxWindow, and the rate never exceeds the line rate.
TEST_F(DctcpTest, CapsMaxWindowAndLineRate)
{
    Make({{"InitialWindow", "10240"}, {"MaxWindow", "10752"}}); // 10.5 MTU
    Round(10);
    EXPECT_NEAR(W(), 10.5, kTol);
    Round(11);
    EXPECT_NEAR(W(), 10.5, kTol);
    Make({{"InitialWindow", "1000000"}});
    EXPECT_EQ(cc->GetRate(), kLine);
}

// Rule: the Alpha and Cwnd trace sources report every change.
TEST_F(DctcpTest, TracesAlphaAndWindow)
{
    Make({{"InitialWindow", "10240"}});
    std::vector<double> alphas;
    std::vector<double> windows;
    cc->TraceConnectWithoutContext(
        "Alpha",
        MakeBoundCallback(
            +[](std::vector<double>* v, double, double a) { v->push_back(a); },
            &alphas));
    cc->TraceConnectWithoutContext(
        "Cwnd",
        MakeBoundCallback(
            +[](std::vector<double>* v, double, double w) { v->push_back(w); },
            &windows));
    Round(10);
    Round(11, 5, 6);
    ASSERT_EQ(alphas.size(), 1u);
    EXPECT_NEAR(alphas[0], 1 - kG + kG * 0, kTol); // window 1: 11 ACKs, none marked
    ASSERT_GE(windows.size(), 2u);
    EXPECT_NEAR(windows[0], 11 * 1024, kTol);
    EXPECT_NEAR(windows.back(), cc->GetCwnd(), kTol);
}
