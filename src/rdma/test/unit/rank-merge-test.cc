/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RankMerge, the outputs of a run over MPI ranks made one: CSV rows ordered by their
 * keys across ranks, none past the run's end; counters added, extremes the largest,
 * figures over all ranks computed again from the ranks' data; the byte ledger balanced
 * once each rank's ends of the links between ranks are joined into wires.
 */
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>
#include <map>
#include <stdexcept>
#include <unistd.h>

using namespace ns3;
using json = nlohmann::json;

namespace
{

/// A frame count with bytes and payload in proportion (1,000 bytes, 900 payload each).
json
Frames(uint64_t n)
{
    return json{{"frames", n}, {"bytes", n * 1000}, {"data_payload_bytes", n * 900}};
}

/**
 * One rank's part of a run: \p completed of 10 flows, \p drops drops, \p sent frames
 * from its hosts of which \p received reached its hosts, \p cutSent onto and
 * \p cutArrived off links to the other rank, \p small the small flows' FCTs and
 * \p largest each queue sample's largest queue.
 */
json
Rank(uint64_t completed,
     uint64_t drops,
     uint64_t sent,
     uint64_t received,
     uint64_t cutSent,
     uint64_t cutArrived,
     std::vector<int64_t> small,
     std::vector<uint64_t> largest)
{
    json conservation = {
        {"unit", "frames"},
        {"sent", Frames(sent)},
        {"received", Frames(received)},
        {"dropped", Frames(0)},
        {"in_flight", {{"switch_queues", Frames(0)}, {"wires", Frames(0)}}},
        {"wire_order_mismatches", 0},
        {"unaccounted_switches", json::array()},
        {"cut_wires", {{"sent", Frames(cutSent)}, {"arrived", Frames(cutArrived)}}},
        {"balanced", false}};
    json summary = {{"scenario", "two-ranks"},
                    {"flows_total", 10},
                    {"flows_completed", completed},
                    {"drops", drops},
                    {"max_queue_bytes", drops * 1000},
                    {"bytes_delivered", received * 900},
                    {"events", 100},
                    {"wall_s", 2.0},
                    {"last_delivery_ns", 1000},
                    {"base_rtt_us", 10.0},
                    {"conservation", conservation}};
    json state = {{"queue_largest", largest},
                  {"queue_sample_ns", 100},
                  {"uplink_tx_bytes", json::array()},
                  {"probe_fct_ns", json::array()},
                  {"small_fct_ns", small},
                  {"host_rx_delay_ns", 0}};
    return json{{"summary", summary}, {"state", state}, {"rank", {{"flows", completed}}}};
}

/// The declaration of the output file \p file (OutputFiles).
const OutputFile&
Rule(const std::string& file)
{
    const OutputFile* declared = OutputFiles::Find(file);
    if (!declared)
    {
        throw std::runtime_error("no declaration of " + file);
    }
    return *declared;
}

} // namespace

TEST(RankMerge, FctRowsInCompletionOrderTiesInRankOrderWithOneHeader)
{
    const std::string header = "flow_id,kind,src,dst,qp,prio,size_bytes,start_ns,end_ns,"
                               "fct_ns,ideal_fct_ns,slowdown\n";
    const std::string rank0 = header + "3,flow,0,1,1,3,100,0,500,500,400,1.25\n"
                                       "0,flow,0,2,2,3,100,0,900,900,400,2.25\n";
    const std::string rank1 = header + "2,flow,4,1,1,3,100,0,500,500,400,1.25\n"
                                       "1,flow,5,1,1,3,100,0,700,700,400,1.75\n";
    const std::string merged = RankMerge::MergeCsv({rank0, rank1}, Rule("fct.csv"), 1000);
    // By end time; 3 and 2 end together: rank 0's first.
    EXPECT_EQ(merged,
              header + "3,flow,0,1,1,3,100,0,500,500,400,1.25\n"
                       "2,flow,4,1,1,3,100,0,500,500,400,1.25\n"
                       "1,flow,5,1,1,3,100,0,700,700,400,1.75\n"
                       "0,flow,0,2,2,3,100,0,900,900,400,2.25\n");
}

