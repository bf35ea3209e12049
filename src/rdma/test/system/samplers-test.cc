/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The periodic samplers write what they promise, tick after tick, under a real incast
 * (3 senders x 50 QPs into one port of a 100G switch, PFC on, sampled every
 * microsecond): queue.csv has a row for a queue at every sample while it is non-empty
 * and exactly one 0 after it drains (the samplers skip ports that were empty at both
 * samples, which must not lose that 0); ports.csv has every port that has sent at every
 * later sample, its count never falling, and the receiver's downlink carries at least
 * the incast's payload.
 */
#include "scenario-test-util.h"

#include "ns3/rdma-module.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <tuple>

using nlohmann::json;
using namespace rdmatest;

namespace
{

constexpr int64_t kTickNs = 1000;
constexpr uint64_t kSenders = 3;
constexpr uint64_t kQps = 50;
constexpr uint64_t kMessageBytes = 100000;

json
SampledIncast()
{
    return json{
        {"topology", {{"type", "star"}, {"hosts", kSenders + 1}, {"host_rate_gbps", 100}}},
        {"cc", {{"algorithm", "dcqcn"}}},
        {"switch", {{"pfc", {{"enabled", true}}}}},
        {"stop_time_ms", 20},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"qps_per_sender", kQps},
            {"message_bytes", kMessageBytes},
            {"jitter_us", 20}}}}},
        {"output",
         {{"progress", false},
          {"queue_sample_us", kTickNs / 1000},
          {"port_sample_us", kTickNs / 1000}}},
    };
}

} // namespace

TEST(Samplers, QueueRowsRunWhileNonEmptyAndEndWithOneZeroPortCountsOnlyGrow)
{
    TempDir dir;
    const json summary = RunScenario(dir, "s", SampledIncast());
    ASSERT_EQ(summary["flows_completed"].get<uint64_t>(), kSenders * kQps);

    // ports.csv: the sample times, and every port's cumulative count.
    using PortKey = std::pair<std::string, std::string>; // node, port
    std::map<PortKey, std::map<int64_t, uint64_t>> ports;
    std::set<int64_t> ticks;
    for (const auto& row : ReadCsv(dir / "s/ports.csv"))
    {
        const int64_t t = std::stoll(row.at("time_ns"));
        ASSERT_EQ(t % kTickNs, 0) << "a sample off the tick";
        ticks.insert(t);
        ports[{row.at("node"), row.at("port")}][t] = std::stoull(row.at("tx_bytes"));
    }
    ASSERT_GT(ticks.size(), 100u) << "the incast lasts over a millisecond";
    const int64_t lastTick = *ticks.rbegin();
    for (const auto& [key, counts] : ports)
    {
        uint64_t before = 0;
        for (int64_t t = counts.begin()->first; t <= lastTick; t += kTickNs)
        {
            ASSERT_TRUE(counts.count(t))
                << "port " << key.first << "/" << key.second << " has sent but has no row at " << t;
            EXPECT_GE(counts.at(t), before) << "a cumulative count fell";
            before = counts.at(t);
        }
    }

    // The switch's port towards the receiver (links.csv) carried the whole incast.
    std::string downlink;
    for (const auto& row : ReadCsv(dir / "s/links.csv"))
    {
        if (row.at("node_kind") != "host" && row.at("peer_node") == "0")
        {
            downlink = row.at("port");
            const auto& counts = ports.at({row.at("node"), downlink});
            EXPECT_GE(counts.rbegin()->second, kSenders * kQps * kMessageBytes);
        }
    }
    ASSERT_FALSE(downlink.empty());

    // queue.csv: per queue, rows at consecutive ticks while non-empty, then one 0.
    using QueueKey = std::tuple<std::string, std::string, std::string>;
    std::map<QueueKey, std::map<int64_t, uint64_t>> queues;
    for (const auto& row : ReadCsv(dir / "s/queue.csv"))
    {
        queues[{row.at("node"), row.at("port"), row.at("prio")}][std::stoll(row.at("time_ns"))] =
            std::stoull(row.at("bytes"));
    }
    uint64_t nonEmptyRows = 0;
    for (const auto& [key, samples] : queues)
    {
        for (const auto& [t, bytes] : samples)
        {
            if (bytes > 0)
            {
                ++nonEmptyRows;
                // Still queued at the next tick, or drained: a row either way.
                EXPECT_TRUE(t >= lastTick || samples.count(t + kTickNs))
                    << "queue " << std::get<1>(key) << "/" << std::get<2>(key) << " non-empty at "
                    << t << " has no row at the next tick";
            }
            else
            {
                // A 0 only right after a non-empty sample.
                EXPECT_TRUE(samples.count(t - kTickNs) && samples.at(t - kTickNs) > 0)
                    << "a 0 row at " << t << " without a non-empty sample before it";
            }
        }
    }
    EXPECT_GT(nonEmptyRows, 100u) << "the incast queues at the receiver's port";
}
