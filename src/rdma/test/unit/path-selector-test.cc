/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the sender path-selection policies (PathSelector), each driven by hand:
 * the entropies it answers, the feedback it is given and the time it is handed (no
 * network, no simulator). per_qp keeps the QP's port (or changes it every N packets);
 * oblivious visits every entropy of the space once per round; bitmap never picks an
 * entropy while its penalty lasts, and picks it again once it has sat out its rounds;
 * REPS reuses what came back unmarked, in order and once each, explores when it has
 * nothing to reuse, and after a timeout freezes on the entropies known to work.
 */
#include "ns3/bitmap-path-selector.h"
#include "ns3/object-factory.h"
#include "ns3/oblivious-path-selector.h"
#include "ns3/per-qp-entropy.h"
#include "ns3/plugin-registry.h"
#include "ns3/reps-path-selector.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint16_t kPort = 50123;
constexpr uint32_t kPaths = 16;

template <typename T>
Ptr<T>
Make(uint32_t paths = kPaths)
{
    Ptr<T> p = CreateObject<T>();
    p->SetAttribute("Paths", UintegerValue(paths));
    p->Init(kPort, 42);
    return p;
}

/// The space index of each of \p n next entropies (every one must be of the space).
std::vector<uint32_t>
NextIndices(const Ptr<PathSelector>& p, uint32_t n, Time now = Time(0))
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t index =
            PathSelector::SpaceIndex(kPort, p->NextEntropy(kPort, i, now), kPaths);
        EXPECT_NE(index, PathSelector::kNoIndex) << "an entropy outside the QP's space";
        out.push_back(index);
    }
    return out;
}

} // namespace

TEST(PathSelector, SpacePortsAreDistinctAndInvertible)
{
    std::set<uint16_t> ports;
    for (uint32_t i = 0; i < PathSelector::kPortCount; ++i)
    {
        const uint16_t port = PathSelector::SpacePort(kPort, i);
        EXPECT_GE(port, PathSelector::kPortFirst);
        EXPECT_EQ(PathSelector::SpaceIndex(kPort, port, PathSelector::kPortCount), i);
        ports.insert(port);
    }
    EXPECT_EQ(ports.size(), PathSelector::kPortCount) << "each index its own port";
    EXPECT_EQ(PathSelector::SpaceIndex(kPort, PathSelector::SpacePort(kPort, kPaths), kPaths),
              PathSelector::kNoIndex)
        << "a port past the space is not of it";
    EXPECT_EQ(PathSelector::SpaceIndex(kPort, 4791, kPaths), PathSelector::kNoIndex);
    EXPECT_NE(PathSelector::SpacePort(kPort, 0), PathSelector::SpacePort(kPort + 1, 0))
        << "two QPs' spaces start apart";
}

TEST(PathSelector, PerQpKeepsThePortOrChangesItEveryNPackets)
{
    Ptr<PerQpEntropy> fixed = CreateObject<PerQpEntropy>();
    EXPECT_FALSE(fixed->IsPerQp()) << "stateless: one instance serves every QP";
    EXPECT_FALSE(fixed->UsesFeedback());
    EXPECT_TRUE(fixed->KeepsQpPort()) << "the NIC may skip it: every answer is the QP's port";
    for (uint32_t psn = 0; psn < 100; ++psn)
    {
        EXPECT_EQ(fixed->NextEntropy(kPort, psn, Time(0)), kPort);
    }
    Ptr<PerQpEntropy> spray = CreateObject<PerQpEntropy>();
    spray->SetAttribute("ChangePackets", UintegerValue(4));
    EXPECT_FALSE(spray->KeepsQpPort());
    std::set<uint16_t> ports;
    for (uint32_t psn = 0; psn < 64; ++psn)
    {
        const uint16_t port = spray->NextEntropy(kPort, psn, Time(0));
        EXPECT_EQ(port, spray->NextEntropy(kPort, psn - psn % 4, Time(0)))
            << "one port per group of 4 packets";
        EXPECT_GE(port, PathSelector::kPortFirst);
        ports.insert(port);
    }
    EXPECT_GT(ports.size(), 12u) << "16 groups, (almost) all on different ports";
}