TEST(RankMerge, RowsOfOneInstantFollowTheirEventOrderWhichIsThenDropped)
{
    // Ordered by node, each row carries its event's uid: at one instant the serial run
    // wrote them in uid order, whichever rank's they are; within one event (one uid),
    // in the rank's order. The merged file has no event_order column.
    const std::string header = "time_ns,node,port,prio,event";
    const std::string rank0 = header + ",event_order\n" + "100,1027,27,3,resume,50\n" +
                              "100,1027,3,3,pause,50\n" + "200,1026,1,3,pause,7\n";
    const std::string rank1 = header + ",event_order\n" + "100,1028,7,3,pause,40\n" +
                              "200,1029,2,3,pause,9\n" + "300,1030,2,3,resume,1\n";
    EXPECT_EQ(RankMerge::MergeCsv({rank0, rank1}, Rule("pfc.csv"), 250),
              header + "\n" + "100,1028,7,3,pause\n" + "100,1027,27,3,resume\n" +
                  "100,1027,3,3,pause\n" + "200,1026,1,3,pause\n" + "200,1029,2,3,pause\n");
}

TEST(RankMerge, SamplesPastTheEndAreLeftOutAndDifferentHeadersRefused)
{
    const std::string header = "time_ns,node,port,prio,bytes\n";
    const std::string rank0 = header + "0,9,1,3,1000\n200,9,1,3,0\n";
    const std::string rank1 = header + "0,8,2,3,500\n100,8,2,3,0\n";
    EXPECT_EQ(RankMerge::MergeCsv({rank0, rank1}, Rule("queue.csv"), 150),
              header + "0,8,2,3,500\n0,9,1,3,1000\n100,8,2,3,0\n");
    EXPECT_THROW(RankMerge::MergeCsv({rank0, "time_ns,node\n"}, Rule("queue.csv"), 150),
                 std::runtime_error);
}

TEST(RankMerge, RowsOutOfOrderWithinARankAreSortedStably)
{
    // Ranks write their rows in key order, and the merge streams them; a rank that did
    // not still gets the stable order by key (ties: rank order, then the rank's order).
    const std::string header = "time_ns,node,port,prio,bytes\n";
    const std::string rank0 = header + "100,9,1,3,5\n0,9,1,3,1\n";
    const std::string rank1 = header + "0,8,2,3,2\n100,8,2,3,6\n";
    EXPECT_EQ(RankMerge::MergeCsv({rank0, rank1}, Rule("queue.csv"), 1000),
              header + "0,8,2,3,2\n0,9,1,3,1\n100,8,2,3,6\n100,9,1,3,5\n");
    const std::string fct0 = "a,end_ns\n1,300\n2,100\n";
    const std::string fct1 = "a,end_ns\n3,100\n";
    const OutputFile byEnd{"x.csv", {"a", "end_ns"}, {"end_ns"}, ""};
    EXPECT_EQ(RankMerge::MergeCsv({fct0, fct1}, byEnd, 0), "a,end_ns\n2,100\n3,100\n1,300\n");
}

TEST(RankMerge, SampledQpsKeepTheSerialRunsOrderAtEachTime)
{
    // A serial run samples the largest flows first, not in node order: (9, 4), (2, 7),
    // (5, 1). Ranks 0 and 1 each sampled theirs.
    const std::string header = "time_ns,node,qp,rate_bps,window_bytes,acked_bytes\n";
    const std::string rank0 = header + "0,2,7,100,0,0\n10,2,7,90,0,5\n";
    const std::string rank1 = header + "0,9,4,100,0,0\n0,5,1,100,0,0\n10,9,4,80,0,6\n"
                                       "10,5,1,70,0,7\n";
    const RankMerge::QpOrder order = {{9, 4}, {2, 7}, {5, 1}};
    EXPECT_EQ(RankMerge::MergeCsv({rank0, rank1}, Rule("cc.csv"), 100, order),
              header + "0,9,4,100,0,0\n0,2,7,100,0,0\n0,5,1,100,0,0\n"
                       "10,9,4,80,0,6\n10,2,7,90,0,5\n10,5,1,70,0,7\n");
    // A row of a QP outside the order cannot be placed.
    EXPECT_THROW(RankMerge::MergeCsv({rank0, rank1}, Rule("cc.csv"), 100, {{9, 4}, {2, 7}}),
                 std::runtime_error);
}

