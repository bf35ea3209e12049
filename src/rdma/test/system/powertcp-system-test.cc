/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PowerTCP and θ-PowerTCP (Addanki et al., NSDI 2022) on a single 100G switch, default
 * attributes (γ 0.9, β = BDP/667, τ the base RTT, the current floored at half the line
 * rate), PFC on and ECN off:
 *  - a 10:1 burst incast (10 senders starting together into one port): the queue the
 *    first windows build drains below one BDP within the bound derived below, with no
 *    drop and every byte delivered;
 *  - two long flows: the link busy (>= 90% of the payload line rate) and fair (Jain).
 */
#include "long-flow-incast.h"

#include <gtest/gtest.h>

using namespace rdmatest;

namespace
{

/// Wire bytes of a full data frame: 1024 payload + 82 RoCEv2 headers, trailers,
/// preamble and inter-frame gap; PowerTCP's frames also carry the INT header (2) and
/// the one record the switch pushes (8).
double
WireBytes(bool intRecords)
{
    return 1024 + 82 + (intRecords ? 2 + 8 : 0);
}

struct BurstResult
{
    LongFlowIncastResult totals;
    uint64_t peakQueue = 0;
    ns3::Time drained; ///< last sample with the queue at or above one BDP (0: never)
    double bdp = 0;    ///< line rate x base RTT (bytes)
};

/// 10 senders x \p flowBytes into host 0, all posted at time 0; the bottleneck queue
/// sampled every 100 ns until the last flow completes.
BurstResult
RunBurst(const std::string& cc, uint64_t flowBytes)
{
    using namespace ns3;
    LongFlowIncastOptions o;
    o.cc = cc;
    o.senders = 10;
    o.pfc = true;
    o.ecn = false;
    RdmaTopology topo;
    BuildLongFlowIncastFabric(o, topo);
    TrafficDriver driver(topo);
    for (uint32_t s = 1; s <= o.senders; ++s)
    {
        FlowSpec f;
        f.src = s;
        f.dst = 0;
        f.bytes = flowBytes;
        driver.AddFlow(f);
    }
    driver.SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    driver.Start();

    BurstResult r;
    r.totals.bytesPosted = flowBytes * o.senders;
    const Time baseRtt = topo.GetBaseRtt(topo.GetHosts()[1], topo.GetHosts()[0]);
    r.bdp = o.rateGbps * 1e9 / 8 * baseRtt.GetSeconds();
    Ptr<RdmaSwitch> sw = topo.GetSwitch(topo.GetSwitches()[0]);
    const uint32_t port = sw->GetRoute(topo.GetHosts()[0])[0];
    std::function<void()> sample;
    sample = [&]() {
        const uint64_t q = sw->GetMmu()->GetEgressBytes(port, 3);
        r.peakQueue = std::max(r.peakQueue, q);
        if (double(q) >= r.bdp)
        {
            r.drained = Simulator::Now();
        }
        Simulator::Schedule(NanoSeconds(100), sample);
    };
    Simulator::ScheduleNow(sample);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    r.totals.allCompleted = driver.IsDone();
    CountLongFlowIncast(topo, sw, r.totals);
    Simulator::Destroy();
    return r;
}

/**
 * The bound on the drain time. Every sender starts with a window of one BDP (line rate x
 * τ), so the burst puts N BDP in flight into a port that carries one: (N - 1) BDP queue
 * at most. Nothing drains a queue faster than the line rate, so the excess needs
 * (N - 1) τ of draining whatever the controller does: that is the physics floor. The
 * controller first learns of the queue one base RTT after the burst starts (the first
 * INT records or RTT samples), and the paper's claim is that PowerTCP then reaches its
 * equilibrium within a few RTTs (its power-based update reacts to the queue and to its
 * gradient at once, with no multiplicative probing). With "a few" read as 4: N - 1 + 1 +
 * 4 = N + 4 base RTTs, 14 τ for 10 senders (59 us at τ = 4.19 us).
 */
double
DrainBoundSeconds(uint32_t senders, ns3::Time baseRtt)
{
    return (senders + 4) * baseRtt.GetSeconds();
}

void
ExpectBurstDrains(const std::string& cc)
{
    const uint64_t flowBytes = 1000 * 1000;
    const BurstResult r = RunBurst(cc, flowBytes);
    const LongFlowIncastResult& t = r.totals;
    EXPECT_TRUE(t.allCompleted) << cc;
    EXPECT_EQ(t.drops, 0u) << cc;
    EXPECT_EQ(t.bytesSent, t.bytesPosted) << cc;
    EXPECT_EQ(t.bytesDelivered, t.bytesSent) << cc;
    // The burst does build a queue (else the test would test nothing) ...
    EXPECT_GT(double(r.peakQueue), 2 * r.bdp) << cc;
    // ... and it falls below one BDP for good within the bound.
    const double bound = DrainBoundSeconds(10, t.baseRtt);
    EXPECT_LE(r.drained.GetSeconds(), bound)
        << cc << ": queue >= 1 BDP (" << r.bdp << " B) until " << r.drained.GetMicroSeconds()
        << " us, bound " << bound * 1e6 << " us, peak " << r.peakQueue << " B";
    std::cout << "[ measured ] " << cc << " burst: peak " << r.peakQueue << " B ("
              << r.peakQueue / r.bdp << " BDP), below 1 BDP from " << r.drained.GetNanoSeconds()
              << " ns, bound " << bound * 1e9 << " ns (BDP " << r.bdp << " B, base RTT "
              << t.baseRtt.GetNanoSeconds() << " ns)\n";
}

void
ExpectTwoFlowsBusyAndFair(const std::string& cc, bool intRecords)
{
    LongFlowIncastOptions o;
    o.cc = cc;
    o.senders = 2;
    o.pfc = true;
    o.ecn = false;
    o.flowBytes = 40 * 1000 * 1000; // longer than the window at line rate
    o.measureFrom = ns3::MicroSeconds(500);
    o.measureTo = ns3::MilliSeconds(3);
    o.stop = o.measureTo;
    const LongFlowIncastResult r = RunLongFlowIncast(o);
    EXPECT_EQ(r.drops, 0u) << cc;
    const double payloadLine = o.rateGbps * 1024 / WireBytes(intRecords);
    EXPECT_GE(r.totalGoodputGbps, 0.9 * payloadLine) << cc;
    EXPECT_LE(r.totalGoodputGbps, payloadLine * 1.0001) << cc;
    EXPECT_GE(r.jain, 0.95) << cc;
    std::cout << "[ measured ] " << cc << " two flows: " << r.totalGoodputGbps
              << " Gb/s of payload (line " << payloadLine << "), Jain " << r.jain << ", max queue "
              << r.maxQueueAfter << " B\n";
}

} // namespace

TEST(PowerTcpSystem, BurstIncastDrainsWithinTheBound)
{
    ExpectBurstDrains("ns3::PowerTcp");
}

TEST(PowerTcpSystem, TwoLongFlowsKeepTheLinkBusyAndShareIt)
{
    ExpectTwoFlowsBusyAndFair("ns3::PowerTcp", true);
}

TEST(ThetaPowerTcpSystem, BurstIncastDrainsWithinTheBound)
{
    ExpectBurstDrains("ns3::ThetaPowerTcp");
}

TEST(ThetaPowerTcpSystem, TwoLongFlowsKeepTheLinkBusyAndShareIt)
{
    ExpectTwoFlowsBusyAndFair("ns3::ThetaPowerTcp", false);
}
