/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of GoBackN, RoCE's loss recovery (IB spec, RC transport): the responder
 * accepts only the expected PSN, acknowledges every AckInterval in-order packets and
 * each packet that asks for it, drops a packet beyond a hole and asks for the hole with
 * one NACK (again after NackInterval); the requester restarts from the PSN asked for,
 * and after a timeout from its oldest unacknowledged PSN.
 */
#include "recovery-test-util.h"

#include "ns3/go-back-n.h"
#include "ns3/nstime.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace rdmatest;

namespace
{

Ptr<GoBackN>
Policy()
{
    return CreateObject<GoBackN>(); // NackInterval 100 us, RetransmissionTimeout 1 ms
}

TEST(GoBackNTest, InOrderPacketsAreAcceptedAndAckedEveryAckInterval)
{
    RecvQueuePair rq;
    const RecvReply first = Policy()->OnData(rq, Data(0), 2, Time(0));
    EXPECT_FALSE(first.send);
    EXPECT_EQ(first.deliveredBytes, kPayload);
    const RecvReply second = Policy()->OnData(rq, Data(1), 2, Time(0));
    ASSERT_TRUE(second.send);
    EXPECT_EQ(second.type, RdmaPacketType::ACK);
    EXPECT_EQ(second.psn, 1u) << "acknowledges the last in-order PSN";
    EXPECT_EQ(second.deliveredBytes, kPayload);
    EXPECT_EQ(rq.expectedPsn, 2u);
}

TEST(GoBackNTest, APacketAskingForAnAckGetsOneAtOnce)
{
    RecvQueuePair rq;
    const RecvReply r = Policy()->OnData(rq, Data(0, RdmaHeader::FLAG_ACK_REQUEST), 16, Time(0));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.type, RdmaPacketType::ACK);
    EXPECT_EQ(r.psn, 0u);
}

TEST(GoBackNTest, APacketBeyondAHoleIsDroppedAndTheHoleNackedOnce)
{
    Ptr<GoBackN> gbn = Policy();
    RecvQueuePair rq;
    const RecvReply r = gbn->OnData(rq, Data(2), 1, MicroSeconds(10));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.type, RdmaPacketType::NACK);
    EXPECT_EQ(r.psn, 0u) << "the NACK names the PSN expected";
    EXPECT_TRUE(r.outOfOrder);
    EXPECT_EQ(r.deliveredBytes, 0u) << "dropped, not placed";
    EXPECT_EQ(rq.expectedPsn, 0u);

    const RecvReply again = gbn->OnData(rq, Data(3), 1, MicroSeconds(20));
    EXPECT_FALSE(again.send) << "one NACK per hole";
    EXPECT_TRUE(again.outOfOrder);
    EXPECT_EQ(again.deliveredBytes, 0u);
}

TEST(GoBackNTest, TheNackIsRepeatedAfterNackInterval)
{
    Ptr<GoBackN> gbn = Policy();
    RecvQueuePair rq;
    ASSERT_TRUE(gbn->OnData(rq, Data(2), 1, MicroSeconds(10)).send);
    EXPECT_FALSE(gbn->OnData(rq, Data(3), 1, MicroSeconds(109)).send);
    const RecvReply r = gbn->OnData(rq, Data(4), 1, MicroSeconds(110));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.type, RdmaPacketType::NACK);
    EXPECT_EQ(r.psn, 0u);
}

TEST(GoBackNTest, ANewHoleIsNackedAtOnce)
{
    Ptr<GoBackN> gbn = Policy();
    RecvQueuePair rq;
    ASSERT_TRUE(gbn->OnData(rq, Data(2), 1, MicroSeconds(10)).send);
    EXPECT_EQ(gbn->OnData(rq, Data(0), 1, MicroSeconds(11)).deliveredBytes, kPayload);
    const RecvReply r = gbn->OnData(rq, Data(3), 1, MicroSeconds(12));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.psn, 1u);
}

TEST(GoBackNTest, ADuplicateIsReAckedOnlyWhenItAsks)
{
    Ptr<GoBackN> gbn = Policy();
    RecvQueuePair rq;
    gbn->OnData(rq, Data(0), 1, Time(0));
    gbn->OnData(rq, Data(1), 1, Time(0));
    const RecvReply plain = gbn->OnData(rq, Data(0), 1, Time(0));
    EXPECT_FALSE(plain.send);
    EXPECT_EQ(plain.deliveredBytes, 0u) << "counted once";
    const RecvReply asking = gbn->OnData(rq, Data(1, RdmaHeader::FLAG_ACK_REQUEST), 1, Time(0));
    ASSERT_TRUE(asking.send);
    EXPECT_EQ(asking.type, RdmaPacketType::ACK);
    EXPECT_EQ(asking.psn, 1u);
    EXPECT_EQ(asking.deliveredBytes, 0u);
}

TEST(GoBackNTest, ANackRestartsFromTheExpectedPsn)
{
    SendQueuePair qp = InFlight(5, 10);
    Policy()->OnNack(qp, Nack(7, 8), MicroSeconds(3));
    EXPECT_EQ(qp.sndNxt, 7u);
    EXPECT_EQ(qp.lastProgress, MicroSeconds(3)) << "a NACK is progress: the RTO waits again";
    EXPECT_FALSE(qp.InRecovery()) << "no selective resend";
}

TEST(GoBackNTest, ANackBeyondWhatWasSentChangesNothing)
{
    SendQueuePair qp = InFlight(5, 10);
    Policy()->OnNack(qp, Nack(12, 12), MicroSeconds(3));
    EXPECT_EQ(qp.sndNxt, 10u);
}

TEST(GoBackNTest, ATimeoutRestartsFromTheOldestUnacknowledgedPsn)
{
    SendQueuePair qp = InFlight(5, 10);
    Policy()->OnTimeout(qp, MilliSeconds(2));
    EXPECT_EQ(qp.sndNxt, 5u);
    EXPECT_EQ(qp.lastProgress, MilliSeconds(2));
}

TEST(GoBackNTest, TheTimeoutIsTheRetransmissionTimeoutAttribute)
{
    Ptr<GoBackN> gbn = Policy();
    EXPECT_EQ(gbn->GetRto(InFlight(0, 1)), MilliSeconds(1));
    gbn->SetAttribute("RetransmissionTimeout", TimeValue(MicroSeconds(250)));
    EXPECT_EQ(gbn->GetRto(InFlight(0, 50)), MicroSeconds(250));
}

} // namespace
