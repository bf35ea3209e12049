/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * htsim's connection matrices (HtsimCmReader): the forms of uet-htsim's validation
 * suites read as htsim reads them, and every other form refused with file:line.
 */
#include "temp-file.h"

#include "ns3/htsim-cm-reader.h"
#include "ns3/scenario-error.h"

#include <gtest/gtest.h>

using namespace ns3;
using rdmatest::TempFile;

namespace
{

/// The error HtsimCmReader gives for \p text (read with \p hosts), or "" if none.
std::string
ErrorOf(const std::string& text, uint32_t hosts = 16)
{
    TempFile f(text);
    try
    {
        HtsimCmReader::Read(f.Path(), hosts);
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(HtsimCmReader, ReadsTheSuitesIncastForm)
{
    // The head of incast.cm and the 3-to-1 overlapped form (ids, a later start).
    TempFile g("Nodes 128\nConnections 3\n0->15 start 0 size 2000000\n"
               "127->0 id 1 start 0 size 2000000\n"
               "\n# a comment\n95->0 id 2 start 40 size 250000\n");
    const std::vector<FlowSpec> flows = HtsimCmReader::Read(g.Path(), 128);
    ASSERT_EQ(flows.size(), 3u);
    EXPECT_EQ(flows[0].src, 0u);
    EXPECT_EQ(flows[0].dst, 15u);
    EXPECT_EQ(flows[0].bytes, 2000000u);
    EXPECT_EQ(flows[0].start, Time(0));
    EXPECT_EQ(flows[1].src, 127u);
    EXPECT_EQ(flows[2].src, 95u);
    EXPECT_EQ(flows[2].bytes, 250000u);
    EXPECT_EQ(flows[2].start, MicroSeconds(40));
    for (const FlowSpec& s : flows)
    {
        EXPECT_EQ(s.kind, FlowKind::FLOW);
    }
}

TEST(HtsimCmReader, KeepsWholeMicrosecondsOfAStartAsHtsimDoes)
{
    // main_uec starts a connection at timeFromUs((uint32_t)start).
    TempFile f("Nodes 2\nConnections 2\nTriggers 0\n0->1 start 2.9 size 100\n"
               "1->0 start 0.5 size 100\n");
    const std::vector<FlowSpec> flows = HtsimCmReader::Read(f.Path(), 2);
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_EQ(flows[0].start, MicroSeconds(2));
    EXPECT_EQ(flows[1].start, Time(0));
}

TEST(HtsimCmReader, RefusesWhatItDoesNotRunWithTheLine)
{
    const std::string head = "Nodes 2\nConnections 1\n";
    for (const char* token : {"msg", "prio 3", "trigger 1", "send_done_trigger 1"})
    {
        const std::string e = ErrorOf(head + "0->1 id 1 " + token + " start 0 size 10\n");
        EXPECT_NE(e.find(":3"), std::string::npos) << token << ": " << e;
        EXPECT_NE(e.find(std::string(token).substr(0, std::string(token).find(' '))),
                  std::string::npos)
            << e;
    }
    EXPECT_NE(ErrorOf(head + "0->1 start 0 size 10\ntrigger id 1 oneshot\n").find(":4"),
              std::string::npos);
    EXPECT_NE(
        ErrorOf("Nodes 2\nConnections 1\nTriggers 1\n0->1 start 0 size 10\n").find("Triggers"),
        std::string::npos);
}

TEST(HtsimCmReader, RefusesMalformedMatricesNamingTheTokenAndValue)
{
    struct Case
    {
        std::string text;
        std::string where; // file:line suffix, or "" for the whole file
        std::string names; // a word the message must hold
    };

    const std::string head = "Nodes 4\nConnections 1\n";
    for (const Case& c : std::vector<Case>{
             {head + "0->4 start 0 size 10\n", ":3", "4"},         // no such host
             {head + "1->1 start 0 size 10\n", ":3", "same host"}, // to itself
             {head + "0->1 start -1 size 10\n", ":3", "-1"},       // negative start
             {head + "0->1 start 0 size 0\n", ":3", "size"},       // empty
             {head + "0->1 start 0\n", ":3", "size"},              // no size
             {head + "0->1 size 10\n", ":3", "start"},             // no start
             {head + "0->1 start 0 size 10 colour red\n", ":3", "colour"},
             {head + "0->1 start 0 size\n", ":3", "size"},
             {head + "0->1 id 0 start 0 size 10\n", ":3", "id"},
             {"Nodes 4\nConnections 2\n0->1 id 7 start 0 size 10\n1->0 id 7 start 0 size 10\n",
              ":4",
              "id"},
             {"Connections 1\n0->1 start 0 size 10\n", ":2", "Nodes"},
             {"Nodes 40\nConnections 0\n", ":1", "Nodes"}, // more than the topology's 16
             {"Nodes 4\nNodes 4\nConnections 0\n", ":2", "Nodes"},
             {head + "0->1 start 0 size 10\n1->0 start 0 size 10\n", "", "announces"},
             {"Nodes 4\n", "", "Connections"},
             {head + "Bogus line\n", ":3", "Bogus"},
         })
    {
        TempFile f(c.text);
        std::string e;
        try
        {
            HtsimCmReader::Read(f.Path(), 16);
        }
        catch (const ScenarioError& x)
        {
            e = x.what();
        }
        ASSERT_FALSE(e.empty()) << c.text;
        EXPECT_NE(e.find(f.Path() + c.where), std::string::npos) << e;
        EXPECT_NE(e.find(c.names), std::string::npos) << e;
    }
}
