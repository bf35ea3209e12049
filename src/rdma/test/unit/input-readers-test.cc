/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Line-oriented inputs: field parsing (units, host lists), incast group lists and
 * topology files. Malformed lines are refused with file:line.
 */
#include "temp-file.h"

#include "ns3/fat-tree-helper.h"
#include "ns3/incast-group-reader.h"
#include "ns3/input-fields.h"
#include "ns3/scenario-error.h"
#include "ns3/topology-file.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace ns3;

namespace
{
using rdmatest::TempFile;

template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(InputFields, RatesAndTimesNeedTheirUnits)
{
    using namespace inputfields;
    EXPECT_EQ(BitRate("100Gbps", "f:1", "rate"), 100000000000ULL);
    EXPECT_EQ(BitRate("25Gb/s", "f:1", "rate"), 25000000000ULL);
    EXPECT_EQ(BitRate("1.5Mbps", "f:1", "rate"), 1500000ULL);
    EXPECT_EQ(Nanoseconds("1000ns", "f:1", "delay"), 1000);
    EXPECT_EQ(Nanoseconds("0.001ms", "f:1", "delay"), 1000);
    EXPECT_EQ(Nanoseconds("1us", "f:1", "delay"), 1000);
    EXPECT_EQ(Nanoseconds("1e-6s", "f:1", "delay"), 1000);
    EXPECT_EQ(Nanoseconds("0ns", "f:1", "delay"), 0);
    for (const char* bad : {"100", "100Gbit", "-1Gbps", "Gbps", "0Gbps"})
    {
        const std::string e = ErrorOf([&] { BitRate(bad, "f:7", "rate"); });
        EXPECT_NE(e.find("f:7"), std::string::npos) << bad << ": " << e;
        EXPECT_NE(e.find(bad), std::string::npos) << e;
    }
    for (const char* bad : {"1", "1 us", "1min", "-1us", "0.5ns"})
    {
        EXPECT_NE(ErrorOf([&] { Nanoseconds(bad, "f:7", "delay"); }).find("f:7"), std::string::npos)
            << bad;
    }
}

TEST(InputFields, HostLists)
{
    using namespace inputfields;
    EXPECT_EQ(HostList("3", "f:1", "senders", 8), (std::vector<uint32_t>{3}));
    EXPECT_EQ(HostList("1-4", "f:1", "senders", 8), (std::vector<uint32_t>{1, 2, 3, 4}));
    EXPECT_EQ(HostList("0;2-3;7", "f:1", "senders", 8), (std::vector<uint32_t>{0, 2, 3, 7}));
    EXPECT_NE(ErrorOf([] { HostList("1-8", "f:2", "senders", 8); }).find("f:2"), std::string::npos);
    EXPECT_NE(ErrorOf([] { HostList("4-1", "f:2", "senders", 8); }).find("f:2"), std::string::npos);
    EXPECT_NE(ErrorOf([] { HostList("", "f:2", "senders", 8); }).find("f:2"), std::string::npos);
    EXPECT_NE(ErrorOf([] { HostList("a", "f:2", "senders", 8); }).find("f:2"), std::string::npos);
}

TEST(IncastGroupReader, GroupsJoinAndLeave)
{
    TempFile f("# two groups\n"
               "receiver,senders,qps_per_sender,join_us,leave_us,jitter_us\n"
               "0,1-2,4,0,600,0\n"
               "\n"
               "0,3;5-6,50,200,400,2\n");
    const auto groups = IncastGroupReader::Read(f.Path(), 8, 3);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[1].receiver, 0u);
    EXPECT_EQ(groups[1].senders, (std::vector<uint32_t>{3, 5, 6}));
    EXPECT_EQ(groups[1].qpsPerSender, 50u);
    EXPECT_EQ(groups[1].start, MicroSeconds(200));
    EXPECT_EQ(groups[1].until, MicroSeconds(400));
    EXPECT_EQ(groups[1].jitter, MicroSeconds(2));
    EXPECT_EQ(groups[1].priority, 3);
    // Each QP of a group that leaves sends without end until it leaves.
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    const auto flows = groups[1].Generate(rng);
    ASSERT_EQ(flows.size(), 150u);
    for (const FlowSpec& f : flows)
    {
        EXPECT_EQ(f.bytes, RdmaMessage::kUnbounded);
        EXPECT_EQ(f.stop, MicroSeconds(400));
        EXPECT_GE(f.start, MicroSeconds(200));
        EXPECT_LE(f.start, MicroSeconds(202));
    }
}

TEST(IncastGroupReader, OneMessageGroups)
{
    TempFile f("priority,receiver,senders,qps_per_sender,join_us,leave_us,message_bytes\n"
               "5,7,0-3,2,10,0,65536\n");
    const auto groups = IncastGroupReader::Read(f.Path(), 8, 3);
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].priority, 5);
    EXPECT_EQ(groups[0].messageBytes, 65536u);
    EXPECT_FALSE(groups[0].until.IsStrictlyPositive());
}