TEST(RankMerge, CountersAddExtremesTakeTheLargestAndFiguresAreComputedAgain)
{
    const json a = Rank(6, 3, 50, 40, 20, 10, {100, 300}, {5, 0, 7});
    const json b = Rank(4, 4, 30, 30, 10, 10, {200}, {1, 9, 2});
    const json sum = RankMerge::MergeSummaries({a, b}, NanoSeconds(150));
    EXPECT_EQ(sum["drops"], 7);
    EXPECT_EQ(sum["flows_completed"], 10);
    EXPECT_EQ(sum["flows_unfinished"], 0);
    EXPECT_TRUE(sum["all_flows_completed"].get<bool>());
    EXPECT_EQ(sum["max_queue_bytes"], 4000);
    EXPECT_EQ(sum["events"], 200);
    EXPECT_DOUBLE_EQ(sum["wall_s"].get<double>(), 2.0); // the ranks ran side by side
    EXPECT_NEAR(sum["sim_time_s"].get<double>(), 150e-9, 1e-18);
    // 70 frames of 900 payload bytes in 150 ns.
    EXPECT_NEAR(sum["goodput_gbps"].get<double>(), 70 * 900 * 8 / 150e-9 / 1e9, 1e-6);
    // Small flows of both ranks together: 100, 200, 300.
    EXPECT_EQ(sum["small_flows_completed"], 3);
    EXPECT_DOUBLE_EQ(sum["small_flow_fct_mean_ns"].get<double>(), 200);
    EXPECT_DOUBLE_EQ(sum["small_flow_fct_p99_ns"].get<double>(), 300);
    // Samples at 0 and 100 ns (200 is past the end): largest 5 and 9.
    EXPECT_DOUBLE_EQ(sum["mean_queue_bytes"].get<double>(), 7);
    EXPECT_EQ(sum["ranks"]["count"], 2);
    EXPECT_EQ(sum["ranks"]["per_rank"].size(), 2u);
}

TEST(RankMerge, LedgerBalancesOnceLinksBetweenRanksAreWiresAgain)
{
    // 80 frames sent by hosts, 70 received; 30 went onto links between ranks and 20
    // came off them: 10 are still on those wires.
    const json a = Rank(6, 0, 50, 40, 20, 10, {}, {});
    const json b = Rank(4, 0, 30, 30, 10, 10, {}, {});
    const json c = RankMerge::MergeSummaries({a, b}, NanoSeconds(100))["conservation"];
    EXPECT_EQ(c["in_flight"]["wires"], Frames(10));
    EXPECT_FALSE(c.contains("cut_wires"));
    EXPECT_TRUE(c["balanced"].get<bool>());
    // One frame more received than accounted for: not balanced.
    const json lost = Rank(4, 0, 30, 31, 10, 10, {}, {});
    EXPECT_FALSE(RankMerge::MergeSummaries({a, lost}, NanoSeconds(100))["conservation"]["balanced"]
                     .get<bool>());
}

namespace
{
/// A file only this test declares: rows by t, none past the end.
const OutputFileRegistration g_testRows({"rank-merge-test-rows.csv",
                                         {"t", "v"},
                                         {"t"},
                                         "t",
                                         OutputFile::Merge::ROWS,
                                         8,
                                         [](const json&, const SizeGuard::Estimate& e) {
                                             return OutputFile::Rows{e.hosts, "stop_time_ms"};
                                         },
                                         nullptr,
                                         1000});

/// A fresh output folder under /tmp: never created, as nothing is committed (RunOutput
/// removes its staging folder).
std::string
FreshDir()
{
    static int n = 0;
    return "/tmp/rdma-rank-merge-test-" + std::to_string(::getpid()) + "-" + std::to_string(++n);
}
} // namespace