TEST(PathSelector, ObliviousVisitsEveryEntropyOncePerRound)
{
    Ptr<ObliviousPathSelector> p = Make<ObliviousPathSelector>();
    EXPECT_TRUE(p->IsPerQp());
    EXPECT_FALSE(p->UsesFeedback());
    std::set<std::vector<uint32_t>> orders;
    for (uint32_t round = 0; round < 8; ++round)
    {
        const std::vector<uint32_t> order = NextIndices(p, kPaths);
        EXPECT_EQ(std::set<uint32_t>(order.begin(), order.end()).size(), kPaths)
            << "round " << round << " visits each of the 16 entropies once";
        orders.insert(order);
        // Bad news changes nothing.
        p->OnNack(PathSelector::SpacePort(kPort, order[0]), Time(0));
        p->OnTimeout(PathSelector::SpacePort(kPort, order[1]), Time(0));
    }
    EXPECT_GT(orders.size(), 1u) << "the order changes from round to round";
}

TEST(PathSelector, BitmapSkipsAPenalizedEntropyWhileItsPenaltyLasts)
{
    // A NACK costs an entropy its next 4 turns (NackPenalty); only it is penalized, so
    // each round it sits out is one skip of the scan.
    Ptr<BitmapPathSelector> p = Make<BitmapPathSelector>();
    EXPECT_TRUE(p->UsesFeedback());
    const uint32_t bad = NextIndices(p, 1)[0];
    p->OnNack(PathSelector::SpacePort(kPort, bad), Time(0));
    EXPECT_EQ(p->GetPenalty(bad), 4);
    std::vector<uint32_t> picks = NextIndices(p, 4 * (kPaths - 1));
    for (uint32_t i : picks)
    {
        EXPECT_NE(i, bad) << "picked while penalized";
    }
    // Its penalty spent, it is back within the following round and a half.
    picks = NextIndices(p, 2 * kPaths);
    EXPECT_NE(std::find(picks.begin(), picks.end(), bad), picks.end());
    EXPECT_EQ(p->GetPenalty(bad), 0);
}

TEST(PathSelector, BitmapPenaltiesAddUpToTheirCap)
{
    Ptr<BitmapPathSelector> p = Make<BitmapPathSelector>();
    const uint16_t e = PathSelector::SpacePort(kPort, 3);
    p->OnAck(e, false, Time(0));
    EXPECT_EQ(p->GetPenalty(3), 0) << "an unmarked ACK is no bad news";
    p->OnAck(e, true, Time(0));
    EXPECT_EQ(p->GetPenalty(3), 1) << "an ECN echo: one round";
    p->OnNack(e, Time(0));
    EXPECT_EQ(p->GetPenalty(3), 5) << "plus a trimmed packet's four";
    p->OnTimeout(e, Time(0));
    EXPECT_EQ(p->GetPenalty(3), 15) << "a timeout: the most";
    p->OnNack(e, Time(0));
    EXPECT_EQ(p->GetPenalty(3), 15) << "never above MaxPenalty";
    p->OnNack(kPort, Time(0)); // the QP's own port is not of the space: nobody to blame
    for (uint32_t i = 0; i < kPaths; ++i)
    {
        EXPECT_EQ(p->GetPenalty(i), i == 3 ? 15 : 0);
    }
}

TEST(PathSelector, BitmapStillSendsWhenEveryEntropyIsPenalized)
{
    Ptr<BitmapPathSelector> p = Make<BitmapPathSelector>();
    for (uint32_t i = 0; i < kPaths; ++i)
    {
        p->OnTimeout(PathSelector::SpacePort(kPort, i), Time(0));
    }
    const std::vector<uint32_t> picks = NextIndices(p, 3 * kPaths);
    EXPECT_EQ(picks.size(), 3 * kPaths) << "every packet gets an entropy of the space";
}

