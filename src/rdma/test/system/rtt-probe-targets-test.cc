/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The RTT-probe controller's targets (issues 10, 43 and 59), each on the shipped
 * scenarios' traffic with the defaults (a rate per QP, driven by its own samples): 7
 * senders x 1,000 QPs streaming into one 100G port, PFC and ECN off, QP starts spread
 * over 1 ms, the latency probe and the small flows under the controller. Every figure is
 * read from the run's own output files, as a user would, and held against a physical
 * bound:
 *  - no drop at all, start-up included, and none when all 7,000 start at once;
 *  - the bottleneck queue at most 1.5 MB over the whole run (120 us at 100G; scaled with
 *    the rate at 400G; 2.5 MB when all 7,000 start at once);
 *  - after 5 ms, at least 90 Gb/s of payload through the bottleneck (97% of what 1 KB
 *    packets can carry at 100G), Jain's index at least 0.9 over the bytes of the sampled
 *    QPs, 1 KB messages each on a new QP within mean 25 us and p99 150 us (the reference
 *    measured 20.31 us on average), and the closed-loop probe's p99 within 150 us;
 *  - goodput at least 90% of what no congestion control reaches with PFC;
 *  - messages of 1 to 64 KB on a new QP every 50 us: mean FCT within 25 us of the ideal,
 *    p99 within 150 us;
 *  - 7,000 QPs over 7 to 255 senders: no drop, the queue within 1.5 MB (2.5 MB from 127
 *    senders) and at least 88 Gb/s of payload;
 *  - 1,000 QPs joining and leaving: no drop, and the goodput back within 5% of its level
 *    within 1 ms of the leave;
 *  - across a leaf-spine (ECMP); at 400G and with a 4 KB MTU; and WebSearch flows beside
 *    the incast, whose FCT stays near their unloaded FCT.
 * What issue 59 asks and the law does not reach yet (the 1.5 MB bound with 1,000 joiners,
 * small flows at a 4 KB MTU) is reported by `./rdma validate rtt-probe-robustness` and
 * docs/performance.md, not asserted here.
 * The runs are shortened to 10 ms of streaming (the shipped ones stream for 30), except
 * the shipped scenario's, whose fairness needs the whole run.
 */
#include "cli-util.h" // a repository test: it runs rdma-run (not in an ns-3 tree)
#include "rtt-probe-incast-util.h"

#include "ns3/rdma-wire.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <vector>

using nlohmann::json;
using namespace rdmatest;

using namespace rdmatest::incast;

TEST(RttProbeTargets, ShippedScenarioMeetsTheReferenceFiguresPerQp)
{
    // The whole shipped run (30 ms): each QP its own rate; the small-flow stream (1 KB
    // messages from host 1, one every 50 us, each on a new QP) and the probe under the
    // controller.
    TempDir dir;
    const json s = RunScenario(dir, "ship", Shipped(dir, "rtt-probe-incast-7x1000.json", 30));
    ExpectNoLossAndBoundedQueue(s);
    ExpectEveryByteDelivered(s);
    // The bottleneck: the switch (node 8) port 0, to the receiver.
    EXPECT_GE(PayloadGbps(dir / "ship", 8, 0, 5e6, 30e6), 90);
    EXPECT_GE(JainAfter(dir / "ship", 5e6), 0.9);
    const std::vector<double> small = LatenciesUs(dir / "ship", 5e6, "flow", 4096);
    ASSERT_GE(small.size(), 450u); // one per 50 us over 25 ms: none held back
    EXPECT_LE(Mean(small), 25);
    EXPECT_LE(Quantile(small, 0.99), 150);
    const std::vector<double> probe = ProbeLatenciesUs(dir / "ship", 5e6);
    ASSERT_GE(probe.size(), 450u);
    EXPECT_LE(Quantile(probe, 0.99), 150);
}

TEST(RttProbeTargets, GoodputIsAtLeastNinetyPercentOfNoControlWithPfc)
{
    TempDir dir;
    const json rtt = RunScenario(dir, "rtt", Shipped(dir, "rtt-probe-incast-7x1000.json"));
    json base = Shipped(dir, "rtt-probe-incast-7x1000.json");
    base["cc"] = {{"algorithm", "none"}};
    base["switch"]["pfc"]["enabled"] = true;
    base["nic"]["go_back_n"]["RetransmissionTimeout"] = "10ms";
    const json none = RunScenario(dir, "none", base);
    ASSERT_EQ(none["drops"], 0u);
    ASSERT_EQ(none["timeouts"], 0u); // the reference is not crippled by spurious timeouts
    EXPECT_GE(rtt["goodput_gbps"].get<double>(), 0.9 * none["goodput_gbps"].get<double>());
}

