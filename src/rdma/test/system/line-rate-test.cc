/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One long flow must reach the payload line rate, rate x payload / (payload + overhead),
 * within 0.5%, and never exceed it: the check that serialization times do not drift
 * (ns-3's 1 ns resolution would make 100G 1% fast and 400G 4.6% fast if truncated).
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

struct Sample
{
    Time t;
    uint64_t delivered;
};

void
SampleDelivered(Ptr<RdmaNic> nic, std::vector<Sample>* out, Time period)
{
    out->push_back({Simulator::Now(), nic->GetStats().payloadBytesDelivered});
    Simulator::Schedule(period, &SampleDelivered, nic, out, period);
}

void
CheckLineRate(double gbps, uint32_t mtu)
{
    RdmaTopology topo;
    ObjectFactory none;
    none.SetTypeId(NoCongestionControl::GetTypeId());
    topo.SetCongestionControl(none);
    topo.SetNicAttribute("Mtu", UintegerValue(mtu));
    StarHelper star;
    star.hosts = 2;
    star.hostRate = DataRate(static_cast<uint64_t>(gbps * 1e9));
    star.Build(topo);
    topo.Finalize();

    TrafficDriver driver(topo);
    FlowSpec f;
    f.src = 0;
    f.dst = 1;
    f.bytes = 16 * 1000 * 1000 * static_cast<uint64_t>(gbps / 100); // ~1.4 ms at line rate
    driver.AddFlow(f);
    Time fct;
    driver.SetRecordCallback(Callback<void, const TrafficDriver::Record&>(
        [&fct](const TrafficDriver::Record& r) { fct = r.end - r.start; }));
    driver.SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    driver.Start();

    const Time period = MicroSeconds(50);
    std::vector<Sample> samples;
    Ptr<RdmaNic> rx = topo.GetNic(topo.GetHosts()[1]);
    Simulator::Schedule(period, &SampleDelivered, rx, &samples, period);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    const Time ideal = topo.GetIdealFct(topo.GetHosts()[0], topo.GetHosts()[1], f.bytes);
    Simulator::Destroy();

    ASSERT_TRUE(driver.IsDone());
    ASSERT_GT(samples.size(), 10u);
    // Expected payload rate on the wire: each packet carries mtu payload bytes and
    // occupies mtu + 82 bytes of link time (62 header/trailer + 20 preamble/IFG).
    const double payloadRate = gbps * 1e9 * mtu / double(mtu + 82);
    const double packetBits = 8.0 * mtu;
    uint64_t firstDelivered = 0;
    uint64_t lastDelivered = 0;
    Time firstT;
    Time lastT;
    // Steady state: skip the first window (slow start of the pipe) and the last one.
    for (size_t i = 2; i + 1 < samples.size(); ++i)
    {
        const double dt = (samples[i].t - samples[i - 1].t).GetSeconds();
        const double bits = 8.0 * (samples[i].delivered - samples[i - 1].delivered);
        // Never faster than the link: at most one packet of quantization per window.
        EXPECT_LE(bits, payloadRate * dt + packetBits) << "window " << i << " at " << gbps << "G";
        if (firstT.IsZero())
        {
            firstT = samples[i - 1].t;
            firstDelivered = samples[i - 1].delivered;
        }
        lastT = samples[i].t;
        lastDelivered = samples[i].delivered;
    }
    const double measured = 8.0 * (lastDelivered - firstDelivered) / (lastT - firstT).GetSeconds();
    EXPECT_NEAR(measured / payloadRate, 1.0, 0.005) << gbps << "G measured " << measured / 1e9;
    EXPECT_LE(measured, payloadRate * 1.0001);
    // A lone flow completes in its ideal time (same derivation, within 0.5%).
    EXPECT_NEAR(fct.GetSeconds() / ideal.GetSeconds(), 1.0, 0.005);
}

} // namespace

TEST(LineRate, OneFlowAt100G)
{
    CheckLineRate(100, 1024);
}

TEST(LineRate, OneFlowAt400G)
{
    CheckLineRate(400, 1024);
}

TEST(LineRate, OneFlowAt400GJumbo)
{
    CheckLineRate(400, 4096);
}