TEST(PathSelector, RepsExploresWhenItHasNothingToReuse)
{
    Ptr<RepsPathSelector> p = Make<RepsPathSelector>(1024);
    EXPECT_TRUE(p->UsesFeedback());
    std::set<uint16_t> seen;
    for (uint32_t i = 0; i < 64; ++i)
    {
        seen.insert(p->NextEntropy(kPort, i, Time(0)));
    }
    // 64 random draws from 1024 entropies: about 2 repeats expected.
    EXPECT_GT(seen.size(), 50u) << "no feedback yet: random entropies";
    for (uint16_t e : seen)
    {
        EXPECT_NE(PathSelector::SpaceIndex(kPort, e, 1024), PathSelector::kNoIndex);
    }
}

TEST(PathSelector, RepsReusesUnmarkedEntropiesInOrderOnceEach)
{
    Ptr<RepsPathSelector> p = Make<RepsPathSelector>(1024);
    const std::vector<uint16_t> good = {PathSelector::SpacePort(kPort, 7),
                                        PathSelector::SpacePort(kPort, 300),
                                        PathSelector::SpacePort(kPort, 21)};
    const uint16_t marked = PathSelector::SpacePort(kPort, 500);
    const uint16_t trimmed = PathSelector::SpacePort(kPort, 501);
    p->OnAck(good[0], false, Time(0));
    p->OnAck(marked, true, Time(0));
    p->OnAck(good[1], false, Time(0));
    p->OnNack(trimmed, Time(0));
    p->OnAck(good[2], false, Time(0));
    EXPECT_EQ(p->FreshCount(), 3u) << "only unmarked ACKs are cached";
    for (uint16_t e : good)
    {
        EXPECT_EQ(p->NextEntropy(kPort, 0, Time(0)), e) << "reused in the order they came back";
    }
    EXPECT_EQ(p->FreshCount(), 0u) << "each reused once";
    // Nothing left: it explores, and never lands on the marked or trimmed entropies by
    // reuse (a random draw could, with probability 1/1024 each).
    std::map<uint16_t, int> next;
    for (int i = 0; i < 20; ++i)
    {
        ++next[p->NextEntropy(kPort, 0, Time(0))];
    }
    EXPECT_GT(next.size(), 15u) << "explores at random";
}

TEST(PathSelector, RepsRingKeepsTheNewestBufferSize)
{
    Ptr<RepsPathSelector> p = Make<RepsPathSelector>(1024); // BufferSize 8
    for (uint32_t i = 0; i < 12; ++i)
    {
        p->OnAck(PathSelector::SpacePort(kPort, 100 + i), false, Time(0));
    }
    EXPECT_EQ(p->FreshCount(), 8u);
    for (uint32_t i = 4; i < 12; ++i)
    {
        EXPECT_EQ(p->NextEntropy(kPort, 0, Time(0)), PathSelector::SpacePort(kPort, 100 + i))
            << "the 8 newest, oldest first";
    }
}

