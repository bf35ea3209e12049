/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The unit of the ECN threshold keys (switch.ecn.unit): KiB (1,024 bytes, the module's
 * default) or kB (1,000 bytes, the HPCC and ConWeave simulators' KMIN_MAP/KMAX_MAP unit).
 * A threshold copied from a peer config with unit kB must mark at the queue the peer
 * marks at: Kmin 100 = no mark up to 100,000 bytes, some above; Kmax 400 = every packet
 * above 400,000 bytes. Checked on the switches a scenario builds (100 Gb/s ports, so
 * scale_with_rate leaves the thresholds as given).
 */
#include "scenario-test-util.h"

#include "ns3/fabric-stage.h"
#include "ns3/rdma-topology.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/topology-stage.h"

#include <gtest/gtest.h>

using rdmatest::TempDir;
using rdmatest::WriteText;

namespace
{

/// A 4-host star at 100 Gb/s with ECN Kmin 100, Kmax 400 in \p unit ("" = key absent).
nlohmann::json
Scenario(const std::string& unit)
{
    nlohmann::json ecn = {{"kmin_kb", 100}, {"kmax_kb", 400}, {"pmax", 0.2}};
    if (!unit.empty())
    {
        ecn["unit"] = unit;
    }
    return {{"topology", {{"type", "star"}, {"hosts", 4}}},
            {"switch", {{"ecn", ecn}}},
            {"traffic", {{"incast", {{"enabled", true}}}}}};
}

/// The marking probability of the built switch's port 0 at each queue length.
std::vector<double>
MarkProbabilities(const std::string& unit, const std::vector<uint64_t>& queues)
{
    TempDir dir;
    const std::string file = dir / "s.json";
    WriteText(file, Scenario(unit).dump());
    const nlohmann::json s = ns3::ScenarioRunner::Load(file, {});
    std::vector<double> p;
    {
        ns3::RdmaTopology topo;
        ns3::FabricStage fabric;
        fabric.Configure(s, topo);
        ns3::TopologyStage::For(s).Build(s, topo);
        topo.Finalize();
        ns3::Ptr<ns3::SwitchMmu> mmu = topo.GetSwitch(topo.GetSwitches().at(0))->GetMmu();
        for (uint64_t q : queues)
        {
            p.push_back(mmu->MarkProbability(0, q));
        }
    }
    ns3::Simulator::Destroy();
    return p;
}

} // namespace

TEST(EcnUnit, ThousandByteUnitMarksWhereThePeerSimulatorsDo)
{
    const auto p = MarkProbabilities("kB", {100000, 100001, 400000, 400001});
    EXPECT_EQ(p[0], 0.0) << "no mark up to Kmin = 100 x 1000 bytes";
    EXPECT_GT(p[1], 0.0) << "marks just above 100,000 bytes";
    EXPECT_NEAR(p[2], 0.2, 1e-12) << "Pmax at Kmax = 400,000 bytes";
    EXPECT_EQ(p[3], 1.0) << "every packet above Kmax";
}

TEST(EcnUnit, KibibyteIsTheDefaultUnit)
{
    // 100 KiB = 102,400 bytes: a queue of 100,001 to 102,400 bytes is not marked.
    for (const std::string unit : {"", "KiB"})
    {
        const auto p = MarkProbabilities(unit, {102400, 102401, 409600, 409601});
        EXPECT_EQ(p[0], 0.0) << "unit '" << unit << "'";
        EXPECT_GT(p[1], 0.0) << "unit '" << unit << "'";
        EXPECT_NEAR(p[2], 0.2, 1e-12) << "unit '" << unit << "'";
        EXPECT_EQ(p[3], 1.0) << "unit '" << unit << "'";
    }
}

TEST(EcnUnit, ThresholdBytesAreTheValueTimesTheUnit)
{
    nlohmann::json s = {{"switch", {{"ecn", {{"unit", "kB"}, {"kmin_kb", 2.5}}}}}};
    EXPECT_EQ(ns3::FabricStage::EcnThresholdBytes(s, "switch.ecn.kmin_kb"), 2500u);
    s["switch"]["ecn"]["unit"] = "KiB";
    EXPECT_EQ(ns3::FabricStage::EcnThresholdBytes(s, "switch.ecn.kmin_kb"), 2560u);
}

TEST(EcnUnit, AnUnknownUnitIsRefusedNamingKeyAndValue)
{
    TempDir dir;
    const std::string file = dir / "bad.json";
    WriteText(file, Scenario("KB").dump());
    try
    {
        ns3::ScenarioRunner::Load(file, {});
        FAIL() << "unit 'KB' accepted";
    }
    catch (const ns3::ScenarioError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("bad.json"), std::string::npos) << what;
        EXPECT_NE(what.find("switch.ecn.unit"), std::string::npos) << what;
        EXPECT_NE(what.find("KB"), std::string::npos) << what;
    }
}