TEST(RttProbeTargets, SevenThousandQpsStartingAtOnceLoseNothing)
{
    TempDir dir;
    json sc = Shipped(dir, "rtt-probe-incast-7x1000.json");
    sc["traffic"]["incast"]["jitter_us"] = 0;
    const json s = RunScenario(dir, "at-once", sc);
    // All 7,000 first packets at once would be 7.7 MB; the NICs' start budgets spread
    // them, and the queue stays within 2.5 MB (200 us at 100G).
    ExpectNoLossAndBoundedQueue(s, 2.5e6);
    ExpectEveryByteDelivered(s);
}

namespace
{

/// The shipped join scenario with 1,000 more QPs joining at 4 ms and leaving at 7 ms
/// (its groups, earlier, so that the run stays short).
json
JoinEarlier(const TempDir& dir)
{
    WriteText(dir / "groups.csv",
              "receiver,senders,qps_per_sender,join_us,leave_us,jitter_us\n"
              "0,1-7,1000,0,10000,1000\n"
              "0,1-5,200,4000,7000,0\n");
    json sc = Shipped(dir, "rtt-probe-incast-7x1000-join.json");
    sc["traffic"].erase("incast");
    sc["traffic"]["incast_groups_csv"] = dir / "groups.csv";
    return sc;
}

} // namespace

TEST(RttProbeTargets, AThousandQpsJoiningAndLeavingLoseNothingAndTheLinkRecovers)
{
    TempDir dir;
    const json s = RunScenario(dir, "join", JoinEarlier(dir));
    // 1,000 QPs start at once on a loaded port: within the all-at-once bound.
    ExpectNoLossAndBoundedQueue(s, 2.5e6);
    ExpectEveryByteDelivered(s);
    // The receiver's port (switch node 8, port 0): the level before the join, and the
    // millisecond that starts 1 ms after the leave.
    const double before = PortGbps(dir / "join", 8, 0, 2e6, 4e6);
    const double after = PortGbps(dir / "join", 8, 0, 8e6, 9e6);
    EXPECT_GE(before, 80);
    EXPECT_GE(after, 0.95 * before);
}

TEST(RttProbeTargets, FourKilobyteMtuHoldsTheQueueAndKeepsThePortBusy)
{
    // With 4 KB packets a QP's fair share is one packet every 2.3 ms, so its feedback
    // comes 4x less often than with 1 KB: no loss, every byte delivered, the queue within
    // 1.5 MB and the port busy. (Its 1 KB small flows wait longer than with a 1 KB MTU:
    // docs/design-notes.md, "The per-QP law".)
    TempDir dir;
    json sc = Shipped(dir, "rtt-probe-incast-7x1000.json");
    sc["nic"]["mtu_bytes"] = 4096;
    const json s = RunScenario(dir, "mtu4k", sc);
    ExpectNoLossAndBoundedQueue(s);
    ExpectEveryByteDelivered(s);
    EXPECT_GE(PayloadGbps(dir / "mtu4k", 8, 0, 5e6, 10e6, 4096), NinetyPercentOfLine(100, 4096));
}

TEST(RttProbeTargets, FourHundredGigabitKeepsTheScaledTargets)
{
    TempDir dir;
    json sc = Shipped(dir, "rtt-probe-incast-7x1000.json", 5);
    sc["topology"]["host_rate_gbps"] = 400;
    const json s = RunScenario(dir, "g400", sc);
    ExpectNoLossAndBoundedQueue(s, 4 * kQueueBound);
    ExpectEveryByteDelivered(s);
    EXPECT_GE(s["goodput_gbps"].get<double>(), NinetyPercentOfLine(400, 1024));
}

TEST(RttProbeTargets, IncastAcrossALeafSpineKeepsTheTargets)
{
    // Senders on the three other leaves, 4 spines, ECMP: each QP's path is its own, and
    // so is its rate.
    TempDir dir;
    const json s = RunScenario(dir, "ls", Shipped(dir, "rtt-probe-leaf-spine-incast.json"));
    ExpectNoLossAndBoundedQueue(s);
    ExpectEveryByteDelivered(s);
    EXPECT_LE(Quantile(ProbeLatenciesUs(dir / "ls", 5e6), 0.99), 150);
    EXPECT_GE(s["goodput_gbps"].get<double>(), NinetyPercentOfLine(100, 1024));
}

TEST(RttProbeTargets, TwelveSendersAcrossTheLeafSpineKeepTheReceiversPortBusy)
{
    // 12 senders x 500 QPs on three other leaves, ECMP over the spines: no loss, the
    // queue within 1.5 MB, and the receiver's ToR port (node 32, port 0) carries at
    // least 88 Gb/s of payload from 5 ms to the incast's end.
    TempDir dir;
    json sc = Shipped(dir, "rtt-probe-leaf-spine-incast.json");
    sc["traffic"]["incast"]["senders"] = {8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27};
    sc["traffic"]["incast"]["qps_per_sender"] = 500;
    const json s = RunScenario(dir, "ls", sc);
    ExpectNoLossAndBoundedQueue(s);
    ExpectEveryByteDelivered(s);
    EXPECT_GE(PayloadGbps(dir / "ls", 32, 0, 5e6, 10e6), 88);
}

