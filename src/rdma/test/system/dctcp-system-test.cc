/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCTCP (Alizadeh et al., SIGCOMM 2010; RFC 8257) on the shared long-flow incast
 * (long-flow-incast.h): 2 senders, one long flow each, into one 100G port with PFC and
 * step ECN marking (Kmin = Kmax = K: every packet that leaves a queue above K is marked).
 * Physical truths:
 *  - alpha, an EWMA of the fraction of marked bytes per window of data, converges to the
 *    fraction of the QP's packets that the switch marked. The fraction is counted here
 *    from the switch's Mark trace (the bottleneck port, by sender) against the QP's
 *    acknowledged bytes, independently of the controller;
 *  - the two flows fill the link (payload >= 90% of 100G x 1024/1106, the framing
 *    limit), share it fairly (Jain >= 0.95), nothing is dropped under PFC, and every byte
 *    sent is delivered.
 */
#include "long-flow-incast.h"

#include "ns3/dctcp.h"
#include "ns3/rdma-frame.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;
using namespace rdmatest;

namespace
{

constexpr uint32_t kMtu = 1024;
constexpr double kWire = kMtu + 82; // a data packet's link occupancy (with preamble, IFG)

/// Step marking at 30 KB: above the DCTCP paper's K > C x RTT / 7 (here 52 KB / 7 = 7.5
/// KB at a 4.2 us base RTT), so the link never idles, and a fraction of a few tens of
/// percent marked with two flows (paper: alpha ~ sqrt(2 / W*), W* ~ (BDP + K) / 2).
LongFlowIncastOptions
TwoFlowsStepMarking()
{
    LongFlowIncastOptions o;
    o.cc = "ns3::Dctcp";
    o.senders = 2;
    o.pfc = true;
    o.ecn = true;
    o.kminBytes = 30 * 1024;
    o.kmaxBytes = 30 * 1024;
    return o;
}

/// What one QP saw over the measurement period.
struct QpRecord
{
    uint32_t node = 0;
    uint32_t qpn = 0;
    uint64_t ackedAtStart = 0;
    uint64_t ackedAtEnd = 0;
    uint64_t marks = 0;  ///< its packets CE-marked at the bottleneck in the period
    double alphaSum = 0; ///< alpha at each of its updates in the period
    uint64_t alphaUpdates = 0;
    Time from; ///< the period
    Time to;
};

} // namespace

