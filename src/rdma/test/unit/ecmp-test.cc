/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of EcmpLoadBalancer (flow ECMP with a per-switch salt).
 *
 * Specification (docs/design.md, "Load balancing"; ecmp-load-balancer.h):
 *  - the egress port is a hash of the 5-tuple (src, dst, UDP sport = per-QP entropy,
 *    UDP dport, protocol), so every packet of a QP takes the same path;
 *  - distinct flows spread evenly over the equal-cost ports;
 *  - the hash is salted per switch: with one salt everywhere, a next-tier switch only sees
 *    flows that already hashed alike and uses a fraction of its ports (polarization).
 */

#include "ns3/core-module.h"
#include "ns3/ecmp-load-balancer.h"
#include "ns3/rdma-header.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

constexpr int kFlows = 10000;

/// Flow i: distinct 5-tuples varying source, destination and UDP source port.
RdmaHeader
Flow(int i)
{
    RdmaHeader h;
    h.type = RdmaPacketType::DATA;
    h.src = i % 97;
    h.dst = 200 + (i * 7) % 89;
    h.sport = static_cast<uint16_t>(49152 + i); // 49152..59151: distinct for every i
    h.dport = 4791;
    return h;
}

Ptr<EcmpLoadBalancer>
MakeLb(uint32_t salt)
{
    Ptr<EcmpLoadBalancer> lb = CreateObject<EcmpLoadBalancer>();
    lb->SetAttribute("Salt", UintegerValue(salt));
    return lb;
}

std::vector<uint32_t>
Ports(uint32_t first, uint32_t n)
{
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < n; ++i)
    {
        v.push_back(first + i);
    }
    return v;
}

} // namespace

// Rule: 10,000 distinct flows spread evenly over 8 ports. Expected 1250 per port;
// Binomial sigma = sqrt(10000 x 1/8 x 7/8) = 33.1, so +-10% (125) is 3.8 sigma per port.
// Chi-square with 7 degrees of freedom: the 0.1% critical value is 24.32.
TEST(Ecmp, SpreadsDistinctFlowsEvenlyOverEightPorts)
{
    Ptr<EcmpLoadBalancer> lb = MakeLb(12345);
    const std::vector<uint32_t> candidates = Ports(10, 8); // ports 10..17
    std::map<uint32_t, int> count;
    for (int i = 0; i < kFlows; ++i)
    {
        const uint32_t port = lb->SelectPort(Flow(i), candidates);
        ASSERT_GE(port, 10u);
        ASSERT_LE(port, 17u); // a candidate's value, not an index
        ++count[port];
    }
    ASSERT_EQ(count.size(), 8u);
    const double expected = kFlows / 8.0;
    double chi2 = 0;
    for (const auto& [port, n] : count)
    {
        EXPECT_NEAR(n, expected, 0.10 * expected) << "port " << port;
        chi2 += (n - expected) * (n - expected) / expected;
    }
    EXPECT_LT(chi2, 24.32);
}

// Rule: the same 5-tuple always picks the same port, whatever the other header fields
// (PSN, payload, flags, ECN, priority) and however often it is asked: a QP keeps one path.
TEST(Ecmp, SameFiveTupleAlwaysSamePort)
{
    Ptr<EcmpLoadBalancer> lb = MakeLb(99);
    const std::vector<uint32_t> candidates = Ports(0, 8);
    for (int i = 0; i < 200; ++i)
    {
        const RdmaHeader base = Flow(i);
        const uint32_t first = lb->SelectPort(base, candidates);
        for (uint32_t psn = 0; psn < 20; ++psn)
        {
            RdmaHeader h = base;
            h.psn = psn * 1000;
            h.payload = 1024 - psn;
            h.flags = psn & 3;
            h.ecn = psn % 4;
            h.dstQpn = 7;
            h.priority = psn % 8;
            EXPECT_EQ(lb->SelectPort(h, candidates), first) << "flow " << i;
        }
    }
    // A second instance with the same salt agrees (the mapping has no hidden state).
    Ptr<EcmpLoadBalancer> twin = MakeLb(99);
    for (int i = 0; i < 1000; ++i)
    {
        EXPECT_EQ(twin->SelectPort(Flow(i), candidates), lb->SelectPort(Flow(i), candidates));
    }
}