TEST(IncastGroupReader, MalformedLinesNameTheLine)
{
    const std::string header = "receiver,senders,qps_per_sender,join_us,leave_us\n";

    struct Case
    {
        std::string body;
        std::string line;
        std::string mentions;
    };

    const std::vector<Case> cases{
        {"0,1-3,4,100,50\n", ":2", "leave_us"},      // leaves before it joins
        {"0,0-3,4,0,100\n", ":2", "senders"},        // receiver among senders
        {"0,1-3,4,0\n", ":2", "columns"},            // missing a cell
        {"9,1-3,4,0,100\n", ":2", "receiver"},       // no host 9
        {"0,1-3,0,0,100\n", ":2", "qps_per_sender"}, // no QPs
        {"0,1-3,4,0,0\n", ":2", "message_bytes"},    // one message, but of what size?
        {"0,1-3,4,0,100\n0,1,x,0,100\n", ":3", "qps_per_sender"},
    };
    for (const Case& c : cases)
    {
        TempFile f(header + c.body);
        const std::string e = ErrorOf([&] { IncastGroupReader::Read(f.Path(), 8, 3); });
        EXPECT_NE(e.find(f.Path() + c.line), std::string::npos) << c.body << ": " << e;
        EXPECT_NE(e.find(c.mentions), std::string::npos) << c.body << ": " << e;
    }
    TempFile unknown("receiver,senders,qps,join_us,leave_us\n");
    EXPECT_NE(ErrorOf([&] {
                  IncastGroupReader::Read(unknown.Path(), 8, 3);
              }).find(":1: unknown column 'qps'"),
              std::string::npos);
}

TEST(TopologyFile, ModuleFormat)
{
    // Two racks of two hosts under one spine, 100G hosts, 400G uplinks.
    TempFile f("# comment\n"
               "hosts 4\n"
               "switches 2 leaf\n"
               "switches 1 spine   # s2\n"
               "link h0 s0 100Gbps 1us\n"
               "link h1 s0 100Gbps 1us\n"
               "link h2 s1 100Gbps 1us\n"
               "link h3 s1 100Gbps 500ns\n"
               "link s0 s2 400Gbps 2us\n"
               "link s1 s2 400Gbps 2us\n");
    const TopologyFile t = TopologyFile::ReadRdma(f.Path());
    EXPECT_EQ(t.Hosts(), 4u);
    EXPECT_EQ(t.RackOf(), (std::vector<uint32_t>{0, 0, 1, 1}));
    EXPECT_EQ(t.RackUplinkBitRate(), (std::vector<double>{400e9, 400e9}));
    EXPECT_EQ(t.HostBitRate(), (std::vector<double>(4, 100e9)));
}

TEST(TopologyFile, HpccFormat)
{
    // The HPCC simulator's format: node 2 is the switch, hosts are 0, 1 and 3.
    TempFile f(
        "4 1 3\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 0.001ms 0.000000\n3 2 25Gbps 1000ns 0\n\n");
    const TopologyFile t = TopologyFile::ReadHpcc(f.Path());
    EXPECT_EQ(t.Hosts(), 3u);
    EXPECT_EQ(t.HostIndexOfFileNode(), (std::vector<int64_t>{0, 1, -1, 2}));
    EXPECT_EQ(t.HostBitRate(), (std::vector<double>{100e9, 100e9, 25e9}));
}

TEST(TopologyFile, MalformedFilesNameTheLine)
{
    struct Case
    {
        std::string text;
        std::string where;
        std::string mentions;
        bool hpcc;
    };

    const std::vector<Case> cases{
        {"hosts 2\nswitches 1\nlink h0 s0 100Gbps 1us\nlink h1 s0 100 1us\n", ":4", "rate", false},
        {"hosts 2\nswitches 1\nlink h0 s0 100Gbps 1us\nlink h1 s1 100Gbps 1us\n",
         ":4",
         "switch",
         false},
        {"hosts 2\nswitches 1\nlink h0 s0 100Gbps 1us\nlink h0 s0 100Gbps 1us\n",
         ":4",
         "already has a link",
         false},
        {"hosts 2\nswitches 1\nlink h0 h1 100Gbps 1us\n", ":3", "host", false},
        {"hosts 2\nswitches 2\nlink h0 s0 100Gbps 1us\nlink h1 s1 100Gbps 1us\n",
         "",
         "cannot reach",
         false},
        {"hosts 2\nswitches 1\nlink h0 s0 100Gbps 1us\n", "", "host 1 has no link", false},
        {"hosts 2\nswitch 1\n", ":2", "unknown line", false},
        {"3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0.01\n", ":4", "error_rate", true},
        {"3 1 3\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n", "", "announces 3 links", true},
        {"3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps\n", ":4", "expected", true},
        {"3 1 2\n2 2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n", ":2", "switch ids", true},
        {"3 1 2\n2\n0 5 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n", ":3", "dst", true},
    };
    for (const Case& c : cases)
    {
        TempFile f(c.text);
        const std::string e = ErrorOf(
            [&] { c.hpcc ? TopologyFile::ReadHpcc(f.Path()) : TopologyFile::ReadRdma(f.Path()); });
        EXPECT_NE(e.find(f.Path() + c.where), std::string::npos) << c.text << " -> " << e;
        EXPECT_NE(e.find(c.mentions), std::string::npos) << c.text << " -> " << e;
    }
}

TEST(FatTreeHelper, KAryShape)
{
    FatTreeHelper ft;
    ft.SetK(4);
    EXPECT_EQ(ft.Hosts(), 16u); // k^3 / 4
    EXPECT_EQ(ft.cores, 4u);    // (k/2)^2
    EXPECT_TRUE(ft.IsValid());
    EXPECT_DOUBLE_EQ(ft.TorOversubscription(), 1.0);
    ft.SetK(8);
    EXPECT_EQ(ft.Hosts(), 128u);
    // The HPCC paper's fabric: 320 hosts, 16 x 100G under a ToR, 4 x 400G up.
    FatTreeHelper hpcc;
    hpcc.pods = 5;
    hpcc.torsPerPod = 4;
    hpcc.aggsPerPod = 4;
    hpcc.hostsPerTor = 16;
    hpcc.cores = 16;
    hpcc.torAggRate = DataRate("400Gb/s");
    EXPECT_EQ(hpcc.Hosts(), 320u);
    EXPECT_DOUBLE_EQ(hpcc.TorOversubscription(), 1.0);
    hpcc.cores = 18;
    EXPECT_FALSE(hpcc.IsValid());
}
