/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the loss-recovery rules for trimmed packets (FLAG_TRIMMED: a switch cut
 * the payload off, PacketTrimmer). Responder: a trimmed packet delivers nothing and is
 * NACKed (cumulative ACK expectedPsn; the NIC adds its PSN as sackPsn and FLAG_TRIMMED),
 * unless the responder already has that PSN; go-back-N NACKs one at the expected PSN at
 * once and one ahead of it when the packets before it have arrived. Requester: a trimmed
 * NACK resends exactly its PSN, first (selective repeat, direct placement), or goes back
 * to it (go-back-N). Fake clock: the policies take the time as an argument.
 */
#include "recovery-test-util.h"

#include "ns3/direct-placement.h"
#include "ns3/go-back-n.h"
#include "ns3/nstime.h"
#include "ns3/selective-repeat.h"

#include <gtest/gtest.h>
#include <limits>

using namespace ns3;
using namespace rdmatest;

namespace
{

RdmaHeader
Trimmed(uint32_t psn)
{
    RdmaHeader h = Data(psn, RdmaHeader::FLAG_TRIMMED);
    h.payload = 2; // what a 64-byte trimmed frame keeps
    return h;
}

RdmaHeader
TrimNack(uint32_t psn, uint32_t sackPsn)
{
    RdmaHeader h = Nack(psn, sackPsn);
    h.flags = RdmaHeader::FLAG_TRIMMED;
    return h;
}

} // namespace

TEST(TrimRecoveryTest, SelectiveRepeatNacksATrimmedPacketAndDeliversNothing)
{
    Ptr<SelectiveRepeat> sr = CreateObject<SelectiveRepeat>();
    RecvQueuePair rq;
    sr->OnData(rq, Data(0), 1, Time(0));
    // At the expected PSN and ahead of it: a NACK with the cumulative ACK, nothing placed.
    for (uint32_t psn : {1u, 3u})
    {
        const RecvReply r = sr->OnTrimmedData(rq, Trimmed(psn), Time(0));
        ASSERT_TRUE(r.send) << "psn " << psn;
        EXPECT_EQ(r.type, RdmaPacketType::NACK);
        EXPECT_EQ(r.psn, 1u) << "the cumulative acknowledgement";
        EXPECT_EQ(r.deliveredBytes, 0u);
        EXPECT_EQ(rq.expectedPsn, 1u);
    }
    EXPECT_TRUE(rq.placed.empty() || !rq.placed.back()) << "a trimmed packet is not placed";
    // Still expected: the full packet is accepted when it comes.
    const RecvReply full = sr->OnData(rq, Data(1), 1, Time(0));
    EXPECT_EQ(full.deliveredBytes, kPayload);
    EXPECT_EQ(rq.expectedPsn, 2u);
}

TEST(TrimRecoveryTest, ATrimmedCopyOfAPacketTheResponderHasIsNotAnswered)
{
    Ptr<SelectiveRepeat> sr = CreateObject<SelectiveRepeat>();
    RecvQueuePair rq;
    sr->OnData(rq, Data(0), 1, Time(0));
    sr->OnData(rq, Data(2), 1, Time(0)); // placed
    EXPECT_FALSE(sr->OnTrimmedData(rq, Trimmed(0), Time(0)).send) << "below expected";
    EXPECT_FALSE(sr->OnTrimmedData(rq, Trimmed(2), Time(0)).send) << "placed";
}

TEST(TrimRecoveryTest, SelectiveRepeatResendsExactlyTheTrimmedPsnFirst)
{
    Ptr<SelectiveRepeat> sr = CreateObject<SelectiveRepeat>();
    SendQueuePair qp = InFlight(10, 20);
    sr->OnTrimNack(qp, TrimNack(10, 15), MicroSeconds(3));
    EXPECT_FALSE(qp.InRecovery()) << "no scan of the PSNs below it: they are in flight";
    ASSERT_TRUE(qp.resendPending);
    EXPECT_EQ(qp.resendFrom, 15u);
    EXPECT_EQ(qp.Report(15), SendQueuePair::TRIM_NACKED);
    for (uint32_t psn = 10; psn < 20; ++psn)
    {
        EXPECT_EQ(qp.Report(psn) != SendQueuePair::UNREPORTED, psn == 15) << psn;
    }
    EXPECT_EQ(qp.lastProgress, MicroSeconds(3));
    // A lower one: the resend search starts there.
    sr->OnTrimNack(qp, TrimNack(10, 12), MicroSeconds(3));
    EXPECT_EQ(qp.resendFrom, 12u);
    // Resent (the NIC marks it), then trimmed again: to resend again.
    qp.SetReport(15, SendQueuePair::TRIM_RESENT);
    sr->OnTrimNack(qp, TrimNack(10, 15), MicroSeconds(4));
    EXPECT_EQ(qp.Report(15), SendQueuePair::TRIM_NACKED);
    // Outside [sndUna, sndNxt): nothing to resend.
    sr->OnTrimNack(qp, TrimNack(10, 9), MicroSeconds(5));
    sr->OnTrimNack(qp, TrimNack(10, 20), MicroSeconds(5));
    EXPECT_EQ(qp.sacked.size(), 6u) << "entries up to PSN 15 only";
}