// Rule: each field of the 5-tuple matters: changing only the source port, only the source
// or only the destination re-hashes the flow (over 8 ports, about 7/8 of the flows move;
// accept > 80%).
TEST(Ecmp, EveryTupleFieldChangesTheHash)
{
    const std::vector<uint32_t> candidates = Ports(0, 8);
    Ptr<EcmpLoadBalancer> lb = MakeLb(5);
    int movedSport = 0;
    int movedSrc = 0;
    int movedDst = 0;
    for (int i = 0; i < kFlows; ++i)
    {
        const RdmaHeader h = Flow(i);
        const uint32_t port = lb->SelectPort(h, candidates);
        RdmaHeader a = h;
        a.sport ^= 0x8000; // stays distinct from every other flow's sport
        movedSport += lb->SelectPort(a, candidates) != port;
        RdmaHeader b = h;
        b.src += 1000;
        movedSrc += lb->SelectPort(b, candidates) != port;
        RdmaHeader c = h;
        c.dst += 1000;
        movedDst += lb->SelectPort(c, candidates) != port;
    }
    EXPECT_GT(movedSport, 0.8 * kFlows);
    EXPECT_GT(movedSrc, 0.8 * kFlows);
    EXPECT_GT(movedDst, 0.8 * kFlows);
}

// Rule: different salts give different (independent) mappings: a flow keeps its port with
// probability 1/8 only, so about 7/8 of the flows move; accept > 80%.
TEST(Ecmp, DifferentSaltsGiveDifferentMappings)
{
    const std::vector<uint32_t> candidates = Ports(0, 8);
    Ptr<EcmpLoadBalancer> a = MakeLb(1);
    Ptr<EcmpLoadBalancer> b = MakeLb(2);
    int differ = 0;
    for (int i = 0; i < kFlows; ++i)
    {
        differ += a->SelectPort(Flow(i), candidates) != b->SelectPort(Flow(i), candidates);
    }
    EXPECT_GT(differ, 0.8 * kFlows);
    EXPECT_LT(differ, 0.95 * kFlows); // 7/8 = 87.5%, sigma 0.33%: not 100% either
    // Hash itself depends on the salt.
    EXPECT_NE(EcmpLoadBalancer::Hash(Flow(0), 1), EcmpLoadBalancer::Hash(Flow(0), 2));
}

// Rule (polarization): tier 1 (salt A) picks among 2 ports; the ~5000 flows that went to
// port 0 arrive at tier 2.
//  - tier 2 with the SAME salt and 2 candidates: every one of them picks index 0 again
//    (hash mod 2 is unchanged): fully polarized, the second port idles;
//  - tier 2 with the same salt and 4 candidates: hash mod 2 = 0 means hash mod 4 is 0 or
//    2: only 2 of the 4 ports are used;
//  - tier 2 with a DIFFERENT salt: the flows spread over both ports within +-10% of half
//    (n/2 +- n/20; binomial sigma = sqrt(n)/2 = 35 for n = 5000, so +-10% is 7 sigma) and
//    over 4 ports within +-10% of a quarter.
TEST(Ecmp, PerSwitchSaltAvoidsPolarization)
{
    const uint32_t saltA = 0x1234;
    const uint32_t saltB = 0x9876;
    Ptr<EcmpLoadBalancer> tier1 = MakeLb(saltA);
    const std::vector<uint32_t> two = {0, 1};
    const std::vector<uint32_t> four = {0, 1, 2, 3};
    std::vector<RdmaHeader> toPort0;
    for (int i = 0; i < kFlows; ++i)
    {
        if (tier1->SelectPort(Flow(i), two) == 0)
        {
            toPort0.push_back(Flow(i));
        }
    }
    const double n = toPort0.size();
    ASSERT_NEAR(n, kFlows / 2.0, 0.10 * kFlows / 2.0);

    // Same salt, same candidate count: polarized.
    Ptr<EcmpLoadBalancer> sameSalt = MakeLb(saltA);
    int sameIndex0 = 0;
    std::map<uint32_t, int> sameFour;
    for (const RdmaHeader& h : toPort0)
    {
        sameIndex0 += sameSalt->SelectPort(h, two) == 0;
        ++sameFour[sameSalt->SelectPort(h, four)];
    }
    EXPECT_EQ(sameIndex0, int(n));
    EXPECT_EQ(sameFour.count(1), 0u);
    EXPECT_EQ(sameFour.count(3), 0u);

    // Different salt: spread.
    Ptr<EcmpLoadBalancer> otherSalt = MakeLb(saltB);
    std::map<uint32_t, int> spreadTwo;
    std::map<uint32_t, int> spreadFour;
    for (const RdmaHeader& h : toPort0)
    {
        ++spreadTwo[otherSalt->SelectPort(h, two)];
        ++spreadFour[otherSalt->SelectPort(h, four)];
    }
    for (uint32_t p : two)
    {
        EXPECT_NEAR(spreadTwo[p], n / 2, 0.10 * n / 2) << "port " << p;
    }
    for (uint32_t p : four)
    {
        EXPECT_NEAR(spreadFour[p], n / 4, 0.10 * n / 4) << "port " << p;
    }
}