// Rule: alpha tracks the marked fraction. Over [1, 3] ms (after the start-up transient:
// alpha starts at 1 and decays by 1 - 1/16 per window of ~6 us, so within 0.5 ms its
// start is forgotten to (15/16)^80 < 1e-2), the mean of a QP's alpha at its updates is the
// mean of its per-window marked fractions (an EWMA keeps the mean of what it averages). The
// windows are nearly equal, so that is the QP's marked fraction over the period, up to the
// edges of the period (a window or two of ~300) and the variation of window sizes about
// the sawtooth: within 10% of the fraction. (Measured: 0.154 marked, mean alpha 0.150.)
TEST(DctcpSystem, AlphaConvergesToTheMarkedFraction)
{
    const LongFlowIncastOptions o = TwoFlowsStepMarking();
    const Time from = MilliSeconds(1);
    const Time to = MilliSeconds(3);
    RdmaTopology topo;
    BuildLongFlowIncastFabric(o, topo);
    TrafficDriver driver(topo);
    std::vector<QpRecord> qps;
    for (uint32_t s = 1; s <= o.senders; ++s)
    {
        FlowSpec f;
        f.src = s;
        f.dst = 0;
        f.bytes = 100 * 1000 * 1000; // longer than the run
        const auto [node, qpn] = driver.GetFlowQp(driver.AddFlow(f));
        QpRecord r;
        r.node = node;
        r.qpn = qpn;
        r.from = from;
        r.to = to;
        qps.push_back(r);
    }
    driver.Start();

    for (QpRecord& r : qps)
    {
        Ptr<CongestionControl> cc = topo.GetNic(r.node)->GetCongestionControl(r.qpn);
        ASSERT_NE(DynamicCast<Dctcp>(cc), nullptr);
        cc->TraceConnectWithoutContext("Alpha",
                                       MakeBoundCallback(
                                           +[](QpRecord* rec, double, double alpha) {
                                               const Time now = Simulator::Now();
                                               if (now >= rec->from && now < rec->to)
                                               {
                                                   rec->alphaSum += alpha;
                                                   ++rec->alphaUpdates;
                                               }
                                           },
                                           &r));
    }
    Ptr<RdmaSwitch> sw = topo.GetSwitch(topo.GetSwitches()[0]);
    const uint32_t port = sw->GetRoute(topo.GetHosts()[0])[0];
    std::map<uint32_t, uint64_t> marksBySender;

    struct MarkSink
    {
        std::map<uint32_t, uint64_t>* marks;
        uint32_t port;
        Time from;
        Time to;
    } sink{&marksBySender, port, from, to};

    sw->TraceConnectWithoutContext(
        "Mark",
        MakeBoundCallback(
            +[](MarkSink* s, Ptr<const Packet> p, uint32_t outPort, const char*) {
                const Time now = Simulator::Now();
                if (outPort == s->port && now >= s->from && now < s->to)
                {
                    ++(*s->marks)[RdmaFrame::FromPacket(p->Copy())->header.src];
                }
            },
            &sink));
    Simulator::Schedule(from, [&]() {
        for (QpRecord& r : qps)
        {
            r.ackedAtStart = topo.GetNic(r.node)->GetAckedBytes(r.qpn);
        }
    });
    Simulator::Schedule(to, [&]() {
        for (QpRecord& r : qps)
        {
            r.ackedAtEnd = topo.GetNic(r.node)->GetAckedBytes(r.qpn);
        }
    });
    Simulator::Stop(to + NanoSeconds(1));
    Simulator::Run();

    for (QpRecord& r : qps)
    {
        r.marks = marksBySender[r.node];
        const double packets = double(r.ackedAtEnd - r.ackedAtStart) / kMtu;
        ASSERT_GT(packets, 1000) << "node " << r.node;
        ASSERT_GT(r.alphaUpdates, 100u) << "node " << r.node;
        const double fraction = double(r.marks) / packets;
        const double meanAlpha = r.alphaSum / double(r.alphaUpdates);
        std::cout << "[ figures  ] node " << r.node << ": marked fraction " << fraction << " ("
                  << r.marks << " of " << packets << " packets), mean alpha " << meanAlpha
                  << " over " << r.alphaUpdates << " windows\n";
        // A test of tracking needs a fraction well inside (0, 1).
        EXPECT_GT(fraction, 0.05) << "node " << r.node;
        EXPECT_LT(fraction, 0.8) << "node " << r.node;
        EXPECT_NEAR(meanAlpha, fraction, 0.1 * fraction) << "node " << r.node;
    }
    Simulator::Destroy();
}

// Rule: two long DCTCP flows keep the 100G port busy and share it. Payload can reach at
// most 100 x 1024 / 1106 = 92.59 Gb/s (framing); with K above the paper's C x RTT / 7 the
// queue never drains, so >= 90% of it over [0.5, 3] ms, after the start-up (both start at
// one BDP each: 2 BDP in flight, the first marks halve them within one RTT). The flows
// are symmetric: Jain >= 0.95. With PFC nothing is dropped, and every byte posted is sent
// once and delivered. (Measured: 92.59 Gb/s, 46.4 + 46.2, Jain 0.99999, mean queue 27.6 KB.)
TEST(DctcpSystem, TwoFlowsFillTheLinkFairlyWithoutLoss)
{
    LongFlowIncastOptions o = TwoFlowsStepMarking();
    o.flowBytes = 20 * 1000 * 1000;
    o.measureFrom = MicroSeconds(500);
    o.measureTo = MilliSeconds(3);
    const LongFlowIncastResult r = RunLongFlowIncast(o);
    const double payloadLine = o.rateGbps * kMtu / kWire;
    std::cout << "[ figures  ] goodput " << r.totalGoodputGbps << " Gb/s of " << payloadLine << " ("
              << r.goodputGbps[0] << " + " << r.goodputGbps[1] << "), Jain " << r.jain
              << ", mean queue " << r.meanQueueAfter << " B, max queue " << r.maxQueueAfter
              << " B, pauses " << r.pauses << ", drops " << r.drops << "\n";
    EXPECT_TRUE(r.allCompleted);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(r.bytesSent, r.bytesPosted);
    EXPECT_EQ(r.bytesDelivered, r.bytesSent);
    EXPECT_GE(r.totalGoodputGbps, 0.9 * payloadLine);
    EXPECT_LE(r.totalGoodputGbps, payloadLine * 1.0001);
    EXPECT_GE(r.jain, 0.95);
}
