/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaHelper: pcap files through ns-3's PcapHelperForDevice (the file named as ns-3's
 * helpers name it, Ethernet link type, nanosecond time stamps, the port's frames as
 * rocewire::Render writes them, the cap) and ASCII traces (one line per frame).
 */
#include "two-port-link.h"

#include "ns3/pcap-file.h"
#include "ns3/rdma-frame.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-net-device.h"
#include "ns3/roce-wire-image.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
namespace fs = std::filesystem;

namespace
{
/// Two ports on one link; A sends \p frames data frames of 512 bytes and one PFC frame.
struct Link : rdmatest::TwoPortLink
{
    void Send(uint32_t frames)
    {
        for (uint32_t i = 0; i < frames; ++i)
        {
            a->Enqueue(RdmaFrame::Make(Data(i)), 3);
        }
        a->SendPfc(3, 0xffff);
        Simulator::Run();
    }
};

struct Record
{
    uint64_t ns;
    std::vector<uint8_t> bytes;
};

std::vector<Record>
ReadPcap(const std::string& path)
{
    PcapFile f;
    f.Open(path, std::ios::in);
    EXPECT_FALSE(f.Fail()) << path;
    EXPECT_EQ(f.GetDataLinkType(), 1u) << "Ethernet";
    EXPECT_TRUE(f.IsNanoSecMode());
    std::vector<Record> out;
    std::vector<uint8_t> buf(65536);
    while (true)
    {
        uint32_t sec = 0;
        uint32_t frac = 0;
        uint32_t incl = 0;
        uint32_t orig = 0;
        uint32_t read = 0;
        f.Read(buf.data(), buf.size(), sec, frac, incl, orig, read);
        if (f.Eof() || f.Fail())
        {
            break;
        }
        out.push_back({uint64_t(sec) * 1000000000 + frac, {buf.begin(), buf.begin() + incl}});
    }
    return out;
}

class RdmaHelperTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path() / ("rdma-helper-" + std::to_string(::getpid()));
        fs::create_directories(m_dir);
    }

    void TearDown() override
    {
        Simulator::Destroy();
        fs::remove_all(m_dir);
    }

    std::string Prefix() const
    {
        return (m_dir / "cap").string();
    }

    fs::path m_dir;
};
} // namespace

TEST_F(RdmaHelperTest, PcapHoldsThePortsFramesAsRoceBytes)
{
    Link link;
    RdmaHelper helper;
    helper.EnablePcap(Prefix(), link.b); // the receiving port
    link.Send(3);
    helper.ClosePcapFiles();
    const std::string file = Prefix() + "-" + std::to_string(link.b->GetNode()->GetId()) + "-" +
                             std::to_string(link.b->GetIfIndex()) + ".pcap";
    const std::vector<Record> records = ReadPcap(file);
    ASSERT_EQ(records.size(), 4u) << "three data frames and a PFC frame";
    // The PFC frame overtakes the queued data frames (it goes right after the first).
    std::vector<Record> data;
    std::vector<Record> pfc;
    for (const Record& r : records)
    {
        (r.bytes.at(12) == 0x88 ? pfc : data).push_back(r);
    }
    ASSERT_EQ(data.size(), 3u);
    ASSERT_EQ(pfc.size(), 1u);
    EXPECT_EQ(pfc[0].bytes.size(), 60u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        std::vector<uint8_t> want;
        const RdmaHeader h = link.Data(i);
        rocewire::Render(h,
                         RdmaFrame(h).GetSize(),
                         Mac48Address::ConvertFrom(link.a->GetAddress()),
                         Mac48Address::ConvertFrom(link.b->GetAddress()),
                         want);
        EXPECT_EQ(data[i].bytes, want) << "data frame " << i;
    }
    // Received frames are stamped when they have arrived: increasing, the first after
    // the link's delay.
    EXPECT_GT(records[0].ns, 0u);
    for (std::size_t i = 1; i < records.size(); ++i)
    {
        EXPECT_LT(records[i - 1].ns, records[i].ns);
    }
}

TEST_F(RdmaHelperTest, MaxPacketsCapsTheFile)
{
    Link link;
    RdmaHelper helper;
    helper.SetPcapMaxPackets(2);
    helper.EnablePcapAll(Prefix());
    link.Send(5);
    helper.ClosePcapFiles();
    for (const Ptr<RdmaNetDevice>& dev : {link.a, link.b})
    {
        const std::string file = Prefix() + "-" + std::to_string(dev->GetNode()->GetId()) + "-" +
                                 std::to_string(dev->GetIfIndex()) + ".pcap";
        EXPECT_EQ(ReadPcap(file).size(), 2u) << file;
    }
}

TEST_F(RdmaHelperTest, AsciiTraceHasOneLinePerFrame)
{
    std::string fileA;
    std::string fileB;
    uint32_t nodeA = 0;
    {
        Link link;
        nodeA = link.a->GetNode()->GetId();
        fileA = Prefix() + "-" + std::to_string(nodeA) + "-0.tr";
        fileB = Prefix() + "-" + std::to_string(link.b->GetNode()->GetId()) + "-0.tr";
        RdmaHelper helper;
        helper.EnableAscii(Prefix(), link.a);
        helper.EnableAscii(Prefix(), link.b);
        link.Send(3);
        Simulator::Destroy();
    } // the devices, their trace sinks and so the files are closed here
    auto lines = [](const std::string& file, char what) {
        std::ifstream in(file);
        std::vector<std::string> out;
        for (std::string line; std::getline(in, line);)
        {
            if (!line.empty() && line[0] == what)
            {
                out.push_back(line);
            }
        }
        return out;
    };
    const std::vector<std::string> sent = lines(fileA, 't');
    ASSERT_EQ(sent.size(), 4u) << "three data frames and the PFC frame sent";
    EXPECT_NE(sent[0].find("/NodeList/" + std::to_string(nodeA) + "/DeviceList/0 DATA prio=3"),
              std::string::npos)
        << sent[0];
    EXPECT_EQ(
        std::count_if(sent.begin(),
                      sent.end(),
                      [](const std::string& l) { return l.find(" PFC ") != std::string::npos; }),
        1);
    EXPECT_EQ(lines(fileB, 'r').size(), 3u) << "received data frames (not PFC)";
    EXPECT_TRUE(lines(fileA, 'r').empty());
}
