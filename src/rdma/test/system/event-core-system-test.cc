/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The event core cannot change results: the same scenario run on ns3::RdmaSimulatorImpl
 * (links with one event each under reserved uids, deferred ends of transmission) and on
 * ns-3's DefaultSimulatorImpl with its MapScheduler writes the same flows, queues and
 * PFC events, with PFC, INT, drops and a link going down and up mid-run; and so does
 * RdmaSimulatorImpl with and without its loads of ports' hot fields (PortPrefetch) and
 * its warming of the next event (WarmNext).
 */
#include "scenario-test-util.h"

#include <gtest/gtest.h>
#include <initializer_list>
#include <string>

using namespace rdmatest;
using json = nlohmann::json;

namespace
{
/// Run \p scenario with `simulator.<key>` set to each of \p values, expecting the same
/// outputs as with the first; returns the first's summary.
json
ExpectSameWith(const json& scenario, const char* key, std::initializer_list<const char*> values)
{
    TempDir dir;
    json reference;
    const std::string first = *values.begin();
    for (const char* value : values)
    {
        json s = scenario;
        s["simulator"][key] = value;
        const json sum = RunScenario(dir, value, s);
        EXPECT_EQ(sum["flows_completed"], sum["flows_total"]) << value;
        for (const char* file : {"fct.csv", "queue.csv", "pfc.csv", "ports.csv"})
        {
            EXPECT_EQ(ReadText(dir / (std::string(value) + "/" + file)),
                      ReadText(dir / (first + "/" + file)))
                << file << " differs between simulator." << key << " " << first << " and " << value;
        }
        // (The event counts may differ: the rdma core defers ends of transmission.)
        for (const char* k : {"drops", "link_down_drops", "pfc_pause_frames", "bytes_delivered"})
        {
            if (!reference.is_null())
            {
                EXPECT_EQ(sum[k], reference[k]) << k << " with " << value;
            }
        }
        if (reference.is_null())
        {
            reference = sum;
        }
    }
    return reference;
}

/// Run \p scenario on three schedulers; returns the summary of the first (map).
json
ExpectSameOnEveryScheduler(const json& scenario)
{
    return ExpectSameWith(scenario, "scheduler", {"map", "rdma", "heap"});
}

/// A 7-to-1 incast under PFC in which a fabric link goes down and comes back up.
json
PfcIncastWithLinkFlap()
{
    return json::parse(R"({
        "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                     "link_events": [{"at_us": 30, "a": 8, "b": 10, "action": "down"},
                                     {"at_us": 120, "a": 8, "b": 10, "action": "up"}]},
        "cc": {"algorithm": "none"},
        "switch": {"buffer_mb": 1},
        "stop_time_ms": 3,
        "traffic": {"incast": {"enabled": true, "receiver": 0, "senders": [1, 2, 3, 4, 5, 6, 7],
                               "qps_per_sender": 2, "message_bytes": 200000}},
        "output": {"queue_sample_us": 5, "port_sample_us": 5, "cc_sample_us": 0}
    })");
}

/// 8 hosts of a 9-host star each send 100 KB to the ninth under controller \p cc.
json
StarIncast(const std::string& cc)
{
    json s = json::parse(R"({
        "topology": {"type": "star", "hosts": 9},
        "stop_time_ms": 3,
        "traffic": {"incast": {"enabled": true, "receiver": 0, "senders": [1, 2, 3, 4, 5, 6, 7, 8],
                               "message_bytes": 100000}},
        "output": {"queue_sample_us": 5, "port_sample_us": 5, "cc_sample_us": 0}
    })");
    s["cc"]["algorithm"] = cc;
    return s;
}

/// An MoE all-to-all on 8 hosts under controller \p cc: every host sends and receives.
json
PacedAllToAll(const std::string& cc)
{
    json s = json::parse(R"({
        "topology": {"type": "star", "hosts": 8},
        "stop_time_ms": 3,
        "traffic": {"moe": {"enabled": true, "preset": "mixtral", "ranks": 8,
                            "tokens_per_rank": 512}},
        "output": {"queue_sample_us": 5, "port_sample_us": 5, "cc_sample_us": 0}
    })");
    s["cc"]["algorithm"] = cc;
    return s;
}
} // namespace

TEST(EventCore, SameResultsOnEverySchedulerPfcIncastWithLinkFlap)
{
    const json sum = ExpectSameOnEveryScheduler(PfcIncastWithLinkFlap());
    // What the comparison covers: pauses, and frames lost to the link going down.
    EXPECT_GT(sum["pfc_pause_frames"].get<int>(), 0);
    EXPECT_GT(sum["link_down_drops"].get<int>(), 0);
}

TEST(EventCore, SameResultsOnEverySchedulerHpccIntAndLossyDrops)
{
    // HPCC stamps INT at every hop (header edits); a small lossy buffer drops.
    ExpectSameOnEveryScheduler(StarIncast("hpcc"));
    json lossy = StarIncast("none");
    lossy["switch"] = json::parse(R"({"pfc": {"enabled": false}, "buffer_mb": 0.3})");
    lossy["nic"]["loss_recovery"] = "selective_repeat";
    lossy["stop_time_ms"] = 5;
    lossy = ExpectSameOnEveryScheduler(lossy);
    EXPECT_GT(lossy["drops"].get<int>(), 0);
}

TEST(EventCore, SameResultsOnEverySchedulerPacedSendersThatAlsoAcknowledge)
{
    // Every host sends and receives (an MoE all-to-all), and HPCC paces its QPs: NIC
    // ports that send an ACK with no QP ready skip their end of transmission under the
    // rdma core, then must pull on time when a QP becomes ready or starts waiting for
    // its pacing time (RdmaNetDevice::NotifyPullable).
    const json sum = ExpectSameOnEveryScheduler(PacedAllToAll("hpcc"));
    EXPECT_EQ(sum["flows_total"].get<int>(), 8 * 7 * 2); // dispatch and combine, all pairs
}

// Rule: loading ports' hot fields ahead of their events (simulator.port_prefetch) changes
// only the speed: always and never write the same flows, queues, ports and PFC events,
// under pauses and a link that goes down and up.
TEST(EventCore, PortPrefetchChangesNothingSimulated)
{
    const json sum =
        ExpectSameWith(PfcIncastWithLinkFlap(), "port_prefetch", {"always", "never", "auto"});
    EXPECT_EQ(sum["flows_total"].get<int>(), 7 * 2);
    EXPECT_GT(sum["pfc_pause_frames"].get<int>(), 0);
    EXPECT_GT(sum["link_down_drops"].get<int>(), 0);
}

// Rule: warming the next event while the one before it runs (simulator.warm_next: the
// core loads what a port's or a link's next event will read, FabricLayout::Warm) changes only the
// speed: under pauses and a link flap, where every host both sends and acknowledges, and
// where CNPs cut DCQCN's rates.
TEST(EventCore, WarmNextChangesNothingSimulated)
{
    const json flap = ExpectSameWith(PfcIncastWithLinkFlap(), "warm_next", {"always", "never"});
    EXPECT_GT(flap["pfc_pause_frames"].get<int>(), 0);
    EXPECT_GT(flap["link_down_drops"].get<int>(), 0);
    const json moe = ExpectSameWith(PacedAllToAll("dcqcn"), "warm_next", {"always", "never"});
    EXPECT_EQ(moe["flows_total"].get<int>(), 8 * 7 * 2);
    const json cut = ExpectSameWith(StarIncast("dcqcn"), "warm_next", {"always", "never"});
    EXPECT_GT(cut["cnps"].get<int>(), 0);
}
