/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of FlowletLoadBalancer: a flow keeps its port while its packets come at
 * most Gap apart; after a longer idle gap a new flowlet starts on a random equal-cost
 * port. The packets are fed at set times by the simulator's clock alone (no network).
 */
#include "ns3/flowlet-load-balancer.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

const std::vector<uint32_t> kPorts = {1, 2, 3, 4, 5, 6, 7, 8};

RdmaHeader
FlowPacket()
{
    RdmaHeader h;
    h.type = RdmaPacketType::DATA;
    h.src = 3;
    h.dst = 9;
    h.sport = 50000;
    h.dstQpn = 1;
    return h;
}

/// The port chosen for each packet of one flow sent at \p times.
std::vector<uint32_t>
PortsAt(const std::vector<Time>& times)
{
    Ptr<FlowletLoadBalancer> lb = CreateObject<FlowletLoadBalancer>(); // Gap 10 us
    lb->AssignStreams(11);
    std::vector<uint32_t> ports;
    for (const Time& t : times)
    {
        Simulator::Schedule(t, [&ports, lb]() {
            ports.push_back(lb->SelectPort(FlowPacket(), kPorts));
        });
    }
    Simulator::Run();
    Simulator::Destroy();
    return ports;
}

TEST(FlowletLoadBalancer, APacedFlowThatNeverIdlesNeverMoves)
{
    // 1,000 packets 10 us apart (exactly the gap: not longer, so one flowlet).
    std::vector<Time> times;
    for (int i = 0; i < 1000; ++i)
    {
        times.push_back(MicroSeconds(10 * i));
    }
    const std::vector<uint32_t> ports = PortsAt(times);
    ASSERT_EQ(ports.size(), times.size());
    EXPECT_EQ(std::set<uint32_t>(ports.begin(), ports.end()).size(), 1u);
}

TEST(FlowletLoadBalancer, ANewFlowletStartsAfterAnIdleGap)
{
    // 40 bursts of 5 packets 1 us apart, bursts 20 us apart (> the 10 us gap): each burst
    // stays on one port, and the bursts spread over the 8 ports (all 40 on one port has
    // probability 8^-39).
    std::vector<Time> times;
    for (int burst = 0; burst < 40; ++burst)
    {
        for (int i = 0; i < 5; ++i)
        {
            times.push_back(MicroSeconds(25 * burst + i));
        }
    }
    const std::vector<uint32_t> ports = PortsAt(times);
    ASSERT_EQ(ports.size(), times.size());
    std::set<uint32_t> used;
    for (size_t b = 0; b < 40; ++b)
    {
        const std::set<uint32_t> inBurst(ports.begin() + 5 * b, ports.begin() + 5 * b + 5);
        EXPECT_EQ(inBurst.size(), 1u) << "burst " << b;
        used.insert(ports[5 * b]);
    }
    EXPECT_GT(used.size(), 1u);
    for (uint32_t p : used)
    {
        EXPECT_NE(std::find(kPorts.begin(), kPorts.end(), p), kPorts.end());
    }
}

} // namespace
