/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of RouteTable, a switch's routes by destination (route-table.h).
 *
 * Specification:
 *  - Get(dst) gives exactly the ports last set for dst, in their order (empty: none, and
 *    for a destination never set);
 *  - Route(dst) is the forwarding lookup: the port itself when dst has exactly one, else
 *    kNotSingle and the same ports as Get (empty: no route);
 *  - setting a destination again replaces its ports (a link that fails or comes back);
 *  - equal port sets are held once.
 */

#include "ns3/route-table.h"

#include <gtest/gtest.h>
#include <map>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// What a switch forwards to \p dst: the one port, or the candidates (empty: none).
std::vector<uint32_t>
Forward(const RouteTable& t, uint32_t dst)
{
    const std::vector<uint32_t>* ports = nullptr;
    const uint32_t port = t.Route(dst, &ports);
    if (port != RouteTable::kNotSingle)
    {
        return {port};
    }
    EXPECT_NE(ports, nullptr);
    EXPECT_NE(ports->size(), 1u) << "a single port must come back as the port itself";
    return *ports;
}

} // namespace

TEST(RouteTable, SinglePortComesBackAsThePortAndSeveralAsTheSet)
{
    RouteTable t;
    t.Set(3, {7});
    t.Set(4, {1, 2, 5});
    t.Set(5, {});
    const std::vector<uint32_t>* ports = nullptr;
    EXPECT_EQ(t.Route(3, &ports), 7u);
    EXPECT_EQ(t.Route(4, &ports), RouteTable::kNotSingle);
    ASSERT_NE(ports, nullptr);
    EXPECT_EQ(*ports, (std::vector<uint32_t>{1, 2, 5}));
    EXPECT_EQ(t.Route(5, &ports), RouteTable::kNotSingle);
    EXPECT_TRUE(ports->empty());
    // Never set, inside and beyond the table: no route.
    EXPECT_TRUE(Forward(t, 0).empty());
    EXPECT_TRUE(Forward(t, 1000).empty());
    EXPECT_TRUE(t.Get(1000).empty());
    EXPECT_EQ(t.Get(3), (std::vector<uint32_t>{7}));
}

TEST(RouteTable, ReplacedRoutesAgreeWithTheLastSetThroughGetAndRoute)
{
    // Random routes over 200 destinations, set again and again (single ports, sets, none),
    // checked against a plain map after every round.
    std::mt19937 rng(12);
    RouteTable t;
    std::map<uint32_t, std::vector<uint32_t>> expected;
    for (int round = 0; round < 50; ++round)
    {
        for (int k = 0; k < 40; ++k)
        {
            const uint32_t dst = rng() % 200;
            std::vector<uint32_t> ports;
            const uint32_t n = rng() % 4; // 0: none, 1: one port, 2-3: equal-cost set
            for (uint32_t i = 0; i < n; ++i)
            {
                ports.push_back(rng() % 48);
            }
            t.Set(dst, ports);
            expected[dst] = ports;
        }
        for (uint32_t dst = 0; dst < 210; ++dst)
        {
            const auto it = expected.find(dst);
            const std::vector<uint32_t> want =
                it == expected.end() ? std::vector<uint32_t>{} : it->second;
            ASSERT_EQ(t.Get(dst), want) << "round " << round << " dst " << dst;
            ASSERT_EQ(Forward(t, dst), want) << "round " << round << " dst " << dst;
        }
    }
}

TEST(RouteTable, EqualSetsAreHeldOnce)
{
    RouteTable t;
    for (uint32_t dst = 0; dst < 1000; ++dst)
    {
        t.Set(dst, dst % 2 == 0 ? std::vector<uint32_t>{1, 2} : std::vector<uint32_t>{dst % 3});
    }
    // The empty set, {1, 2}, {0}, {1}, {2}.
    EXPECT_EQ(t.GetNSets(), 5u);
}
