/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaSimulatorImpl's TieOrder: the events due at one instant run in the order they were
 * scheduled (Fifo, as ns-3's simulators), or by the node they are for (their context) and
 * then in the order they were scheduled for it (ByNode), which does not depend on what
 * other nodes scheduled meanwhile: so that a run split over MPI ranks runs the serial
 * run's order.
 */
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The labels of the events due at kInstant, in the order they ran, under \p order.
std::vector<std::string>
RunInstant(const std::string& order)
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
    NodeContainer nodes;
    nodes.Create(3);
    Simulator::GetImplementation()->SetAttribute("TieOrder", StringValue(order));
    Simulator::Run(); // (empty: the order takes effect now that the nodes exist)
    const Time instant = NanoSeconds(50);
    std::vector<std::string> ran;
    const auto at = [&](const std::string& label) {
        Simulator::Schedule(instant - Simulator::Now(), [&ran, label]() { ran.push_back(label); });
    };
    at("global"); // scheduled outside any node's event
    // Each node's event, at its own time before the instant, schedules two events due at
    // it: node 2 first, node 0 last. Node 2's also schedules one for node 0 ("0x").
    for (const uint32_t node : {2U, 1U, 0U})
    {
        Simulator::ScheduleWithContext(node, NanoSeconds(30 - 10 * node), [node, &at, &ran]() {
            at(std::to_string(node) + "a");
            at(std::to_string(node) + "b");
            if (node == 2)
            {
                Simulator::ScheduleWithContext(0, NanoSeconds(40), [&ran]() {
                    ran.push_back("0x");
                });
            }
        });
    }
    Simulator::Run();
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    return ran;
}

} // namespace

TEST(TieOrder, FifoRunsAnInstantsEventsInTheOrderTheyWereScheduled)
{
    // Node 2's event runs at 10 ns, node 1's at 20 ns, node 0's at 30 ns.
    const std::vector<std::string> want = {"global", "2a", "2b", "0x", "1a", "1b", "0a", "0b"};
    EXPECT_EQ(RunInstant("Fifo"), want);
}

TEST(TieOrder, ByNodeRunsThemByTheNodeTheyAreForThenInTheirOrderForIt)
{
    // Node 0's: the one node 2 scheduled for it first (at 10 ns), then its own (30 ns).
    const std::vector<std::string> want = {"0x", "0a", "0b", "1a", "1b", "2a", "2b", "global"};
    EXPECT_EQ(RunInstant("ByNode"), want);
}
