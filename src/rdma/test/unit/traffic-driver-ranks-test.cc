/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Over MPI ranks each rank keeps only the flows with an end on its own hosts, yet every
 * rank must number every flow (ids, QP numbers) as the serial run does: peers address
 * QPs by number, and the merged outputs join rows by flow id. Run here on rank 0 of a
 * two-way split without MPI: the split alone decides which hosts are local.
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Leaf-spine of 4 leaves x 3 hosts: split in two, hosts 0-5 are rank 0's, 6-11 rank 1's.
void
Build(RdmaTopology& topo, uint32_t ranks)
{
    LeafSpineHelper ls;
    ls.leaves = 4;
    ls.spines = 2;
    ls.hostsPerLeaf = 3;
    ls.Build(topo);
    ASSERT_EQ(topo.Partition(ranks), "");
    topo.Finalize();
}

constexpr uint32_t kRemoteHost = 6; ///< the first host of rank 1

/// (src, dst): within rank 0, within rank 1 (neither end local), across either way.
const std::vector<std::pair<uint32_t, uint32_t>> kPairs =
    {{0, 1}, {6, 7}, {0, 6}, {7, 1}, {8, 9}, {6, 7}, {2, 3}, {9, 2}, {10, 11}, {1, 0}};

bool
LocalEnd(const std::pair<uint32_t, uint32_t>& p)
{
    return p.first < kRemoteHost || p.second < kRemoteHost;
}

/// Each flow's (host node, QP number) and size, the flows added by \p add in \p ranks.
template <typename Add>
std::vector<std::pair<std::pair<uint32_t, uint32_t>, uint64_t>>
Numbering(uint32_t ranks, Add add)
{
    RdmaTopology topo;
    Build(topo, ranks);
    TrafficDriver driver(topo);
    std::vector<uint64_t> ids;
    for (uint32_t k = 0; k < kPairs.size(); ++k)
    {
        FlowSpec f;
        f.src = kPairs[k].first;
        f.dst = kPairs[k].second;
        f.bytes = 1000 * (k + 1);
        ids.push_back(add(driver, f));
        EXPECT_EQ(ids.back(), k) << "ids are global, kept or not";
        EXPECT_EQ(driver.IsKept(k), ranks == 1 || LocalEnd(kPairs[k])) << "flow " << k;
    }
    EXPECT_EQ(driver.GetFlowsTotal(), kPairs.size());
    std::vector<std::pair<std::pair<uint32_t, uint32_t>, uint64_t>> out;
    for (uint64_t id : ids)
    {
        out.emplace_back(driver.GetFlowQp(id), driver.GetFlowBytes(id));
        if (driver.IsKept(id))
        {
            EXPECT_EQ(driver.GetFlowSpec(id).bytes, 1000 * (id + 1));
        }
    }
    Simulator::Destroy();
    return out;
}

} // namespace

TEST(TrafficDriverOverRanks, FlowsBetweenOtherRanksHostsAreNumberedButNotKept)
{
    const auto add = [](TrafficDriver& d, const FlowSpec& f) { return d.AddFlow(f); };
    const auto serial = Numbering(1, add);
    const auto split = Numbering(2, add);
    EXPECT_EQ(split, serial) << "every flow's QP and size as in the serial run";
}

TEST(TrafficDriverOverRanks, SharedQpsOfOtherRanksKeepTheirNumbers)
{
    // The second flow of each pair shares the first one's QP (per-pair QPs of a collective).
    const auto add = [](TrafficDriver& d, const FlowSpec& f) {
        const uint64_t k = d.GetFlowsTotal();
        for (uint64_t j = 0; j < k; ++j)
        {
            if (kPairs[j] == kPairs[k])
            {
                return d.AddDeferredFlow(f, j);
            }
        }
        return d.AddDeferredFlow(f);
    };
    const auto serial = Numbering(1, add);
    const auto split = Numbering(2, add);
    EXPECT_EQ(split, serial);
    EXPECT_EQ(serial[5].first, serial[1].first) << "flow 5 shares flow 1's QP (6 -> 7)";
}

