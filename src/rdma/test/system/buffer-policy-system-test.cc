/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The shared-buffer policies of the lossy classes in whole runs (switch.buffer.policy):
 *  - static: no egress queue ever holds more than its share (given, or the default
 *    B / (ports x 8)), its drops are static_queue_limit, and every byte sent is
 *    received, dropped or still in the fabric; dynamic thresholds on the same run let
 *    the queue grow past that share (so the bound is the policy's doing);
 *  - abm: long-lived traffic of one class congests three ports when a burst of another
 *    class arrives at a fourth. Under dynamic thresholds each congested queue takes
 *    alpha x free buffer, together n x alpha / (1 + n x alpha) of it; under ABM each
 *    takes alpha / n x free, together alpha / (1 + alpha) whatever n. So ABM leaves the
 *    burst more buffer: its queue grows higher and it loses fewer bytes;
 *  - the keys' defaults are the policies' attribute defaults.
 */
#include "conservation-util.h"
#include "scenario-test-util.h"

#include "ns3/abm-buffer-policy.h"
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"
#include "ns3/scenario-schema.h"
#include "ns3/static-buffer-policy.h"

#include <gtest/gtest.h>

using nlohmann::json;
using namespace rdmatest;

namespace
{

constexpr uint32_t kBurstPort = 0; ///< the star links host i to switch port i
constexpr uint8_t kLongClass = 3;
constexpr uint8_t kBurstClass = 4;

/// A lossy incast (3 senders x 2 QPs x 200 KB to host 0) on a 4-host star.
json
LossyIncast(const std::string& policy)
{
    return json{
        {"topology", {{"type", "star"}, {"hosts", 4}, {"host_rate_gbps", 100}}},
        {"cc", {{"algorithm", "none"}}},
        {"switch",
         {{"pfc", {{"enabled", false}}}, {"buffer_mb", 1}, {"buffer", {{"policy", policy}}}}},
        {"nic", {{"go_back_n", {{"RetransmissionTimeout", "100us"}}}}},
        {"traffic",
         {{"incast",
           {{"enabled", true},
            {"receiver", 0},
            {"qps_per_sender", 2},
            {"message_bytes", 200000}}}}},
        {"output", {{"progress", false}}},
    };
}

/// What one burst run measured at the switch.
struct BurstRun
{
    uint64_t burstDroppedBytes = 0; ///< dropped at the burst's egress port
    uint64_t burstPeakQueue = 0;    ///< largest queue of the burst's class there
    uint64_t longQueuesBefore = 0;  ///< the long-lived class's queues just before the burst
    uint64_t drops = 0;             ///< every drop of the switch
    uint64_t policyDrops = 0;       ///< of them, the policy's own reason
};

/// 12-host star, 1 MiB lossy buffer, alpha 0.5 for either policy: hosts 4-7 each send
/// to hosts 1-3 without end (class 3; three queues at 4/3 of line rate); at 100 us
/// hosts 8-11 send 100 KB each to host 0 (class 4; 400 KB at 4x line rate).
BurstRun
RunBurst(const std::string& policy)
{
    using namespace ns3;
    RdmaTopology topo;
    topo.SetMmuAttribute("PfcEnabled", BooleanValue(false));
    topo.SetMmuAttribute("EcnEnabled", BooleanValue(false));
    topo.SetMmuAttribute("BufferSize", UintegerValue(1 << 20));
    topo.SetMmuAttribute("EgressAlpha", DoubleValue(0.5));
    ObjectFactory f;
    TypeId tid;
    EXPECT_TRUE(BufferPolicy::Find(policy, tid));
    f.SetTypeId(tid);
    topo.SetBufferPolicy(f);
    StarHelper star;
    star.hosts = 12;
    star.Build(topo);
    topo.Finalize();
    Ptr<RdmaSwitch> sw = topo.GetSwitch(topo.GetSwitches()[0]);
    Ptr<SwitchMmu> mmu = sw->GetMmu();
    EXPECT_EQ(mmu->GetBufferPolicy()->GetName(), policy);
    BurstRun r;
    sw->TraceConnectWithoutContext(
        "Drop",
        MakeBoundCallback(
            +[](BurstRun* r, Ptr<const Packet> p, uint32_t, uint32_t out, const char*) {
                if (out == kBurstPort)
                {
                    r->burstDroppedBytes += p->GetSize();
                }
            },
            &r));
    TrafficDriver driver(topo);
    for (uint32_t src = 4; src < 8; ++src)
    {
        for (uint32_t dst = 1; dst < 4; ++dst)
        {
            FlowSpec fl;
            fl.src = src;
            fl.dst = dst;
            fl.bytes = RdmaMessage::kUnbounded;
            fl.stop = MicroSeconds(300);
            fl.priority = kLongClass;
            driver.AddFlow(fl);
        }
    }
    for (uint32_t src = 8; src < 12; ++src)
    {
        FlowSpec fl;
        fl.src = src;
        fl.dst = 0;
        fl.bytes = 100000;
        fl.start = MicroSeconds(100);
        fl.priority = kBurstClass;
        driver.AddFlow(fl);
    }
    // Sample the queues every 0.5 us.
    for (int i = 0; i < 800; ++i)
    {
        Simulator::Schedule(NanoSeconds(500 * i), [&r, mmu, i]() {
            r.burstPeakQueue =
                std::max(r.burstPeakQueue, mmu->GetEgressBytes(kBurstPort, kBurstClass));
            if (i == 199) // 99.5 us
            {
                for (uint32_t p = 1; p < 4; ++p)
                {
                    r.longQueuesBefore += mmu->GetEgressBytes(p, kLongClass);
                }
            }
        });
    }
    driver.Start();
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        const RdmaSwitch::PortStats& ps = sw->GetPortStats(p);
        r.drops += ps.drops;
        r.policyDrops +=
            ps.dropsByReason[static_cast<std::size_t>(mmu->GetBufferPolicy()->GetDropReason())];
    }
    Simulator::Destroy();
    return r;
}

} // namespace