TEST(PathSelector, RepsFreezesOnKnownGoodEntropiesAfterATimeout)
{
    Ptr<RepsPathSelector> p = Make<RepsPathSelector>(1024); // FreezeTime 10 ms
    const std::set<uint16_t> good = {PathSelector::SpacePort(kPort, 1),
                                     PathSelector::SpacePort(kPort, 2),
                                     PathSelector::SpacePort(kPort, 3)};
    for (uint16_t e : good)
    {
        p->OnAck(e, false, Time(0));
    }
    p->OnTimeout(PathSelector::SpacePort(kPort, 9), MicroSeconds(100));
    EXPECT_TRUE(p->IsFrozen());
    // Frozen: only the entropies known to work, cycled, reused or not, for 10 ms.
    std::map<uint16_t, int> uses;
    for (int i = 0; i < 30; ++i)
    {
        ++uses[p->NextEntropy(kPort, 0, MicroSeconds(200 + i))];
    }
    EXPECT_EQ(uses.size(), 3u);
    for (const auto& [e, n] : uses)
    {
        EXPECT_TRUE(good.count(e)) << "a frozen QP took an entropy not known to work";
        EXPECT_EQ(n, 10) << "cycled evenly";
    }
    // Feedback before the freeze is over keeps it; a second timeout does not extend it.
    p->OnTimeout(PathSelector::SpacePort(kPort, 1), MilliSeconds(5));
    p->OnAck(PathSelector::SpacePort(kPort, 2), true, MilliSeconds(10));
    EXPECT_TRUE(p->IsFrozen());
    // The first feedback after it thaws the QP: the ring is emptied, it explores.
    p->OnAck(PathSelector::SpacePort(kPort, 2), true, MilliSeconds(11));
    EXPECT_FALSE(p->IsFrozen());
    EXPECT_EQ(p->FreshCount(), 0u);
    std::set<uint16_t> explored;
    for (int i = 0; i < 16; ++i)
    {
        explored.insert(p->NextEntropy(kPort, 0, MilliSeconds(11)));
    }
    EXPECT_GT(explored.size(), 12u) << "16 random entropies of 1024 after a freeze";
}

TEST(PathSelector, RepsFrozenWithAnEmptyRingExplores)
{
    Ptr<RepsPathSelector> p = Make<RepsPathSelector>(1024);
    p->OnTimeout(PathSelector::SpacePort(kPort, 9), Time(0));
    EXPECT_TRUE(p->IsFrozen());
    std::set<uint16_t> picks;
    for (int i = 0; i < 16; ++i)
    {
        picks.insert(p->NextEntropy(kPort, 0, MicroSeconds(1)));
    }
    EXPECT_GT(picks.size(), 12u) << "nothing known to work: random entropies";
    p->OnAck(PathSelector::SpacePort(kPort, 4), false, MicroSeconds(2));
    EXPECT_EQ(p->NextEntropy(kPort, 0, MicroSeconds(3)), PathSelector::SpacePort(kPort, 4));
    EXPECT_EQ(p->NextEntropy(kPort, 0, MicroSeconds(3)), PathSelector::SpacePort(kPort, 4))
        << "frozen: the one good entropy, again and again";
}

TEST(PathSelector, EveryPolicyIsAScenarioChoiceAndStaysInItsSpace)
{
    // Over the registry, so that a new policy cannot escape: it has a name, and with
    // feedback of every kind it only ever answers ports of its QP's space (or the QP's
    // own, the default's).
    const auto& plugins = PluginRegistry::PathSelectors().Plugins();
    std::set<std::string> names;
    for (const auto& plugin : plugins)
    {
        names.insert(plugin.name);
        ObjectFactory f;
        f.SetTypeId(plugin.tid);
        f.Set("Paths", UintegerValue(kPaths));
        Ptr<PathSelector> p = f.Create<PathSelector>();
        p->Init(kPort, 7);
        for (uint32_t psn = 0; psn < 200; ++psn)
        {
            const Time now = MicroSeconds(psn);
            const uint16_t e = p->NextEntropy(kPort, psn, now);
            EXPECT_TRUE(e == kPort ||
                        PathSelector::SpaceIndex(kPort, e, kPaths) != PathSelector::kNoIndex)
                << plugin.name << " answered port " << e;
            switch (psn % 7)
            {
            case 0:
                p->OnNack(e, now);
                break;
            case 3:
                p->OnTimeout(e, now);
                break;
            default:
                p->OnAck(e, psn % 2, now);
            }
        }
    }
    for (const char* name : {"per_qp", "oblivious", "bitmap", "reps"})
    {
        EXPECT_TRUE(names.count(name)) << name;
    }
}
