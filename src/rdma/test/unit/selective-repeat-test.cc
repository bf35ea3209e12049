/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of SelectiveRepeat, IRN's loss recovery (Mittal et al., SIGCOMM 2018): the
 * responder acknowledges every in-order packet, places an out-of-order one (counted
 * once) and answers it with a NACK carrying the cumulative acknowledgement and the PSN
 * that arrived; the requester marks that PSN received and resends the holes below it,
 * each once per recovery episode; a timeout resends everything unreported; the timeout
 * is RtoLow with at most RtoLowThreshold packets in flight, else RtoHigh.
 */
#include "recovery-test-util.h"

#include "ns3/nstime.h"
#include "ns3/selective-repeat.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace rdmatest;

namespace
{

Ptr<SelectiveRepeat>
Policy()
{
    return CreateObject<SelectiveRepeat>(); // RtoLow 100 us, RtoHigh 320 us, threshold 3
}

TEST(SelectiveRepeatTest, EveryInOrderPacketIsAcked)
{
    RecvQueuePair rq;
    for (uint32_t psn = 0; psn < 3; ++psn)
    {
        const RecvReply r = Policy()->OnData(rq, Data(psn), 16, Time(0));
        ASSERT_TRUE(r.send) << "AckInterval does not apply";
        EXPECT_EQ(r.type, RdmaPacketType::ACK);
        EXPECT_EQ(r.psn, psn);
        EXPECT_EQ(r.deliveredBytes, kPayload);
    }
}

TEST(SelectiveRepeatTest, AnOutOfOrderPacketIsPlacedOnceAndNacked)
{
    Ptr<SelectiveRepeat> sr = Policy();
    RecvQueuePair rq;
    const RecvReply r = sr->OnData(rq, Data(2), 1, Time(0));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.type, RdmaPacketType::NACK);
    EXPECT_EQ(r.psn, 0u) << "the cumulative acknowledgement: PSN 0 is expected";
    EXPECT_TRUE(r.outOfOrder);
    EXPECT_EQ(r.deliveredBytes, kPayload) << "placed, not dropped";
    const RecvReply dup = sr->OnData(rq, Data(2), 1, Time(0));
    EXPECT_TRUE(dup.send);
    EXPECT_EQ(dup.deliveredBytes, 0u) << "counted once";
}

TEST(SelectiveRepeatTest, FillingTheHoleMovesPastEveryPlacedPacket)
{
    Ptr<SelectiveRepeat> sr = Policy();
    RecvQueuePair rq;
    sr->OnData(rq, Data(2), 1, Time(0));
    sr->OnData(rq, Data(3), 1, Time(0));
    EXPECT_EQ(sr->OnData(rq, Data(0), 1, Time(0)).psn, 0u);
    const RecvReply r = sr->OnData(rq, Data(1), 1, Time(0));
    EXPECT_EQ(r.type, RdmaPacketType::ACK);
    EXPECT_EQ(r.psn, 3u) << "1 fills the hole: 0-3 are now in sequence";
    EXPECT_EQ(r.deliveredBytes, kPayload);
    EXPECT_EQ(rq.expectedPsn, 4u);
}

TEST(SelectiveRepeatTest, ADuplicateIsAcked)
{
    Ptr<SelectiveRepeat> sr = Policy();
    RecvQueuePair rq;
    sr->OnData(rq, Data(0), 1, Time(0));
    const RecvReply r = sr->OnData(rq, Data(0), 1, Time(0));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.type, RdmaPacketType::ACK);
    EXPECT_EQ(r.deliveredBytes, 0u);
}

TEST(SelectiveRepeatTest, ANackMarksThePsnAndStartsAnEpisodeFromTheCumulativeAck)
{
    SendQueuePair qp = InFlight(0, 10);
    Policy()->OnNack(qp, Nack(0, 5), MicroSeconds(7));
    ASSERT_GT(qp.sacked.size(), 5u);
    EXPECT_TRUE(qp.sacked[5]);
    EXPECT_EQ(qp.retxNext, 0u);
    EXPECT_EQ(qp.recoverHigh, 5u) << "resend the holes below the reported PSN";
    EXPECT_TRUE(qp.InRecovery());
    EXPECT_EQ(qp.sndNxt, 10u) << "new data continues after the holes";
    EXPECT_EQ(qp.lastProgress, MicroSeconds(7));
}

TEST(SelectiveRepeatTest, ALaterNackOfTheSameEpisodeDoesNotRescan)
{
    Ptr<SelectiveRepeat> sr = Policy();
    SendQueuePair qp = InFlight(0, 10);
    sr->OnNack(qp, Nack(0, 5), Time(0));
    qp.retxNext = 3; // holes 0-2 resent already
    sr->OnNack(qp, Nack(0, 7), Time(0));
    EXPECT_EQ(qp.retxNext, 3u) << "each hole is resent once per episode";
    EXPECT_EQ(qp.recoverHigh, 7u);
}

TEST(SelectiveRepeatTest, ANewEpisodeStartsOnceTheCumulativeAckPassedTheOld)
{
    Ptr<SelectiveRepeat> sr = Policy();
    SendQueuePair qp = InFlight(0, 10);
    sr->OnNack(qp, Nack(0, 5), Time(0));
    qp.retxNext = 5;
    qp.sndUna = 6; // everything up to 5 acknowledged (as the NIC applies it)
    qp.sacked.clear();
    sr->OnNack(qp, Nack(6, 8), Time(0));
    EXPECT_EQ(qp.retxNext, 6u);
    EXPECT_EQ(qp.recoverHigh, 8u);
}

TEST(SelectiveRepeatTest, ANackOutsideTheWindowIsIgnored)
{
    Ptr<SelectiveRepeat> sr = Policy();
    SendQueuePair qp = InFlight(4, 10);
    sr->OnNack(qp, Nack(4, 10), MicroSeconds(1));
    sr->OnNack(qp, Nack(4, 3), MicroSeconds(1));
    EXPECT_TRUE(qp.sacked.empty());
    EXPECT_FALSE(qp.InRecovery());
    EXPECT_EQ(qp.lastProgress, Time(0));
}

TEST(SelectiveRepeatTest, ATimeoutResendsEverythingUnreported)
{
    SendQueuePair qp = InFlight(4, 10);
    Policy()->OnTimeout(qp, MilliSeconds(1));
    EXPECT_EQ(qp.retxNext, 4u);
    EXPECT_EQ(qp.recoverHigh, 10u);
    EXPECT_EQ(qp.sndNxt, 10u) << "no go-back: new data follows the resends";
    EXPECT_EQ(qp.lastProgress, MilliSeconds(1));
}

TEST(SelectiveRepeatTest, TheTimeoutIsLowWithFewPacketsInFlight)
{
    Ptr<SelectiveRepeat> sr = Policy();
    EXPECT_EQ(sr->GetRto(InFlight(10, 13)), MicroSeconds(100)) << "3 in flight";
    EXPECT_EQ(sr->GetRto(InFlight(10, 14)), MicroSeconds(320)) << "4 in flight";
    sr->SetAttribute("RtoLowThreshold", UintegerValue(4));
    EXPECT_EQ(sr->GetRto(InFlight(10, 14)), MicroSeconds(100));
}

} // namespace