TEST(TrimRecoveryTest, ASelectiveRepeatTimeoutResendsTrimmedPsnsByTheScan)
{
    // A resend that was lost too is resent by the timeout's scan, like any unreported PSN.
    Ptr<SelectiveRepeat> sr = CreateObject<SelectiveRepeat>();
    SendQueuePair qp = InFlight(10, 20);
    sr->OnNack(qp, Nack(10, 18), Time(0)); // 18 reported received
    sr->OnTrimNack(qp, TrimNack(10, 12), Time(0));
    qp.SetReport(12, SendQueuePair::TRIM_RESENT);
    sr->OnTrimNack(qp, TrimNack(10, 14), Time(0));
    sr->OnTimeout(qp, MicroSeconds(400));
    EXPECT_FALSE(qp.resendPending);
    EXPECT_EQ(qp.Report(12), SendQueuePair::UNREPORTED);
    EXPECT_EQ(qp.Report(14), SendQueuePair::UNREPORTED);
    EXPECT_EQ(qp.Report(18), SendQueuePair::SACKED);
    EXPECT_TRUE(qp.InRecovery());
}

TEST(TrimRecoveryTest, DirectPlacementResendsExactlyTheTrimmedPsn)
{
    Ptr<DirectPlacement> dp = CreateObject<DirectPlacement>();
    RecvQueuePair rq;
    const RecvReply r = dp->OnTrimmedData(rq, Trimmed(4), Time(0));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.type, RdmaPacketType::NACK);
    EXPECT_EQ(r.deliveredBytes, 0u);
    SendQueuePair qp = InFlight(0, 8);
    dp->OnTrimNack(qp, TrimNack(0, 4), Time(0));
    EXPECT_TRUE(qp.resendPending);
    EXPECT_EQ(qp.Report(4), SendQueuePair::TRIM_NACKED);
    EXPECT_EQ(qp.sndNxt, 8u) << "no go-back";
}

TEST(TrimRecoveryTest, GoBackNNacksATrimmedPacketAtTheExpectedPsnAtOnce)
{
    Ptr<GoBackN> gbn = CreateObject<GoBackN>(); // NackInterval 100 us
    RecvQueuePair rq;
    gbn->OnData(rq, Data(0), 1, Time(0));
    // A NACK for PSN 1 went out just now (a hole): a trimmed PSN 1 is NACKed regardless.
    gbn->OnData(rq, Data(2), 1, Time(0));
    const RecvReply r = gbn->OnTrimmedData(rq, Trimmed(1), MicroSeconds(1));
    ASSERT_TRUE(r.send);
    EXPECT_EQ(r.type, RdmaPacketType::NACK);
    EXPECT_EQ(r.psn, 1u);
    EXPECT_EQ(r.deliveredBytes, 0u);
    EXPECT_EQ(rq.expectedPsn, 1u);
}

TEST(TrimRecoveryTest, GoBackNNacksATrimmedPacketAheadOnceThePacketsBeforeItArrive)
{
    // Its header overtook PSNs 1 and 2 (the trim class is served first): NACKed when they
    // are in, not before (a NACK now would make the sender resend them too).
    Ptr<GoBackN> gbn = CreateObject<GoBackN>();
    RecvQueuePair rq;
    gbn->OnData(rq, Data(0), 1, Time(0));
    EXPECT_FALSE(gbn->OnTrimmedData(rq, Trimmed(3), Time(0)).send);
    const RecvReply one = gbn->OnData(rq, Data(1), 1, Time(0));
    EXPECT_EQ(one.type, RdmaPacketType::ACK);
    const RecvReply two = gbn->OnData(rq, Data(2), 1, MicroSeconds(1));
    ASSERT_TRUE(two.send);
    EXPECT_EQ(two.type, RdmaPacketType::NACK);
    EXPECT_EQ(two.psn, 3u) << "resend from the trimmed PSN (acknowledging below it)";
    EXPECT_EQ(two.deliveredBytes, kPayload);
    // Packets after it are out of order: no second NACK within NackInterval.
    EXPECT_FALSE(gbn->OnData(rq, Data(4), 1, MicroSeconds(2)).send);
}

TEST(TrimRecoveryTest, GoBackNNotesOnlyTheLowestTrimmedPacketAhead)
{
    // Also while a go-back is under way (the trimmed copy may be the go-back's own).
    Ptr<GoBackN> gbn = CreateObject<GoBackN>();
    RecvQueuePair rq;
    gbn->OnData(rq, Data(2), 1, Time(0)); // hole at 0: NACKed, the sender goes back
    EXPECT_FALSE(gbn->OnTrimmedData(rq, Trimmed(6), MicroSeconds(1)).send);
    EXPECT_FALSE(gbn->OnTrimmedData(rq, Trimmed(4), MicroSeconds(1)).send);
    for (uint32_t psn = 0; psn < 3; ++psn)
    {
        EXPECT_EQ(gbn->OnData(rq, Data(psn), 1, MicroSeconds(2)).type, RdmaPacketType::ACK);
    }
    const RecvReply r = gbn->OnData(rq, Data(3), 1, MicroSeconds(2));
    EXPECT_EQ(r.type, RdmaPacketType::NACK);
    EXPECT_EQ(r.psn, 4u);
    // PSN 6 was forgotten: a later out-of-order packet asks for it.
    EXPECT_EQ(rq.trimmedAhead, std::numeric_limits<uint32_t>::max());
}

TEST(TrimRecoveryTest, GoBackNGoesBackToATrimmedNack)
{
    Ptr<GoBackN> gbn = CreateObject<GoBackN>();
    SendQueuePair qp = InFlight(10, 20);
    gbn->OnTrimNack(qp, TrimNack(12, 12), Time(0));
    EXPECT_EQ(qp.sndNxt, 12u);
    EXPECT_FALSE(qp.resendPending);
}
