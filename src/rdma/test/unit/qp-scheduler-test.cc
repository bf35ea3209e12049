/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of QpScheduler, the NIC's transmit scheduler over its QPs (qp-scheduler.h):
 *  - the ready list is served in round robin: QPs come out in the order they were made
 *    ready, and a QP pushed back after its turn goes behind the others; an empty list
 *    yields nothing;
 *  - the waiting QPs form a min-heap on their pacing time: NextWaitingPs is the earliest
 *    time in the heap, ReleaseDue(now) moves every entry due at or before now (and no
 *    later one) to the back of the ready list, earliest first; entries due at the same
 *    time come out in QP-number order (the heap's order, Waiting::operator>), whatever
 *    the order they were pushed in; HasWaiting is false once the heap is empty;
 *  - ReleaseDue skips an entry for which isCurrent(qpn, generation) is false (a QP moved
 *    to an earlier time is pushed again with a new generation; its old entry is dropped
 *    when its time comes, and the QP is not made ready twice);
 *  - a QP parked in a class stays out of the ready list while the class is in the paused
 *    mask given to Unpark; Unpark(mask) returns exactly the QPs of the classes not in
 *    the mask, each once, in the order they were parked within a class;
 *  - PeekLikelyNext (the NIC's prefetch one pull ahead) names the QP that the next pull
 *    serves when nothing is pushed in between: the ready list's head, else the waiting
 *    QP due first (once it is due, ReleaseDue makes it ready and PopReady gives it);
 *    nothing when no QP is ready or waiting.
 */
#include "ns3/qp-scheduler.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// Pops the whole ready list.
std::vector<uint32_t>
Drain(QpScheduler& s)
{
    std::vector<uint32_t> out;
    uint32_t qpn;
    while (s.PopReady(qpn))
    {
        out.push_back(qpn);
    }
    return out;
}

/// Every entry is current.
bool
AlwaysCurrent(uint32_t /* qpn */, uint32_t /* generation */)
{
    return true;
}

using V = std::vector<uint32_t>;

} // namespace

TEST(QpScheduler, AnEmptySchedulerHasNothingReadyOrWaiting)
{
    QpScheduler s;
    uint32_t qpn;
    EXPECT_FALSE(s.PopReady(qpn));
    EXPECT_FALSE(s.HasWaiting());
}

TEST(QpScheduler, ReadyQpsAreServedInTheOrderTheyBecameReady)
{
    QpScheduler s;
    for (uint32_t qpn : {7u, 2u, 9u, 4u})
    {
        s.PushReady(qpn);
    }
    EXPECT_EQ(Drain(s), (V{7, 2, 9, 4})) << "first in, first served, not by QP number";
}

TEST(QpScheduler, AQpPushedBackAfterItsTurnGoesBehindTheOthers)
{
    QpScheduler s;
    s.PushReady(1);
    s.PushReady(2);
    s.PushReady(3);
    // Three rounds in which every served QP has more to send.
    std::vector<uint32_t> served;
    for (int turn = 0; turn < 9; ++turn)
    {
        uint32_t qpn;
        ASSERT_TRUE(s.PopReady(qpn));
        served.push_back(qpn);
        s.PushReady(qpn);
    }
    EXPECT_EQ(served, (V{1, 2, 3, 1, 2, 3, 1, 2, 3}));
}

TEST(QpScheduler, NextWaitingPsIsTheEarliestPacingTime)
{
    QpScheduler s;
    s.PushWaiting(1, 5000);
    EXPECT_TRUE(s.HasWaiting());
    EXPECT_EQ(s.NextWaitingPs(), 5000u);
    s.PushWaiting(2, 3000); // earlier: becomes the next
    EXPECT_EQ(s.NextWaitingPs(), 3000u);
    s.PushWaiting(3, 8000); // later: does not
    EXPECT_EQ(s.NextWaitingPs(), 3000u);
    uint32_t qpn;
    EXPECT_FALSE(s.PopReady(qpn)) << "a waiting QP is not ready before ReleaseDue";
}

TEST(QpScheduler, ReleaseDueMovesOnlyTheQpsDueByNowEarliestFirst)
{
    QpScheduler s;
    s.PushWaiting(10, 400);
    s.PushWaiting(11, 100);
    s.PushWaiting(12, 300);
    s.PushWaiting(13, 200);
    s.PushWaiting(14, 500);

    s.ReleaseDue(99, AlwaysCurrent);
    EXPECT_TRUE(Drain(s).empty()) << "nothing is due before 100 ps";

    s.ReleaseDue(300, AlwaysCurrent); // due at 100, 200 and 300 (<= now is due)
    EXPECT_EQ(Drain(s), (V{11, 13, 12}));
    ASSERT_TRUE(s.HasWaiting());
    EXPECT_EQ(s.NextWaitingPs(), 400u);

    s.ReleaseDue(1000, AlwaysCurrent);
    EXPECT_EQ(Drain(s), (V{10, 14}));
    EXPECT_FALSE(s.HasWaiting());
}

TEST(QpScheduler, ReleasedQpsJoinTheReadyListBehindTheQpsAlreadyReady)
{
    QpScheduler s;
    s.PushReady(1);
    s.PushReady(2);
    s.PushWaiting(3, 50);
    s.ReleaseDue(50, AlwaysCurrent);
    EXPECT_EQ(Drain(s), (V{1, 2, 3}));
}

TEST(QpScheduler, QpsDueAtTheSameTimeAreReleasedTogetherInQpNumberOrder)
{
    QpScheduler s;
    for (uint32_t qpn : {30u, 10u, 40u, 20u})
    {
        s.PushWaiting(qpn, 700);
    }
    s.PushWaiting(5, 701); // one ps later: not part of the tie
    EXPECT_EQ(s.NextWaitingPs(), 700u);
    s.ReleaseDue(700, AlwaysCurrent);
    EXPECT_EQ(Drain(s), (V{10, 20, 30, 40})) << "all four at once, by QP number";
    ASSERT_TRUE(s.HasWaiting());
    EXPECT_EQ(s.NextWaitingPs(), 701u);
}

TEST(QpScheduler, ReleaseDueAsksIsCurrentWithTheGenerationPushed)
{
    QpScheduler s;
    s.PushWaiting(4, 10, 77);
    s.PushWaiting(5, 20); // default generation 0
    std::map<uint32_t, uint32_t> asked;
    s.ReleaseDue(20, [&asked](uint32_t qpn, uint32_t generation) {
        asked[qpn] = generation;
        return true;
    });
    EXPECT_EQ(asked, (std::map<uint32_t, uint32_t>{{4, 77}, {5, 0}}));
    EXPECT_EQ(Drain(s), (V{4, 5}));
}

TEST(QpScheduler, AStaleEntryOfAQpMovedEarlierIsDroppedNotServedTwice)
{
    // QP 1 waits until 1000 ps (generation 1), then its rate rises and the NIC moves it
    // to 400 ps (generation 2); QP 2 waits until 1000 ps too, with its current entry.
    QpScheduler s;
    std::map<uint32_t, uint32_t> current = {{1, 1}, {2, 1}};
    auto isCurrent = [&current](uint32_t qpn, uint32_t generation) {
        return current.at(qpn) == generation;
    };
    s.PushWaiting(1, 1000, 1);
    s.PushWaiting(2, 1000, 1);
    current[1] = 2;
    s.PushWaiting(1, 400, 2);
    EXPECT_EQ(s.NextWaitingPs(), 400u);

    s.ReleaseDue(400, isCurrent);
    EXPECT_EQ(Drain(s), (V{1})) << "served at its new, earlier time";

    s.ReleaseDue(1000, isCurrent);
    EXPECT_EQ(Drain(s), (V{2})) << "QP 1's old entry is skipped, QP 2's is not";
    EXPECT_FALSE(s.HasWaiting()) << "the stale entry left the heap when its time came";
}

TEST(QpScheduler, AStaleEntryIsDroppedEvenWhenItIsTheOnlyOneDue)
{
    // QP 6 was moved later (its entry at 100 is stale, the current one is at 900).
    QpScheduler s;
    s.PushWaiting(6, 100, 1);
    s.PushWaiting(6, 900, 2);
    auto isCurrent = [](uint32_t /* qpn */, uint32_t generation) { return generation == 2; };
    s.ReleaseDue(500, isCurrent);
    EXPECT_TRUE(Drain(s).empty()) << "the QP must not be served before its current time";
    ASSERT_TRUE(s.HasWaiting());
    EXPECT_EQ(s.NextWaitingPs(), 900u);
    s.ReleaseDue(900, isCurrent);
    EXPECT_EQ(Drain(s), (V{6}));
}

TEST(QpScheduler, ParkedQpsAreNotServedWhileTheirClassStaysPaused)
{
    QpScheduler s;
    s.Park(1, 3);
    s.Park(2, 3);
    s.PushReady(9);
    EXPECT_EQ(Drain(s), (V{9})) << "parked QPs are not in the ready list";

    s.Unpark(1u << 3); // class 3 still paused
    EXPECT_TRUE(Drain(s).empty());
    s.Unpark(0xff); // every class paused
    EXPECT_TRUE(Drain(s).empty());

    s.Unpark(0); // class 3 resumed
    EXPECT_EQ(Drain(s), (V{1, 2})) << "in the order they were parked";
    s.Unpark(0);
    EXPECT_TRUE(Drain(s).empty()) << "each parked QP comes back once";
}

TEST(QpScheduler, UnparkReleasesOnlyTheClassesNoLongerPaused)
{
    QpScheduler s;
    s.Park(10, 0);
    s.Park(11, 0);
    s.Park(20, 3);
    s.Park(70, 7);
    s.Park(71, 7);

    // Classes 0 and 7 still paused: only class 3 comes back.
    s.Unpark((1u << 0) | (1u << 7));
    EXPECT_EQ(Drain(s), (V{20}));

    // Class 0 still paused: class 7 comes back.
    s.Unpark(1u << 0);
    EXPECT_EQ(Drain(s), (V{70, 71}));

    // A QP parked in class 3 again while class 0 stays parked.
    s.Park(21, 3);
    s.Unpark(1u << 0);
    EXPECT_EQ(Drain(s), (V{21}));

    s.Unpark(0);
    EXPECT_EQ(Drain(s), (V{10, 11}));
}

TEST(QpScheduler, UnparkWithNothingPausedReturnsEveryParkedQpOnce)
{
    QpScheduler s;
    const V parked = {3, 1, 4, 15, 9, 26, 5, 35};
    for (uint32_t i = 0; i < parked.size(); ++i)
    {
        s.Park(parked[i], static_cast<uint8_t>(i)); // one QP in each class 0..7
    }
    s.Unpark(0);
    V out = Drain(s);
    std::sort(out.begin(), out.end());
    V expected = parked;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(out, expected);
}

TEST(QpScheduler, ParkingDoesNotTouchTheWaitingHeap)
{
    QpScheduler s;
    s.PushWaiting(1, 100);
    s.Park(2, 4);
    s.Unpark(0);
    EXPECT_EQ(Drain(s), (V{2}));
    ASSERT_TRUE(s.HasWaiting());
    EXPECT_EQ(s.NextWaitingPs(), 100u);
    s.ReleaseDue(100, AlwaysCurrent);
    EXPECT_EQ(Drain(s), (V{1}));
}

TEST(QpScheduler, LikelyNextIsTheQpTheNextPullServes)
{
    // A NIC's pulls: release what is due, pop one, and put it back either ready or
    // waiting for a pacing time a little later (random, like a limiter's gap). At every
    // step the guess made after the previous pull must be what this pull pops.
    QpScheduler s;
    std::mt19937 rng(7);
    std::uniform_int_distribution<uint64_t> gap(0, 3000);
    std::bernoulli_distribution paced(0.6);
    for (uint32_t q = 0; q < 40; ++q)
    {
        if (paced(rng))
        {
            s.PushWaiting(q, gap(rng));
        }
        else
        {
            s.PushReady(q);
        }
    }
    uint64_t now = 0;
    for (int step = 0; step < 5000; ++step)
    {
        uint32_t guess = 0;
        ASSERT_TRUE(s.PeekLikelyNext(guess));
        uint32_t head = 0;
        if (!s.PeekReady(head) && s.NextWaitingPs() > now)
        {
            now = s.NextWaitingPs(); // nothing ready: the pull waits for the first pacing time
        }
        s.ReleaseDue(now, AlwaysCurrent);
        uint32_t qpn = 0;
        ASSERT_TRUE(s.PopReady(qpn));
        EXPECT_EQ(qpn, guess) << "step " << step;
        now += 100; // the frame's transmission
        if (paced(rng))
        {
            s.PushWaiting(qpn, now + gap(rng));
        }
        else
        {
            s.PushReady(qpn);
        }
    }
}

TEST(QpScheduler, NoLikelyNextWhenNothingIsReadyOrWaiting)
{
    QpScheduler s;
    uint32_t qpn = 99;
    EXPECT_FALSE(s.PeekLikelyNext(qpn));
    s.PushWaiting(4, 10);
    EXPECT_TRUE(s.PeekLikelyNext(qpn));
    EXPECT_EQ(qpn, 4u);
    s.PushReady(9);
    EXPECT_TRUE(s.PeekLikelyNext(qpn));
    EXPECT_EQ(qpn, 9u); // the ready list comes first
    s.ReleaseDue(10, AlwaysCurrent);
    ASSERT_TRUE(s.PopReady(qpn));
    ASSERT_TRUE(s.PopReady(qpn));
    EXPECT_FALSE(s.PeekLikelyNext(qpn));
}
