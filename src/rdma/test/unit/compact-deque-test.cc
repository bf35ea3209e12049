/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CompactDeque (the QPs' message and SACK/placement queues) behaves as std::deque for
 * every operation the QPs use, and allocates nothing until it holds something.
 */
#include "ns3/compact-deque.h"

#include <deque>
#include <gtest/gtest.h>
#include <random>

using namespace ns3;

TEST(CompactDequeTest, EmptyAllocatesNothing)
{
    CompactDeque<bool> q;
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.capacity(), 0u);
    EXPECT_EQ(q.begin(), q.end());
    CompactDeque<bool> copy = q;
    EXPECT_EQ(copy.capacity(), 0u);
    EXPECT_LE(sizeof(q), 24u);
}

TEST(CompactDequeTest, RandomOperationsMatchStdDeque)
{
    std::mt19937 rng(7);
    CompactDeque<uint64_t> q;
    std::deque<uint64_t> ref;
    for (uint32_t step = 0; step < 200000; ++step)
    {
        const uint32_t op = rng() % 8;
        if (op <= 2)
        {
            const uint64_t v = rng();
            q.push_back(v);
            ref.push_back(v);
        }
        else if (op == 3 && !ref.empty())
        {
            q.pop_front();
            ref.pop_front();
        }
        else if (op == 4 && !ref.empty())
        {
            q.pop_back();
            ref.pop_back();
        }
        else if (op == 5)
        {
            const size_t n = ref.size() + rng() % 5;
            q.resize(n, step);
            ref.resize(n, step);
        }
        else if (op == 6 && !ref.empty())
        {
            const size_t i = rng() % ref.size();
            q[i] = step;
            ref[i] = step;
        }
        else if (op == 7 && rng() % 100 == 0)
        {
            q.clear();
            ref.clear();
            EXPECT_EQ(q.capacity(), 0u);
        }
        ASSERT_EQ(q.size(), ref.size());
        if (!ref.empty())
        {
            ASSERT_EQ(q.front(), ref.front());
            ASSERT_EQ(q.back(), ref.back());
        }
    }
    size_t i = 0;
    for (uint64_t v : q)
    {
        EXPECT_EQ(v, ref[i++]);
    }
    EXPECT_EQ(i, ref.size());
    const CompactDeque<uint64_t> copy = q;
    ASSERT_EQ(copy.size(), ref.size());
    for (size_t k = 0; k < ref.size(); ++k)
    {
        EXPECT_EQ(copy[k], ref[k]);
    }
    CompactDeque<uint64_t> moved = std::move(q);
    EXPECT_EQ(moved.size(), ref.size());
    EXPECT_TRUE(q.empty());
}

// NextSlotHint names the slot the next push writes (what a port prefetches before it
// sends), across wrap-around; null before anything was allocated.
TEST(CompactDequeTest, NextSlotHintIsWhereTheNextPushWrites)
{
    CompactDeque<uint64_t> q;
    EXPECT_EQ(q.NextSlotHint(), nullptr);
    q.push_back(0);
    std::mt19937 rng(3);
    for (uint64_t step = 1; step < 2000; ++step)
    {
        if (q.size() < q.capacity())
        {
            const uint64_t* hint = q.NextSlotHint();
            q.push_back(step);
            ASSERT_EQ(hint, &q.back()) << "step " << step;
        }
        else
        {
            q.push_back(step); // grows: a hint taken before is stale, by contract
        }
        if (rng() % 2 == 0)
        {
            q.pop_front();
        }
    }
}
