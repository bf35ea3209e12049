/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The event core cannot change results: the same scenario run on ns3::RdmaSimulatorImpl
 * (links with one event each under reserved uids, deferred ends of transmission) and on
 * ns-3's DefaultSimulatorImpl with its MapScheduler writes the same flows, queues and
 * PFC events, with PFC, INT, drops and a link going down and up mid-run.
 */
#include "scenario-test-util.h"

#include <gtest/gtest.h>

using namespace rdmatest;
using json = nlohmann::json;

namespace
{
/// Run \p scenario on three schedulers; returns the summary of the first (map).
json
ExpectSameOnEveryScheduler(const json& scenario)
{
    TempDir dir;
    json reference;
    for (const char* scheduler : {"map", "rdma", "heap"})
    {
        json s = scenario;
        s["simulator"]["scheduler"] = scheduler;
        const json sum = RunScenario(dir, scheduler, s);
        EXPECT_EQ(sum["flows_completed"], sum["flows_total"]) << scheduler;
        for (const char* file : {"fct.csv", "queue.csv", "pfc.csv", "ports.csv"})
        {
            EXPECT_EQ(ReadText(dir / (std::string(scheduler) + "/" + file)),
                      ReadText(dir / (std::string("map/") + file)))
                << file << " differs between schedulers map and " << scheduler;
        }
        // (The event counts differ: the rdma core defers ends of transmission.)
        for (const char* key : {"drops", "link_down_drops", "pfc_pause_frames", "bytes_delivered"})
        {
            if (!reference.is_null())
            {
                EXPECT_EQ(sum[key], reference[key]) << key << " with " << scheduler;
            }
        }
        if (reference.is_null())
        {
            reference = sum;
        }
    }
    return reference;
}
} // namespace

TEST(EventCore, SameResultsOnEverySchedulerPfcIncastWithLinkFlap)
{
    const json sum = ExpectSameOnEveryScheduler(json::parse(R"({
        "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                     "link_events": [{"at_us": 30, "a": 8, "b": 10, "action": "down"},
                                     {"at_us": 120, "a": 8, "b": 10, "action": "up"}]},
        "cc": {"algorithm": "none"},
        "switch": {"buffer_mb": 1},
        "stop_time_ms": 3,
        "traffic": {"incast": {"enabled": true, "receiver": 0, "senders": [1, 2, 3, 4, 5, 6, 7],
                               "qps_per_sender": 2, "message_bytes": 200000}},
        "output": {"queue_sample_us": 5, "port_sample_us": 5, "cc_sample_us": 0}
    })"));
    // What the comparison covers: pauses, and frames lost to the link going down.
    EXPECT_GT(sum["pfc_pause_frames"].get<int>(), 0);
    EXPECT_GT(sum["link_down_drops"].get<int>(), 0);
}

TEST(EventCore, SameResultsOnEverySchedulerHpccIntAndLossyDrops)
{
    // HPCC stamps INT at every hop (header edits); a small lossy buffer drops.
    ExpectSameOnEveryScheduler(json::parse(R"({
        "topology": {"type": "star", "hosts": 9},
        "cc": {"algorithm": "hpcc"},
        "stop_time_ms": 3,
        "traffic": {"incast": {"enabled": true, "receiver": 0, "senders": [1, 2, 3, 4, 5, 6, 7, 8],
                               "message_bytes": 100000}},
        "output": {"queue_sample_us": 5, "port_sample_us": 5, "cc_sample_us": 0}
    })"));
    const json lossy = ExpectSameOnEveryScheduler(json::parse(R"({
        "topology": {"type": "star", "hosts": 9},
        "cc": {"algorithm": "none"},
        "switch": {"pfc": {"enabled": false}, "buffer_mb": 0.3},
        "nic": {"loss_recovery": "selective_repeat"},
        "stop_time_ms": 5,
        "traffic": {"incast": {"enabled": true, "receiver": 0, "senders": [1, 2, 3, 4, 5, 6, 7, 8],
                               "message_bytes": 100000}},
        "output": {"queue_sample_us": 5, "port_sample_us": 5, "cc_sample_us": 0}
    })"));
    EXPECT_GT(lossy["drops"].get<int>(), 0);
}

TEST(EventCore, SameResultsOnEverySchedulerPacedSendersThatAlsoAcknowledge)
{
    // Every host sends and receives (an MoE all-to-all), and HPCC paces its QPs: NIC
    // ports that send an ACK with no QP ready skip their end of transmission under the
    // rdma core, then must pull on time when a QP becomes ready or starts waiting for
    // its pacing time (RdmaNetDevice::NotifyPullable).
    const json sum = ExpectSameOnEveryScheduler(json::parse(R"({
        "topology": {"type": "star", "hosts": 8},
        "cc": {"algorithm": "hpcc"},
        "stop_time_ms": 3,
        "traffic": {"moe": {"enabled": true, "preset": "mixtral", "ranks": 8,
                            "tokens_per_rank": 512}},
        "output": {"queue_sample_us": 5, "port_sample_us": 5, "cc_sample_us": 0}
    })"));
    EXPECT_EQ(sum["flows_total"].get<int>(), 8 * 7 * 2); // dispatch and combine, all pairs
}

// Rule: loading ports' hot fields ahead of their events (simulator.port_prefetch) changes
// only the speed: always and never write the same flows, queues, ports and PFC events.
TEST(EventCore, PortPrefetchChangesNothingSimulated)
{
    TempDir dir;
    const json scenario = json::parse(R"({
        "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4},
        "cc": {"algorithm": "dcqcn"},
        "switch": {"buffer_mb": 1},
        "stop_time_ms": 2,
        "traffic": {"incast": {"enabled": true, "receiver": 0, "senders": [1, 2, 3, 4, 5, 6, 7],
                               "qps_per_sender": 4, "message_bytes": 200000}},
        "output": {"queue_sample_us": 5, "port_sample_us": 5, "cc_sample_us": 0}
    })");
    for (const char* mode : {"always", "never", "auto"})
    {
        json s = scenario;
        s["simulator"]["port_prefetch"] = mode;
        const json sum = RunScenario(dir, mode, s);
        EXPECT_EQ(sum["flows_completed"], sum["flows_total"]) << mode;
        EXPECT_GT(sum["flows_total"].get<int>(), 0) << mode;
        for (const char* file : {"fct.csv", "queue.csv", "pfc.csv", "ports.csv"})
        {
            EXPECT_EQ(ReadText(dir / (std::string(mode) + "/" + file)),
                      ReadText(dir / (std::string("always/") + file)))
                << file << " differs between port_prefetch always and " << mode;
        }
    }
}