TEST(BufferPolicySystem, StaticNeverLetsAQueuePassItsShareAndConservesBytes)
{
    TempDir dir;
    json sc = LossyIncast("static");
    sc["switch"]["buffer"]["static_kb"] = 50;
    const json s = RunScenario(dir, "static", sc);
    const uint64_t share = 50 * 1024;
    EXPECT_LE(s["max_queue_bytes"].get<uint64_t>(), share);
    EXPECT_GT(s["drops_by_reason"]["static_queue_limit"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["drops_by_reason"]["lossy_egress_threshold"], 0u);
    EXPECT_EQ(s["drops_by_reason"]["static_queue_limit"].get<uint64_t>() +
                  s["drops_by_reason"]["shared_buffer_full"].get<uint64_t>(),
              s["drops"].get<uint64_t>());
    ExpectConserved(s);
    EXPECT_TRUE(s["all_flows_completed"].get<bool>());
    EXPECT_EQ(s["bytes_delivered"], s["bytes_sent"]);
    std::cout << "static 50 KiB: max queue " << s["max_queue_bytes"] << " B, drops " << s["drops"]
              << "\n";

    // The default share: 1 MiB / (4 ports x 8 classes) = 32,768 bytes, and the incast
    // fills it up to less than one frame.
    const json d = RunScenario(dir, "static-default", LossyIncast("static"));
    const uint64_t defaultShare = (1u << 20) / 32;
    EXPECT_LE(d["max_queue_bytes"].get<uint64_t>(), defaultShare);
    EXPECT_GT(d["max_queue_bytes"].get<uint64_t>(), defaultShare - 1100);
    ExpectConserved(d);
    std::cout << "static default: max queue " << d["max_queue_bytes"] << " B\n";

    // Dynamic thresholds on the same run let the queue pass 50 KiB.
    const json dt = RunScenario(dir, "dt", LossyIncast("dynamic_threshold"));
    EXPECT_GT(dt["max_queue_bytes"].get<uint64_t>(), share);
    EXPECT_EQ(dt["drops_by_reason"]["static_queue_limit"], 0u);
    std::cout << "dynamic_threshold: max queue " << dt["max_queue_bytes"] << " B\n";
}

TEST(BufferPolicySystem, AbmLeavesABurstMoreBufferThanDynamicThresholds)
{
    const BurstRun dt = RunBurst("dynamic_threshold");
    const BurstRun abm = RunBurst("abm");
    std::cout << "long-lived queues before the burst: dt " << dt.longQueuesBefore << " B, abm "
              << abm.longQueuesBefore << " B; burst peak queue: dt " << dt.burstPeakQueue
              << " B, abm " << abm.burstPeakQueue << " B; burst bytes dropped: dt "
              << dt.burstDroppedBytes << ", abm " << abm.burstDroppedBytes << "\n";
    // Both runs congest the fabric and drop with their own reason only (no shared-pool
    // overflow: each rule keeps free buffer).
    ASSERT_GT(dt.drops, 0u);
    ASSERT_GT(abm.drops, 0u);
    EXPECT_EQ(dt.policyDrops, dt.drops);
    EXPECT_EQ(abm.policyDrops, abm.drops);
    // Three congested queues of one class: DT lets them hold 3 x 0.5 / 2.5 = 60% of the
    // buffer, ABM 0.5 / 1.5 = 33% (to within a frame per queue and the drain between
    // samples: below 40% and above 50%).
    const double b = 1 << 20;
    EXPECT_GT(dt.longQueuesBefore, 0.5 * b);
    EXPECT_LT(abm.longQueuesBefore, 0.4 * b);
    // So the burst's queue grows higher under ABM, and the burst loses fewer bytes. Its
    // limit, with the class-3 queues held where they were: DT 0.5 x (0.4 B - q), q =
    // 0.13 B, up to B / 6 once they shrink to 4 equal queues; ABM (n = 1 in class 4)
    // 0.5 x (0.67 B - q), q = 0.22 B, up to B / 4: at least 1.3 times DT's.
    EXPECT_GT(abm.burstPeakQueue, 1.25 * dt.burstPeakQueue);
    EXPECT_LT(abm.burstDroppedBytes, dt.burstDroppedBytes);
}

TEST(BufferPolicySystem, KeyDefaultsAreTheAttributeDefaults)
{
    using namespace ns3;
    auto key = [](const std::string& path) { return ScenarioSchema::Find(path)->defaultValue; };
    auto attribute = [](TypeId tid, const std::string& name) {
        TypeId::AttributeInformation info;
        EXPECT_TRUE(tid.LookupAttributeByName(name, &info)) << name;
        return info.initialValue->SerializeToString(info.checker);
    };
    const TypeId abm = AbmBufferPolicy::GetTypeId();
    EXPECT_EQ(key("switch.buffer.policy"), "dynamic_threshold");
    EXPECT_EQ(std::stod(attribute(abm, "Alpha")), key("switch.buffer.abm.alpha").get<double>());
    EXPECT_EQ(Time(attribute(abm, "UpdateInterval")),
              MicroSeconds(key("switch.buffer.abm.update_interval_us").get<double>()));
    EXPECT_EQ(attribute(abm, "CongestedBytes"),
              std::to_string(key("switch.buffer.abm.congested_bytes").get<int>()));
    EXPECT_EQ(std::stod(attribute(abm, "MinDrainRate")),
              key("switch.buffer.abm.min_drain_rate").get<double>());
    EXPECT_EQ(attribute(StaticBufferPolicy::GetTypeId(), "QueueLimit"), "0");
    EXPECT_EQ(key("switch.buffer.static_kb").get<double>(), 0.0);
}
