/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of SerializationClock: serialization times in whole nanoseconds that do
 * not drift.
 *
 * Specification: sending b bytes at R bit/s takes 8 b / R seconds. ns-3 time is in whole
 * nanoseconds, so each frame's time must be rounded; the clock carries the fraction over
 * to the next frame, so that the sum of N frame times equals floor(8 * sum(b) * 1e9 / R)
 * ns (within 1 ns of the exact time): no drift, whatever N.
 *
 * Reference frame: 1048 bytes of frame + 20 bytes preamble/IFG = 1068 bytes = 8544 bits.
 *   100 Gb/s: 8544 / 100 = 85.44 ns   (truncation to 85 ns: 0.515 % fast)
 *   400 Gb/s: 8544 / 400 = 21.36 ns   (truncation to 21 ns: 1.69 % fast)
 *    25 Gb/s: 8544 / 25  = 341.76 ns  (truncation to 341 ns: 0.22 % fast)
 */

#include "ns3/core-module.h"
#include "ns3/ns3-compat.h"
#include "ns3/rdma-simulator-impl.h"
#include "ns3/serialization-clock.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint32_t kFrame = 1048 + 20; // 1068 bytes on the wire, 8544 bits
constexpr uint64_t kFrames = 1000000;

/// Sum of Next(kFrame) over kFrames frames, in ns; also checks every prefix sum is the
/// floor of the exact prefix time (so the error never reaches 1 ns along the way).
int64_t
SumOfFrames(uint64_t rate, uint64_t* prefixMismatches)
{
    SerializationClock clock(rate);
    int64_t sum = 0;
    *prefixMismatches = 0;
    for (uint64_t k = 1; k <= kFrames; ++k)
    {
        sum += clock.Next(kFrame).GetNanoSeconds();
        // exact prefix time = k * 8544 bits * 1e9 / rate ns; k * 8544e9 <= 8.544e18 < 2^64
        const uint64_t exactFloor = k * kFrame * 8 * 1000000000ULL / rate;
        if (uint64_t(sum) != exactFloor)
        {
            ++*prefixMismatches;
        }
    }
    return sum;
}

} // namespace

// Rule: one 1068-byte frame at 100 Gb/s takes 85.44 ns, so a single Next() is 85 ns
// (truncated) and the next ones alternate 85/86 ns to carry the 0.44 ns.
TEST(SerializationClock, SingleFrameAt100G)
{
    SerializationClock clock(100000000000ULL);
    EXPECT_EQ(clock.GetBitRate(), 100000000000ULL);
    EXPECT_EQ(clock.Next(kFrame), NanoSeconds(85)); // 85.44 -> 85, carry 0.44
    EXPECT_EQ(clock.Next(kFrame), NanoSeconds(85)); // 0.44+85.44 = 85.88 -> 85, carry 0.88
    EXPECT_EQ(clock.Next(kFrame), NanoSeconds(86)); // 0.88+85.44 = 86.32 -> 86, carry 0.32
    // Exact time of one frame: 85.44 ns = 85440 ps.
    EXPECT_EQ(SerializationClock::Picoseconds(kFrame, 100000000000ULL), 85440u);
}

// Rule: 1,000,000 frames at 100 Gb/s take exactly 1e6 x 85.44 ns = 85,440,000 ns (no drift).
TEST(SerializationClock, NoDriftOverAMillionFramesAt100G)
{
    uint64_t mismatches = 0;
    const int64_t sum = SumOfFrames(100000000000ULL, &mismatches);
    // 8544e6 bits * 1e9 / 1e11 = 85,440,000 ns exactly; allow the 1 ns rounding bound.
    EXPECT_NEAR(double(sum), 85440000.0, 1.0);
    EXPECT_EQ(mismatches, 0u) << "some prefix sum was not floor(exact prefix time)";
    // Naive truncation would give 85 ns x 1e6 = 85,000,000 ns (0.515 % short).
    EXPECT_NE(sum, 85000000);
}

// Rule: same at 400 Gb/s: 1e6 x 21.36 ns = 21,360,000 ns; the truncated per-frame sum
// (21 ns x 1e6 = 21,000,000 ns, 1.69 % short) must NOT be what the clock gives.
TEST(SerializationClock, NoDriftOverAMillionFramesAt400G)
{
    uint64_t mismatches = 0;
    const int64_t sum = SumOfFrames(400000000000ULL, &mismatches);
    EXPECT_NEAR(double(sum), 21360000.0, 1.0);
    EXPECT_EQ(mismatches, 0u);
    const int64_t naiveTruncated = 21 * int64_t(kFrames);
    EXPECT_NE(sum, naiveTruncated);
    // The difference is the 0.36 ns per frame a truncating link would gain: 360,000 ns.
    EXPECT_NEAR(double(sum - naiveTruncated), 360000.0, 1.0);
}

// Rule: same at 25 Gb/s: 1e6 x 341.76 ns = 341,760,000 ns.
TEST(SerializationClock, NoDriftOverAMillionFramesAt25G)
{
    uint64_t mismatches = 0;
    const int64_t sum = SumOfFrames(25000000000ULL, &mismatches);
    EXPECT_NEAR(double(sum), 341760000.0, 1.0);
    EXPECT_EQ(mismatches, 0u);
    EXPECT_NE(sum, 341 * int64_t(kFrames)); // truncation: 0.22 % short
}

