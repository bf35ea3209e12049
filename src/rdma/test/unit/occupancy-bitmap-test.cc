/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of OccupancyBitmap, the event wheel's map of non-empty buckets: after any
 * sequence of sets and clears, FirstSetFrom and FirstSetCircular name the same slot as a
 * scan of a plain set of occupied slots (the reference), within a word, across words,
 * across summary words and around the end.
 */

#include "ns3/occupancy-bitmap.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace ns3;

namespace
{
constexpr uint32_t kSlots = 16384;
using Bitmap = OccupancyBitmap<kSlots>;

uint32_t
ReferenceFrom(const std::set<uint32_t>& occupied, uint32_t from)
{
    const auto it = occupied.lower_bound(from);
    return it == occupied.end() ? Bitmap::kNone : *it;
}

uint32_t
ReferenceCircular(const std::set<uint32_t>& occupied, uint32_t from)
{
    const uint32_t b = ReferenceFrom(occupied, from);
    return b != Bitmap::kNone || occupied.empty() ? b : *occupied.begin();
}
} // namespace

// Rule: an empty bitmap has no occupied slot from anywhere.
TEST(OccupancyBitmapTest, EmptyHasNone)
{
    const Bitmap bitmap;
    for (uint32_t from : {0u, 63u, 64u, 4095u, 4096u, kSlots - 1})
    {
        EXPECT_EQ(bitmap.FirstSetFrom(from), Bitmap::kNone) << from;
        EXPECT_EQ(bitmap.FirstSetCircular(from), Bitmap::kNone) << from;
    }
}

// Rule: the answers match the reference after random sets and clears, sparse (slots far
// apart: the summary is searched) and dense (the same word), at every kind of start.
TEST(OccupancyBitmapTest, MatchesASetOfSlots)
{
    std::mt19937 rng(7);
    for (const uint32_t spread : {kSlots, 256u})
    {
        Bitmap bitmap;
        std::set<uint32_t> occupied;
        for (int step = 0; step < 20000; ++step)
        {
            const uint32_t slot = (rng() % spread) * (kSlots / spread) + rng() % (kSlots / spread);
            if (rng() % 3 == 0 && occupied.count(slot) != 0)
            {
                bitmap.Clear(slot);
                occupied.erase(slot);
            }
            else if (occupied.count(slot) == 0)
            {
                bitmap.Set(slot);
                occupied.insert(slot);
            }
            const uint32_t from = rng() % kSlots;
            ASSERT_EQ(bitmap.FirstSetFrom(from), ReferenceFrom(occupied, from))
                << "step " << step << " from " << from;
            ASSERT_EQ(bitmap.FirstSetCircular(from), ReferenceCircular(occupied, from))
                << "step " << step << " from " << from;
        }
        // Cleared down to nothing, it is empty again.
        for (uint32_t slot : occupied)
        {
            bitmap.Clear(slot);
        }
        EXPECT_EQ(bitmap.FirstSetCircular(0), Bitmap::kNone);
    }
}

// Rule: a slot in the last word is found from a start in the first (the summary finds it),
// and from a start after it only by wrapping around.
TEST(OccupancyBitmapTest, FarSlotsThroughTheSummaryAndAroundTheEnd)
{
    Bitmap bitmap;
    bitmap.Set(5);
    bitmap.Set(kSlots - 1);
    EXPECT_EQ(bitmap.FirstSetFrom(6), kSlots - 1);
    EXPECT_EQ(bitmap.FirstSetFrom(kSlots - 1), kSlots - 1);
    bitmap.Clear(kSlots - 1);
    EXPECT_EQ(bitmap.FirstSetFrom(6), Bitmap::kNone);
    EXPECT_EQ(bitmap.FirstSetCircular(6), 5u);
}