TEST(RttProbeTargets, AnyFanInHoldsTheQueueAndKeepsTheLinkBusy)
{
    // The same 7,000 QPs from N senders into the same port (an N+1-host star): no NIC
    // knows of the others, and the aggregate increase does not grow with N. No drop,
    // every byte delivered, the queue within 1.5 MB up to 63 senders and 2.5 MB above,
    // start-up included, and at least 88 Gb/s of payload from 5 ms on.
    for (const int n : {7, 15, 31, 63, 127, 255})
    {
        SCOPED_TRACE(std::to_string(n) + " senders");
        TempDir dir;
        json sc = Shipped(dir, "rtt-probe-incast-7x1000.json");
        sc["topology"]["hosts"] = n + 1;
        sc["traffic"]["incast"]["senders"] = json::array(); // all but the receiver
        sc["traffic"]["incast"]["qps_per_sender"] = 7000 / n;
        const json s = RunScenario(dir, "fan", sc);
        ExpectNoLossAndBoundedQueue(s, n <= 63 ? kQueueBound : 2.5e6);
        ExpectEveryByteDelivered(s);
        EXPECT_GE(PayloadGbps(dir / "fan", n + 1, 0, 5e6, 10e6), 88);
    }
}

TEST(RttProbeTargets, MessagesOfEverySizeOnANewQpFinishNearTheirIdeal)
{
    // During the incast, a message from host 1 on a new QP every 50 us, one run per size:
    // after 5 ms, mean FCT within 25 us of the ideal and p99 within 150 us of it. A
    // message up to one initial window (77.5 KB here) leaves at once.
    for (const int kb : {1, 2, 4, 8, 16, 32, 64})
    {
        SCOPED_TRACE(std::to_string(kb) + " KB");
        TempDir dir;
        std::string csv = "src,dst,bytes,start_ns\n";
        for (int t = 25000; t < 10000000; t += 50000)
        {
            csv += "1,0," + std::to_string(kb * 1024) + "," + std::to_string(t) + "\n";
        }
        WriteText(dir / "messages.csv", csv);
        json sc = Shipped(dir, "rtt-probe-incast-7x1000.json");
        sc["traffic"]["flows_csv"] = dir / "messages.csv";
        const json s = RunScenario(dir, "msg", sc);
        EXPECT_EQ(s["drops"], 0u);
        std::vector<double> fct;
        std::vector<double> ideal;
        for (const auto& r : ReadCsv(dir / "msg/fct.csv"))
        {
            if (r.at("kind") == "flow" && Num(r.at("start_ns")) >= 5e6)
            {
                fct.push_back(Num(r.at("fct_ns")) / 1e3);
                ideal.push_back(Num(r.at("ideal_fct_ns")) / 1e3);
            }
        }
        ASSERT_GE(fct.size(), 90u); // one per 50 us over 5 ms: none held back
        EXPECT_LE(Mean(fct), Mean(ideal) + 25);
        EXPECT_LE(Quantile(fct, 0.99), Quantile(ideal, 0.99) + 150);
    }
}

namespace
{

/// Runs the WebSearch-beside-the-incast scenario (\p rttProbe: its cc.rtt-probe keys)
/// with 6 ms of CDF flows; expects no loss and a bounded queue, and returns the
/// slowdowns of the CDF flows under 100 KB (\p cdfFlows: how many CDF flows there were).
std::vector<double>
ShortFlowSlowdownsBesideTheIncast(const TempDir& dir, const json& rttProbe, size_t& cdfFlows)
{
    json sc = Shipped(dir, "rtt-probe-incast-cdf-mix.json");
    sc["cc"]["rtt-probe"] = rttProbe;
    sc["traffic"]["cdf"]["file"] = kScenarios + "workloads/websearch.cdf";
    sc["traffic"]["cdf"]["duration_us"] = 6000;
    sc["stop_time_ms"] = 30; // the run ends once the last (largest) CDF flow is done
    const json s = RunScenario(dir, "mix", sc);
    ExpectNoLossAndBoundedQueue(s);
    std::vector<double> slowdown;
    cdfFlows = 0;
    for (const auto& r : ReadCsv(dir / "mix/fct.csv"))
    {
        if (r.at("kind") != "cdf")
        {
            continue;
        }
        ++cdfFlows;
        if (Num(r.at("size_bytes")) < 100e3)
        {
            slowdown.push_back(Num(r.at("slowdown")));
        }
    }
    return slowdown;
}

} // namespace

TEST(RttProbeTargets, ShortFlowsBesideTheIncastStayNearTheirUnloadedFct)
{
    // WebSearch flows at 30% load between the senders share their links with the incast:
    // the short ones (under 100 KB) finish near their unloaded FCT.
    TempDir dir;
    size_t cdf = 0;
    const std::vector<double> slowdown =
        ShortFlowSlowdownsBesideTheIncast(dir, json::object(), cdf);
    EXPECT_GE(cdf, 50u);
    ASSERT_GE(slowdown.size(), 20u);
    EXPECT_LE(Quantile(slowdown, 0.5), 2.0);
}