TEST(RankMerge, HeadersThatAreNotTheDeclarationsAreRefused)
{
    // A writer whose header drifted from its declaration cannot be merged by name.
    const std::string rank0 = "time_ns,node,port,prio,bytes,extra\n0,9,1,3,1000,1\n";
    EXPECT_THROW(RankMerge::MergeCsv({rank0, rank0}, Rule("queue.csv"), 150), std::runtime_error);
    const std::string swapped = "time_ns,port,node,prio,bytes\n0,1,9,3,1000\n";
    EXPECT_THROW(RankMerge::MergeCsv({swapped}, Rule("queue.csv"), 150), std::runtime_error);
}

TEST(RankMerge, ADeclaredFileIsMergedByItsDeclarationAndAnUndeclaredCsvIsAnError)
{
    const json a = Rank(6, 0, 50, 40, 20, 10, {}, {});
    {
        // Declared by this test alone: the merge reads its declaration (rows by t, none
        // past the end), with no rule of its own.
        RunOutput out(FreshDir());
        out.Stream("rank-merge-test-rows.csv") << "t,v\n300,c\n100,a\n200,b\n";
        RankMerge::Merge(out, a["summary"], a["state"], a["rank"], NanoSeconds(250));
        std::string text;
        ASSERT_TRUE(out.Take("rank-merge-test-rows.csv", &text));
        EXPECT_EQ(text, "t,v\n100,a\n200,b\n");
    }
    {
        // A CSV that no declaration names: its rows would be lost on every rank but
        // rank 0, so the run stops, naming it.
        RunOutput out(FreshDir());
        out.Stream("undeclared.csv") << "x\n1\n";
        try
        {
            RankMerge::Merge(out, a["summary"], a["state"], a["rank"], NanoSeconds(250));
            ADD_FAILURE() << "an undeclared CSV was accepted";
        }
        catch (const std::runtime_error& e)
        {
            EXPECT_NE(std::string(e.what()).find("undeclared.csv"), std::string::npos) << e.what();
        }
    }
}

TEST(RankMerge, EveryShippedCsvIsDeclaredAndSortedByItsOwnColumns)
{
    // The files a run writes, each declared once; a file merged by rows has a sort key,
    // and its time column, if any, is the first key (rows stream in time order).
    for (const char* name : {"fct.csv",
                             "pfc.csv",
                             "queue.csv",
                             "ports.csv",
                             "cc.csv",
                             "unfinished.csv",
                             "links.csv",
                             "pfc_time.csv",
                             "collectives.csv",
                             "moe-trace.csv"})
    {
        const OutputFile* f = OutputFiles::Find(name);
        ASSERT_NE(f, nullptr) << name;
        EXPECT_EQ(f->name, name);
        EXPECT_FALSE(f->columns.empty()) << name;
        if (f->merge == OutputFile::Merge::ROWS)
        {
            ASSERT_FALSE(f->sortKey.empty()) << name;
            EXPECT_TRUE(f->timeColumn.empty() || f->sortKey.front() == f->timeColumn) << name;
        }
    }
    EXPECT_EQ(OutputFiles::Find("no-such.csv"), nullptr);
}

TEST(RankMerge, TheSizeEstimateReadsTheDeclarations)
{
    const json s = {{"stop_time_ms", 1.0},
                    {"switch", {{"pfc", {{"enabled", true}}}}},
                    {"output",
                     {{"queue_sample_us", 10.0},
                      {"port_sample_us", 0.0},
                      {"cc_sample_us", 0.0},
                      {"cc_sample_qps", 4},
                      {"pcap", {{"enabled", false}}}}}};
    SizeGuard::Estimate e;
    e.AddFabric(4, 1, 4, "topology.hosts");
    OutputDescription().Estimate(s, e);
    std::map<std::string, double> bytes;
    for (const SizeGuard::Part& p : e.outputs)
    {
        bytes[p.what] = p.bytes;
    }
    EXPECT_DOUBLE_EQ(bytes.at("rank-merge-test-rows.csv"), 4 * 8); // this test's file
    EXPECT_EQ(bytes.count("ports.csv"), 0u) << "not sampled: not written";
    EXPECT_EQ(bytes.count("cc.csv"), 0u);
    // Every class of both ends of the 4 links, 40 bytes a row.
    EXPECT_DOUBLE_EQ(bytes.at("pfc_time.csv"), 8 * 8 * 40);
    EXPECT_GT(bytes.at("links.csv"), 0);
}
