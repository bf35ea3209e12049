/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Loss recovery rules on controlled losses: the sender's link to the switch is cut for
 * a moment, losing a known number of data packets.
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

struct LossRun
{
    uint64_t lost = 0;          ///< frames lost on the cut link
    uint64_t retransmitted = 0; ///< data packets sent again
    uint64_t delivered = 0;
    uint64_t timeouts = 0;
    bool completed = false;
    std::vector<uint64_t> timeoutsAt; ///< sender timeouts at each check time
};

/// One flow host 0 -> host 1 on a star; host \p cutHost's link is down during
/// [cutFrom, cutTo).
LossRun
RunWithCut(const std::string& recovery,
           uint64_t bytes,
           Time cutFrom,
           Time cutTo,
           const std::vector<Time>& checks = {},
           uint32_t cutHost = 0)
{
    RdmaTopology topo;
    ObjectFactory policy("ns3::" + recovery);
    policy.Set("RetransmissionTimeout", TimeValue(MicroSeconds(500)));
    topo.SetLossRecovery(policy);
    StarHelper star;
    star.hosts = 2;
    star.Build(topo);
    topo.Finalize();
    const uint32_t src = topo.GetHosts()[0];
    const int32_t link = topo.FindLink(topo.GetHosts()[cutHost], topo.GetSwitches()[0]);
    TrafficDriver driver(topo);
    FlowSpec f;
    f.src = 0;
    f.dst = 1;
    f.bytes = bytes;
    driver.AddFlow(f);
    driver.SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    driver.Start();
    Simulator::Schedule(cutFrom, &RdmaTopology::SetLinkUp, &topo, link, false);
    Simulator::Schedule(cutTo, &RdmaTopology::SetLinkUp, &topo, link, true);
    LossRun r;
    Ptr<RdmaNic> nic = topo.GetNic(src);
    r.timeoutsAt.resize(checks.size());
    for (size_t i = 0; i < checks.size(); ++i)
    {
        Simulator::Schedule(checks[i],
                            [&r, nic, i]() { r.timeoutsAt[i] = nic->GetStats().timeouts; });
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    r.lost = topo.GetLinkDownDrops();
    r.retransmitted = nic->GetStats().retransmittedPackets;
    r.timeouts = nic->GetStats().timeouts;
    r.delivered = topo.GetNic(topo.GetHosts()[1])->GetStats().payloadBytesDelivered;
    r.completed = driver.IsDone();
    Simulator::Destroy();
    return r;
}

} // namespace

TEST(LossRecovery, SelectiveRepeatResendsOnlyTheHoles)
{
    // Cut for 1 us in the middle of a 1 MB flow at 100G: about 11 packets (1106 B on the
    // wire each, 88 ns) are lost. The receiver keeps what arrives after the hole and
    // reports it; the sender resends exactly the lost packets. Go-back-N resends from
    // the hole on, everything that was in flight after it too.
    const uint64_t bytes = 1000000;
    const LossRun sr = RunWithCut("SelectiveRepeat", bytes, MicroSeconds(20), MicroSeconds(21));
    const LossRun gbn = RunWithCut("GoBackN", bytes, MicroSeconds(20), MicroSeconds(21));
    for (const LossRun* r : {&sr, &gbn})
    {
        EXPECT_TRUE(r->completed);
        EXPECT_EQ(r->delivered, bytes);
        EXPECT_GE(r->lost, 5u);
    }
    // The cut also loses the ACKs coming back (cumulative, so harmless): the lost data
    // packets are at most all the lost frames, and selective repeat resends each of them
    // once, no more.
    EXPECT_GT(sr.retransmitted, 0u);
    EXPECT_LE(sr.retransmitted, sr.lost) << "selective repeat resends each lost packet once";
    EXPECT_GT(gbn.retransmitted, gbn.lost + 10) << "go-back-N also resends what followed the hole";
}

TEST(LossRecovery, SelectiveRepeatTimeoutFollowsPacketsInFlight)
{
    // IRN: RtoLow (100 us) with at most 3 packets in flight, RtoHigh (320 us) otherwise.
    // The receiver's link is cut from the start for 1 ms: the whole message leaves and
    // nothing is acknowledged. 2-packet message: the first timeout fires at ~100 us.
    // 50-packet message (no in-flight cap here): not before 320 us.
    const std::vector<Time> checks{MicroSeconds(150), MicroSeconds(300), MicroSeconds(400)};
    const LossRun small = RunWithCut("SelectiveRepeat", 2048, Time(0), MilliSeconds(1), checks, 1);
    EXPECT_EQ(small.timeoutsAt[0], 1u) << "RtoLow: first timeout before 150 us";
    const LossRun large =
        RunWithCut("SelectiveRepeat", 50 * 1024, Time(0), MilliSeconds(1), checks, 1);
    EXPECT_EQ(large.timeoutsAt[1], 0u) << "RtoHigh: no timeout before 300 us";
    EXPECT_EQ(large.timeoutsAt[2], 1u) << "RtoHigh: first timeout by 400 us";
    EXPECT_TRUE(small.completed);
    EXPECT_TRUE(large.completed);
    EXPECT_EQ(large.delivered, 50u * 1024);
}
