/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of DirectPlacement: every packet carries its placement, so the responder
 * accepts packets in any order (each counted once), acknowledges cumulatively every
 * AckInterval arrivals, for a duplicate, and once a packet that asks for it and
 * everything before it have arrived; it never NACKs. The requester goes back on a NACK
 * or a timeout, as go-back-N does.
 */
#include "recovery-test-util.h"

#include "ns3/direct-placement.h"
#include "ns3/nstime.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace rdmatest;

namespace
{

Ptr<DirectPlacement>
Policy()
{
    return CreateObject<DirectPlacement>();
}

TEST(DirectPlacementTest, PacketsInAnyOrderAreAcceptedOnce)
{
    Ptr<DirectPlacement> dp = Policy();
    RecvQueuePair rq;
    const RecvReply late = dp->OnData(rq, Data(1), 16, Time(0));
    EXPECT_EQ(late.deliveredBytes, kPayload);
    EXPECT_TRUE(late.outOfOrder);
    EXPECT_EQ(dp->OnData(rq, Data(0), 16, Time(0)).deliveredBytes, kPayload);
    EXPECT_EQ(rq.expectedPsn, 2u);
    EXPECT_EQ(dp->OnData(rq, Data(1), 16, Time(0)).deliveredBytes, 0u) << "counted once";
}

TEST(DirectPlacementTest, NeverNacks)
{
    Ptr<DirectPlacement> dp = Policy();
    RecvQueuePair rq;
    for (uint32_t psn : {5u, 3u, 9u, 1u, 0u})
    {
        const RecvReply r = dp->OnData(rq, Data(psn), 1, Time(0));
        ASSERT_TRUE(r.send) << "AckInterval 1: every arrival";
        EXPECT_EQ(r.type, RdmaPacketType::ACK);
    }
}

TEST(DirectPlacementTest, AcksCumulativelyEveryAckIntervalArrivals)
{
    Ptr<DirectPlacement> dp = Policy();
    RecvQueuePair rq;
    EXPECT_FALSE(dp->OnData(rq, Data(0), 3, Time(0)).send);
    EXPECT_FALSE(dp->OnData(rq, Data(2), 3, Time(0)).send);
    const RecvReply r = dp->OnData(rq, Data(3), 3, Time(0));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.psn, 0u) << "cumulative: 1 is still missing";
}

TEST(DirectPlacementTest, ARequestedAckWaitsForEverythingBeforeIt)
{
    Ptr<DirectPlacement> dp = Policy();
    RecvQueuePair rq;
    EXPECT_FALSE(dp->OnData(rq, Data(2, RdmaHeader::FLAG_ACK_REQUEST), 16, Time(0)).send);
    EXPECT_FALSE(dp->OnData(rq, Data(0), 16, Time(0)).send);
    const RecvReply r = dp->OnData(rq, Data(1), 16, Time(0));
    ASSERT_TRUE(r.send) << "the message's last packet and all before it have arrived";
    EXPECT_EQ(r.psn, 2u);
}

TEST(DirectPlacementTest, ADuplicateIsAcked)
{
    Ptr<DirectPlacement> dp = Policy();
    RecvQueuePair rq;
    dp->OnData(rq, Data(0), 16, Time(0));
    dp->OnData(rq, Data(1), 16, Time(0));
    const RecvReply r = dp->OnData(rq, Data(0), 16, Time(0));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.psn, 1u);
    EXPECT_EQ(r.deliveredBytes, 0u);
}

TEST(DirectPlacementTest, NackAndTimeoutGoBack)
{
    Ptr<DirectPlacement> dp = Policy();
    SendQueuePair qp = InFlight(5, 10);
    dp->OnNack(qp, Nack(8, 8), MicroSeconds(1));
    EXPECT_EQ(qp.sndNxt, 8u);
    dp->OnTimeout(qp, MicroSeconds(2));
    EXPECT_EQ(qp.sndNxt, 5u);
    EXPECT_EQ(qp.lastProgress, MicroSeconds(2));
    EXPECT_EQ(dp->GetRto(qp), MilliSeconds(1)) << "RetransmissionTimeout";
}

} // namespace