// Rule: with mixed frame sizes the sum still equals the time of one frame of the total
// size. Cycle of wire sizes: PFC 84, DATA 1024+82 = 1106, ACK 86, CNP 98, jumbo 9000+82 =
// 9082: 10456 bytes per cycle; 1000 cycles = 10,456,000 bytes = 83,648,000 bits
// -> 836,480 ns at 100 Gb/s and 209,120 ns at 400 Gb/s (both exact).
TEST(SerializationClock, MixedSizesDoNotDrift)
{
    const uint32_t sizes[] = {84, 1106, 86, 98, 9082};
    for (auto [rate, expected] : {std::pair<uint64_t, int64_t>{100000000000ULL, 836480},
                                  std::pair<uint64_t, int64_t>{400000000000ULL, 209120}})
    {
        SerializationClock clock(rate);
        int64_t sum = 0;
        for (int c = 0; c < 1000; ++c)
        {
            for (uint32_t s : sizes)
            {
                sum += clock.Next(s).GetNanoSeconds();
            }
        }
        EXPECT_NEAR(double(sum), double(expected), 1.0) << "rate " << rate;
    }
}

// Rule: SetBitRate changes the rate and drops the carried (< 1 ns) remainder.
TEST(SerializationClock, SetBitRateResetsRemainder)
{
    SerializationClock clock(100000000000ULL);
    EXPECT_EQ(clock.Next(kFrame), NanoSeconds(85)); // carry 0.44 ns
    clock.SetBitRate(100000000000ULL);              // carry dropped
    EXPECT_EQ(clock.Next(kFrame), NanoSeconds(85)); // 85.44 -> 85 again, carry 0.44
    clock.SetBitRate(25000000000ULL);
    EXPECT_EQ(clock.GetBitRate(), 25000000000ULL);
    EXPECT_EQ(clock.Next(kFrame), NanoSeconds(341)); // 341.76 -> 341, fresh carry
}

// Rule: Picoseconds(bytes, rate) = floor(8 * bytes * 1e12 / rate), exact even when
// 8 * bytes * 1e12 exceeds 64 bits (above ~2.3 MB).
TEST(SerializationClock, PicosecondsExactForLargeByteCounts)
{
    // 10 MB = 1e7 bytes = 8e7 bits at 1e11 bit/s = 8e-4 s = 800 us = 800,000,000 ps.
    EXPECT_EQ(SerializationClock::Picoseconds(10000000ULL, 100000000000ULL), 800000000ULL);
    // 2^40 bytes = 8,796,093,022,208 bits at 100 Gb/s = 87.96093022208 s
    //            = 87,960,930,222,080 ps (exact).
    EXPECT_EQ(SerializationClock::Picoseconds(1ULL << 40, 100000000000ULL), 87960930222080ULL);
    // 1e12 bytes = 8e12 bits at 400 Gb/s = 20 s = 2e13 ps.
    EXPECT_EQ(SerializationClock::Picoseconds(1000000000000ULL, 400000000000ULL),
              20000000000000ULL);
    // 1068 bytes at 400 Gb/s = 21.36 ns = 21,360 ps.
    EXPECT_EQ(SerializationClock::Picoseconds(kFrame, 400000000000ULL), 21360u);
}

// Rule: Picoseconds truncates: 1 byte at 3 Gb/s = 8/3 ns = 2666.67 ps -> 2666 ps.
TEST(SerializationClock, PicosecondsTruncates)
{
    EXPECT_EQ(SerializationClock::Picoseconds(1, 3000000000ULL), 2666u);
    // 3 bytes at 3 Gb/s = 8 ns exactly.
    EXPECT_EQ(SerializationClock::Picoseconds(3, 3000000000ULL), 8000u);
}

TEST(SerializationClock, NextNsOfMixedSizesDoesNotDrift)
{
    // What a port reads per frame (NextNs): after every frame of a mix of sizes, the sum
    // so far is the floor of the exact time of all the bytes so far (the remainder is
    // carried, never lost).
    const uint64_t rate = 400000000000ULL;
    SerializationClock clock(rate);
    const uint32_t sizes[] = {kFrame, 84, 9000 + 20, 1, kFrame, 84, 4096 + 20};
    uint64_t sumNs = 0;
    compat::Uint128 bytes = 0;
    for (int round = 0; round < 1000; ++round)
    {
        for (uint32_t b : sizes)
        {
            sumNs += clock.NextNs(b);
            bytes += b;
            const auto exact = static_cast<uint64_t>(bytes * 8 * 1000000000ULL / rate);
            ASSERT_EQ(sumNs, exact) << "after " << b << " bytes, round " << round;
        }
    }
}

TEST(SerializationClock, EventCoreConvertsNanosecondsToTimeStepsExactly)
{
    // The port hands the link and its end of transmission time steps (NsToSteps), not a
    // Time per frame: the same steps as NanoSeconds(ns) would hold.
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
    Simulator::Now(); // makes the implementation
    const RdmaSimulatorImpl* sim = RdmaSimulatorImpl::Active();
    ASSERT_NE(sim, nullptr);
    for (uint64_t ns : {0ULL, 1ULL, 21ULL, 86ULL, 1000ULL, 123456789ULL})
    {
        EXPECT_EQ(sim->NsToSteps(ns), static_cast<uint64_t>(NanoSeconds(ns).GetTimeStep()))
            << ns << " ns";
    }
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
}