TEST(TrafficDriverOverRanks, AReplayKeepsAndDropsTheTraceRowsOfOtherRanks)
{
    RdmaTopology topo;
    Build(topo, 2);
    TrafficDriver driver(topo);
    CollectiveTrace trace;
    const uint32_t group = trace.GroupIndex("dispatch", 0);
    std::vector<uint32_t> rankHosts;
    for (uint32_t h = 0; h < 12; ++h)
    {
        rankHosts.push_back(h);
    }
    uint32_t localEnds = 0;
    for (uint32_t k = 0; k < kPairs.size(); ++k)
    {
        TraceFlow t;
        t.flowId = k;
        t.src = kPairs[k].first;
        t.dst = kPairs[k].second;
        t.bytes = 4096;
        t.phase = "dispatch";
        t.group = group;
        trace.flows.push_back(t);
        localEnds += LocalEnd(kPairs[k]) ? 1 : 0;
    }
    CollectiveReplay replay(driver, trace, rankHosts, 3, true, CollectiveReplay::Wait::DELIVERED);
    replay.DropRemoteFlows();
    EXPECT_EQ(trace.flows.size(), 0U) << "the trace's rows moved out";
    EXPECT_EQ(trace.groups.size(), 1U) << "its groups stay (collectives.csv names them)";
    EXPECT_EQ(driver.GetFlowsTotal(), kPairs.size());
    uint32_t kept = 0;
    for (uint64_t id = 0; id < kPairs.size(); ++id)
    {
        kept += driver.IsKept(id) ? 1 : 0;
    }
    EXPECT_EQ(kept, localEnds);
    // The group still counts every flow of the run (each rank sums the same total).
    ASSERT_EQ(replay.GetGroupStats().size(), 1U);
    EXPECT_EQ(replay.GetGroupStats()[0].flows, kPairs.size());
    EXPECT_EQ(replay.GetGroupStats()[0].bytes, 4096 * kPairs.size());
    Simulator::Destroy();
}

TEST(TrafficDriverOverRanks, ProbesPostedAfterTheForegroundsEndAreNotReported)
{
    // Rank 0's own flow ends early; another rank's foreground (pretended) ends at kEnd.
    // The probe (every kInterval, closed loop, its trip far shorter) is posted at 0,
    // kInterval, ... until the ranks have compared, at kKnown (one probe then in
    // flight): those posted before kEnd are what a serial run reports, in order; the
    // later ones are late, not reported.
    const Time kInterval = MicroSeconds(10);
    const Time kEnd = MicroSeconds(100);
    const Time kKnown = MicroSeconds(201);
    RdmaTopology topo;
    Build(topo, 2);
    TrafficDriver driver(topo);
    FlowSpec f;
    f.src = 0;
    f.dst = 2;
    f.bytes = 100000;
    driver.AddFlow(f);
    driver.AddProbe(1, 0, 1000, Time(0), kInterval, 3);
    std::vector<TrafficDriver::Record> flows;
    std::vector<TrafficDriver::Record> probes;
    driver.SetRecordCallback(
        Callback<void, const TrafficDriver::Record&>([&](const TrafficDriver::Record& r) {
            (r.kind == FlowKind::PROBE ? probes : flows).push_back(r);
        }));
    driver.Start();
    std::vector<TrafficDriver::Record> before; // probes reported when the ranks compare
    TrafficDriver::RankProgress progress{};
    Simulator::Schedule(kKnown, [&]() {
        before = probes;
        progress = driver.GetRankProgress();
        driver.SetForegroundEnd(kEnd);
    });
    Simulator::Stop(kKnown * 3 / 2);
    Simulator::Run();

    ASSERT_EQ(flows.size(), 1U);
    const Time localEnd = flows[0].end;
    ASSERT_LT(localEnd, kEnd);
    EXPECT_TRUE(progress.foregroundDone);
    EXPECT_EQ(progress.foregroundEnd, localEnd);
    const int64_t step = kInterval.GetTimeStep();
    EXPECT_EQ(progress.oldestProbeInFlight, TimeStep(kKnown.GetTimeStep() / step * step))
        << "probing on until compared";
    const uint64_t posts = (kEnd.GetTimeStep() + step - 1) / step;
    ASSERT_EQ(probes.size(), posts) << "one record per probe posted before the end";
    for (uint64_t k = 0; k < posts; ++k)
    {
        EXPECT_EQ(probes[k].flowId, driver.GetFlowsTotal() + k) << "numbered after the flows";
        EXPECT_EQ(probes[k].start, kInterval * k) << "in order";
    }
    EXPECT_FALSE(before.empty());
    EXPECT_LT(before.size(), probes.size());
    for (const TrafficDriver::Record& r : before)
    {
        EXPECT_LT(r.start, localEnd)
            << "a probe posted after the rank's own end waits for the comparison";
    }
    const uint64_t late = ((kKnown - kEnd).GetTimeStep() + step - 1) / step;
    EXPECT_EQ(driver.GetLateProbes(), late) << "posted from the end until compared";
    EXPECT_EQ(driver.GetLateProbeBytes(), late * 1000);
    EXPECT_EQ(driver.GetRankProgress().oldestProbeInFlight, Time::Max());
    Simulator::Destroy();
}
