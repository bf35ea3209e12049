/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the HPCC sender (Hpcc), driven by hand-built INT records (IntHop::Pack)
 * and a fake clock (no simulation).
 *
 * Specification (docs/design.md, "HPCC"; Li et al. SIGCOMM 2019), per ACK:
 *  - per hop i, against the previous ACK's record of that hop: txRate = dTxBytes/dts;
 *    u_i = min(qlen, qlen_prev)/(B_i T) + txRate/B_i; u = max_i u_i, tau = that hop's
 *    dts capped at T; U = (1 - tau/T) U + (tau/T) u;
 *  - W = Wc/(U/eta) + W_AI if U >= eta or incStage >= maxStage (incStage -> 0),
 *    else W = Wc + W_AI (incStage + 1); Wc = W and the stage change only when the ACK
 *    passes the sndNxt recorded at the last Wc update; every ACK recomputes W from Wc;
 *  - rate = W/T, in flight <= W, W_init = line rate x T, W within [MinRate x T, W_init];
 *  - the first ACK only stores the records; a change of the hop count re-stores them.
 * Choices of hpcc.h where the specification is silent: U starts at 1 (HPCC simulator);
 * a record whose timestamp did not advance, or is older than the stored one, is skipped;
 * after a silence of a quarter of a counter's wrap period the records are re-stored;
 * only the first (hops - 1) records (the forward path's switches) are used.
 *
 * Numbers, chosen so that every INT field is exact (tx in 128-byte units, queue in
 * 80-byte units):
 *   line rate B = 100 Gb/s = 12.5e9 B/s, T = 10.24 us:
 *   B T = 128000 B = W_init, so the rate at W_init is exactly 100 Gb/s;
 *   W_AI = 50 Mb/s x (100G/100G) x 10.24 us / 8 = 64 B;
 *   min window (MinRate 1 Gb/s) = 1e9 x 10.24e-6 / 8 = 1280 B;
 *   50 Gb/s for T: 64000 B = 500 x 128; 100 Gb/s for T: 128000 B = 1000 x 128;
 *   95 Gb/s for T: 121600 B = 950 x 128;
 *   queue B T/2 = 64000 B = 800 x 80 -> adds 0.5; 0.9 B T = 115200 B = 1440 x 80 -> 0.9.
 * With dts = T the EWMA weight is 1 and U becomes u exactly.
 * Tolerances: U and windows are doubles computed from exact integers; 1e-9 relative.
 */

#include "fake-cc-clock.h"

#include "ns3/congestion-control.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"
#include "ns3/hpcc.h"
#include "ns3/int-hop.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL;     // 100 Gb/s
constexpr int64_t kTNs = 10240;                 // T
constexpr double kBT = 128000;                  // B x T = W_init (bytes)
constexpr double kWai = 64;                     // W_AI (bytes)
constexpr double kWmin = 1280;                  // MinRate x T (bytes)
constexpr uint64_t kHalfRateBytes = 64000;      // 50 Gb/s over T
constexpr uint64_t kFullRateBytes = 128000;     // 100 Gb/s over T
constexpr uint64_t kHalfBtQueue = 64000;        // B T / 2
constexpr uint64_t kNineTenthsBtQueue = 115200; // 0.9 B T

constexpr double
Tol(double x)
{
    return 1e-9 * (x < 0 ? -x : x) + 1e-12;
}

/// The fake clock: tests set `now`.
using rdmatest::FakeClock;

/// What one hop saw between the previous ACK's record and this one.
struct Step
{
    uint64_t dtsNs;   ///< time since this hop's previous record
    uint64_t txBytes; ///< bytes the hop sent meanwhile
    uint64_t qlen;    ///< queue left behind by the packet (bytes)
};

class HpccTest : public ::testing::Test
{
  protected:
    /// Create and Init a controller on a path with \p switches switch hops.
    void Make(uint32_t switches = 1,
              const std::vector<std::pair<std::string, std::string>>& attrs = {},
              uint64_t lineRate = kLine)
    {
        cc = CreateObject<Hpcc>();
        for (const auto& [k, v] : attrs)
        {
            cc->SetAttribute(k, StringValue(v));
        }
        clock.now = Time(0);
        CcContext ctx;
        ctx.lineRate = lineRate;
        ctx.baseRtt = NanoSeconds(kTNs);
        ctx.fabricBaseRtt = NanoSeconds(kTNs);
        ctx.mtu = 1024;
        ctx.hops = switches + 1; // links: NIC -> switch ... -> switch -> receiver
        ctx.clock = &clock;
        cc->Init(ctx);
        ts.assign(rdmawire::kMaxIntHops, 0);
        tx.assign(rdmawire::kMaxIntHops, 0);
    }

    /// An ACK whose hop i advanced by steps[i]; the clock advances by the longest dts.
    CcAck Ack(const std::vector<Step>& steps, uint32_t ackPsn, uint32_t sndNxt)
    {
        CcAck a;
        a.ackPsn = ackPsn;
        a.sndNxt = sndNxt;
        a.ackedBytes = 1024;
        a.intHops = static_cast<uint8_t>(steps.size());
        uint64_t longest = 0;
        for (size_t i = 0; i < steps.size(); ++i)
        {
            ts[i] += steps[i].dtsNs;
            tx[i] += steps[i].txBytes;
            a.intStack[i] = IntHop::Pack(kLine, ts[i], tx[i], steps[i].qlen);
            longest = std::max(longest, steps[i].dtsNs);
        }
        clock.now += NanoSeconds(longest);
        return a;
    }

    /// The first ACK (stores the records), with queue \p qlen on every hop.
    void Start(uint32_t hops = 1, uint64_t qlen = 0, uint32_t sndNxt = 10)
    {
        cc->OnAck(Ack(std::vector<Step>(hops, Step{0, 0, qlen}), 1, sndNxt));
    }

    FakeClock clock;
    Ptr<Hpcc> cc;
    std::vector<uint64_t> ts; ///< cumulative stamp of each hop (ns, before wrapping)
    std::vector<uint64_t> tx; ///< cumulative bytes of each hop (before wrapping)
};

TEST_F(HpccTest, NeedsIntRecords)
{
    Make();
    EXPECT_TRUE(cc->NeedsInt());
    EXPECT_EQ(cc->GetName(), "hpcc");
}

TEST_F(HpccTest, TIsTheFabricBaseRtt)
{
    // The path's own base RTT differs from the fabric's largest: T is the latter.
    cc = CreateObject<Hpcc>();
    CcContext ctx;
    ctx.lineRate = kLine;
    ctx.baseRtt = MicroSeconds(3);
    ctx.fabricBaseRtt = NanoSeconds(kTNs);
    ctx.clock = &clock;
    cc->Init(ctx);
    EXPECT_EQ(cc->GetT(), NanoSeconds(kTNs));
    EXPECT_NEAR(cc->GetInitialWindow(), kBT, Tol(kBT));
}

TEST_F(HpccTest, StartsWithWindowLineRateTimesTAndLineRate)
{
    Make();
    EXPECT_NEAR(cc->GetCurrentWindow(), kBT, Tol(kBT));
    EXPECT_EQ(cc->GetWindow(), 128000u);
    EXPECT_EQ(cc->GetRate(), kLine);
    EXPECT_NEAR(cc->GetWindowAi(), kWai, Tol(kWai));
}

TEST_F(HpccTest, WindowAiScalesWithLineRate)
{
    // At 25 Gb/s: W_AI = 50 Mb/s x (25/100) x 10.24 us / 8 = 16 B; W_init = 32000 B.
    Make(1, {}, 25000000000ULL);
    EXPECT_NEAR(cc->GetWindowAi(), 16.0, Tol(16.0));
    EXPECT_NEAR(cc->GetInitialWindow(), 32000.0, Tol(32000.0));
}

TEST_F(HpccTest, FirstAckOnlyStoresRecords)
{
    Make();
    // A huge queue in the first record: there is nothing to take a difference with, so U (starts at
    // 1), W and Wc stay as they were.
    cc->OnAck(Ack({Step{5000, 64000, 10 * kHalfBtQueue}}, 1, 10));
    EXPECT_DOUBLE_EQ(cc->GetUtilization(), 1.0);
    EXPECT_NEAR(cc->GetCurrentWindow(), kBT, Tol(kBT));
    EXPECT_NEAR(cc->GetReferenceWindow(), kBT, Tol(kBT));
}

TEST_F(HpccTest, TxRateHalfTheLinkGivesHalfUtilization)
{
    Make();
    Start();
    // 64000 B in 10.24 us = 50 Gb/s, no queue: u = 0.5; dts = T so U = u.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}}, 2, 10));
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
}

TEST_F(HpccTest, QueueOfHalfBdpAddsHalf)
{
    Make();
    Start(1, kHalfBtQueue);
    // 50 Gb/s and a queue of B T / 2 in both records: u = 0.5 + 0.5.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, kHalfBtQueue}}, 2, 10));
    EXPECT_NEAR(cc->GetUtilization(), 1.0, Tol(1.0));
}

TEST_F(HpccTest, QueueTermTakesTheSmallerOfTheTwoRecords)
{
    Make();
    Start(1, kHalfBtQueue);
    // The queue drained: min(0, B T/2) = 0, u = 0.5.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}}, 2, 10));
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
    // A queue appears in the new record only: min(B T/2, 0) = 0 again.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, kHalfBtQueue}}, 3, 10));
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
}

TEST_F(HpccTest, UtilizationIsTheMaxOverHopsWithThatHopsTau)
{
    Make(2);
    Start(2, kHalfBtQueue); // hop 1 keeps a queue of B T/2 from here on
    // Both hops u = 0.5 over a whole T: hop 0 50 Gb/s, hop 1 idle with B T/2 queued.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}, Step{kTNs, 0, kHalfBtQueue}}, 2, 10));
    ASSERT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
    // hop 0: u = 0.5 over T; hop 1: 50 Gb/s over T/4 (16000 B) + B T/2 queue: u = 1.0. The max is
    // hop 1, weighted by its tau = T/4: U = 0.75 x 0.5 + 0.25 x 1.0 = 0.625. (Hop 0's tau, T, would
    // give U = 1.0.)
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}, Step{kTNs / 4, 16000, kHalfBtQueue}}, 3, 10));
    EXPECT_NEAR(cc->GetUtilization(), 0.625, Tol(0.625));
}

TEST_F(HpccTest, EwmaWeightIsTauOverT)
{
    Make();
    Start();
    // U starts at 1. 50 Gb/s over T/4 (16000 B = 125 x 128): u = 0.5, weight 1/4: U = 0.75 x 1 +
    // 0.25 x 0.5 = 0.875.
    cc->OnAck(Ack({Step{kTNs / 4, 16000, 0}}, 2, 10));
    EXPECT_NEAR(cc->GetUtilization(), 0.875, Tol(0.875));
}

TEST_F(HpccTest, TauIsCappedAtT)
{
    Make();
    Start();
    // 50 Gb/s over 2T (128000 B): u = 0.5; weight min(2T, T)/T = 1, so U = 0.5 (an uncapped weight
    // of 2 would give 2 x 0.5 - 1 = 0).
    cc->OnAck(Ack({Step{2 * kTNs, 128000, 0}}, 2, 10));
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
}

TEST_F(HpccTest, CountersWrappingAroundGiveTheSameUtilization)
{
    Make();
    // Put both counters just below their wrap: ts 2^24 - T/2 ns, tx (2^20 - 250) x 128 B.
    ts[0] = (1ULL << 24) - kTNs / 2;
    tx[0] = ((1ULL << 20) - 250) * 128;
    Start();
    // The next record has wrapped both (ts T/2, tx 250 x 128): dts = T, dtx = 64000 B, u = 0.5 as
    // without wrapping.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}}, 2, 10));
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
}

TEST_F(HpccTest, AcksWithinOneRttDoNotMoveTheReferenceWindow)
{
    Make();
    Start(1, kNineTenthsBtQueue,
          50); // first RTT ends when PSN 50 is acknowledged
    // u = 100 Gb/s + 0.9 B T queue = 1.9 over a whole T: U = 1.9 >= eta, so W = Wc / (1.9/0.95) +
    // W_AI = 128000/2 + 64 = 64064, computed from Wc = W_init on every ACK (not compounded: 64064,
    // not 32096, on the second ACK).
    for (uint32_t psn = 2; psn <= 50; ++psn)
    {
        cc->OnAck(Ack({Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}}, psn, 60));
        ASSERT_NEAR(cc->GetUtilization(), 1.9, Tol(1.9));
        EXPECT_NEAR(cc->GetCurrentWindow(), 64064, Tol(64064)) << "ack " << psn;
        EXPECT_NEAR(cc->GetReferenceWindow(), kBT, Tol(kBT)) << "ack " << psn;
    }
}

TEST_F(HpccTest, AckPassingTheRecordedSndNxtUpdatesTheReferenceWindow)
{
    Make();
    Start(1, kNineTenthsBtQueue, 50);
    cc->OnAck(Ack({Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}}, 50, 60));
    ASSERT_NEAR(cc->GetReferenceWindow(), kBT, Tol(kBT)) << "ackPsn 50 is not past 50";
    // ackPsn 51: PSN 50, sent after the first ACK, is acknowledged: Wc = W = 64064, and sndNxt 60
    // is recorded for the next RTT.
    cc->OnAck(Ack({Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}}, 51, 60));
    EXPECT_NEAR(cc->GetReferenceWindow(), 64064, Tol(64064));
    // The next ACKs work from the new Wc: W = 64064/2 + 64 = 32096, Wc unchanged until an ACK
    // passes 60.
    cc->OnAck(Ack({Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}}, 60, 70));
    EXPECT_NEAR(cc->GetCurrentWindow(), 32096, Tol(32096));
    EXPECT_NEAR(cc->GetReferenceWindow(), 64064, Tol(64064));
    cc->OnAck(Ack({Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}}, 61, 70));
    EXPECT_NEAR(cc->GetReferenceWindow(), 32096, Tol(32096));
}

TEST_F(HpccTest, SendTimeBoundaryUsesTheAckedPacketsSendTimeNotPsns)
{
    // RttBoundary SendTime (for per-destination controllers shared by QPs with unrelated
    // PSNs): the RTT has passed when the ACKed packet left after the last update.
    Make(1, {{"RttBoundary", "SendTime"}});
    clock.now = MicroSeconds(100);
    Start(1, kNineTenthsBtQueue, 10); // update point: t0 = 100 us
    // Another QP's ACK with large PSNs (the PSN rule would fire: 1000 > 10), for a packet
    // sent at t0 + T - 2T = t0 - T, before t0: not a new RTT, Wc stays 128000.
    CcAck a = Ack({Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}}, 1000, 1010);
    a.rtt = NanoSeconds(2 * kTNs);
    cc->OnAck(a);
    ASSERT_NEAR(cc->GetCurrentWindow(), 64064, Tol(64064)); // U = 1.9
    EXPECT_NEAR(cc->GetReferenceWindow(), kBT, Tol(kBT));
    // An ACK with small PSNs (the PSN rule would not fire: 2 <= 10) for a packet sent at
    // t0 + 2T - T/2, after t0: Wc = W = 64064.
    CcAck b = Ack({Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}}, 2, 5);
    b.rtt = NanoSeconds(kTNs / 2);
    cc->OnAck(b);
    EXPECT_NEAR(cc->GetReferenceWindow(), 64064, Tol(64064));
}

/// Fixture step: one RTT at U = 1.9 brings Wc from 128000 to 64064 (multiplicative).
class HpccStageTest : public HpccTest
{
  protected:
    void HalveReference(uint32_t maxStage)
    {
        Make(1, {{"MaxStage", std::to_string(maxStage)}});
        Start(1, kNineTenthsBtQueue, 1);
        next = 2;
        Update(kFullRateBytes, kNineTenthsBtQueue); // U = 1.9
        ASSERT_NEAR(cc->GetReferenceWindow(), 64064, Tol(64064));
        ASSERT_EQ(cc->GetIncStage(), 0u);
    }

    /// One once-per-RTT update over a whole T (U becomes u).
    void Update(uint64_t txBytes, uint64_t qlen)
    {
        cc->OnAck(Ack({Step{kTNs, txBytes, qlen}}, next, next));
        ++next;
    }

    uint32_t next = 2;
};

TEST_F(HpccStageTest, AboveEtaIsMultiplicative)
{
    // Covered by HalveReference: U = 1.9 >= 0.95, W = 128000 x 0.95/1.9 + 64.
    HalveReference(5);
    EXPECT_NEAR(cc->GetCurrentWindow(), 64064, Tol(64064));
}

TEST_F(HpccStageTest, BelowEtaWithStagesLeftIsAdditive)
{
    HalveReference(5);
    // U = 0.5 < 0.95 and incStage 0 < 5: W = Wc + W_AI = 64128, stage 1.
    Update(kHalfRateBytes, 0);
    EXPECT_NEAR(cc->GetCurrentWindow(), 64064 + kWai, Tol(64128));
    EXPECT_EQ(cc->GetIncStage(), 1u);
}

TEST_F(HpccStageTest, UAtEtaIsMultiplicative)
{
    HalveReference(5);
    Update(kHalfRateBytes, 0); // additive, stage 1
    ASSERT_EQ(cc->GetIncStage(), 1u);
    // 95 Gb/s over T (121600 B): U = 0.95 = eta exactly. Multiplicative: W = Wc/(0.95/0.95) + W_AI
    // = 64128 + 64 (the same W as additive) but the stage resets.
    Update(121600, 0);
    ASSERT_DOUBLE_EQ(cc->GetUtilization(), 0.95);
    EXPECT_NEAR(cc->GetCurrentWindow(), 64192, Tol(64192));
    EXPECT_EQ(cc->GetIncStage(), 0u);
}

TEST_F(HpccStageTest, MaxStageAdditiveStepsThenMultiplicative)
{
    HalveReference(2);
    // U = 0.5 each RTT: stage 0 -> additive (64128, stage 1), stage 1 -> additive (64192, stage 2),
    // stage 2 >= MaxStage -> multiplicative even below eta: W = 64192 x 0.95/0.5 + 64 = 122028.8,
    // stage 0.
    Update(kHalfRateBytes, 0);
    EXPECT_NEAR(cc->GetReferenceWindow(), 64128, Tol(64128));
    EXPECT_EQ(cc->GetIncStage(), 1u);
    Update(kHalfRateBytes, 0);
    EXPECT_NEAR(cc->GetReferenceWindow(), 64192, Tol(64192));
    EXPECT_EQ(cc->GetIncStage(), 2u);
    Update(kHalfRateBytes, 0);
    EXPECT_NEAR(cc->GetReferenceWindow(), 122028.8, Tol(122028.8));
    EXPECT_EQ(cc->GetIncStage(), 0u);
}

TEST_F(HpccStageTest, DefaultMaxStageZeroIsAlwaysMultiplicative)
{
    HalveReference(0);
    // U = 0.5 < eta but MaxStage 0: W = 64064 x 0.95/0.5 + 64 = 121785.6.
    Update(kHalfRateBytes, 0);
    EXPECT_NEAR(cc->GetCurrentWindow(), 121785.6, Tol(121785.6));
}

TEST_F(HpccStageTest, RateIsWindowOverT)
{
    HalveReference(0);
    // 64064 B x 8 / 10.24 us = 50.05 Gb/s.
    EXPECT_EQ(cc->GetRate(), 50050000000ULL);
}

TEST_F(HpccStageTest, InFlightLimitIsTheWindow)
{
    HalveReference(0);
    EXPECT_EQ(cc->GetWindow(), 64064u);
}

TEST_F(HpccTest, WindowNeverExceedsLineRateTimesT)
{
    Make();
    Start(1, 0, 1);
    // A once-per-RTT update at U = 0.5 from Wc = W_init: 128000 x 1.9 + 64 is clamped to
    // 128000 (W and the new Wc), the rate to 100G.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}}, 2, 2));
    EXPECT_NEAR(cc->GetCurrentWindow(), kBT, Tol(kBT));
    EXPECT_NEAR(cc->GetReferenceWindow(), kBT, Tol(kBT));
    EXPECT_EQ(cc->GetRate(), kLine);
}

TEST_F(HpccTest, WindowNeverBelowMinRateTimesT)
{
    // MinRate 60 Gb/s: min window 60e9 x 10.24e-6 / 8 = 76800 B; U = 1.9 would give 64064.
    // The clamped value is also the new Wc (once-per-RTT update).
    Make(1, {{"MinRate", "60Gbps"}});
    Start(1, kNineTenthsBtQueue, 1);
    cc->OnAck(Ack({Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}}, 2, 2));
    EXPECT_NEAR(cc->GetCurrentWindow(), 76800, Tol(76800));
    EXPECT_NEAR(cc->GetReferenceWindow(), 76800, Tol(76800));
    EXPECT_EQ(cc->GetRate(), 60000000000ULL);
}

TEST_F(HpccTest, DefaultMinimumIsOneGbpsTimesT)
{
    Make();
    Start(1, kNineTenthsBtQueue, 1);
    // Ten RTTs at U = 1.9 halve Wc ten times (128000 / 2^10 = 125 B plus the W_AI terms, below
    // 1280): the window stops at 1 Gb/s x T = 1280 B.
    for (uint32_t psn = 2; psn < 12; ++psn)
    {
        cc->OnAck(Ack({Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}}, psn, psn));
    }
    EXPECT_NEAR(cc->GetCurrentWindow(), kWmin, Tol(kWmin));
    EXPECT_EQ(cc->GetRate(), 1000000000ULL);
}

TEST_F(HpccTest, HopCountChangeRestoresTheRecords)
{
    Make(2);
    Start(1);
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}}, 2, 10));
    ASSERT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
    // The path now has two switches: the records cannot be compared with the stored one. Hop 1's
    // values would give u = 1.9 if used: U stays 0.5.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}, Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}},
                  3,
                  10));
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
    // From the next ACK on both hops count: hop 1 at 50 Gb/s with the 0.9 B T queue in both of its
    // records: u = 1.4 over T.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}, Step{kTNs, kHalfRateBytes, kNineTenthsBtQueue}},
                  4,
                  10));
    EXPECT_NEAR(cc->GetUtilization(), 1.4, Tol(1.4));
}

TEST_F(HpccTest, ReversePathRecordsAreIgnored)
{
    Make(1); // one switch on the forward path
    // A switch that stamps the ACK on its way back appends a second record: it must not count (it
    // would give u = 1.9).
    cc->OnAck(Ack({Step{0, 0, 0}, Step{0, 0, kNineTenthsBtQueue}}, 1, 10));
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}, Step{kTNs, kFullRateBytes, kNineTenthsBtQueue}},
                  2,
                  10));
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
}

TEST_F(HpccTest, RecordWithoutNewTimestampIsSkipped)
{
    Make();
    Start();
    // dts = 0: no interval to measure a rate over. U (1) and W stay.
    cc->OnAck(Ack({Step{0, 0, kNineTenthsBtQueue}}, 2, 10));
    EXPECT_DOUBLE_EQ(cc->GetUtilization(), 1.0);
    EXPECT_NEAR(cc->GetCurrentWindow(), kBT, Tol(kBT));
}

TEST_F(HpccTest, OlderRecordIsSkipped)
{
    Make();
    Start();
    const CcAck older = Ack({Step{kTNs / 2, kHalfRateBytes / 2, 0}}, 2, 10);
    const CcAck newer = Ack({Step{kTNs, kHalfRateBytes, 0}}, 3, 10);
    cc->OnAck(newer); // 50 Gb/s over 1.5 T (96000 B): u = 0.5, weight 1
    ASSERT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
    // The overtaken ACK's record is older than the stored one: its negative deltas would wrap to
    // ~16.8 ms and 128 MiB. It is skipped and U stays 0.5.
    cc->OnAck(older);
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
    // The next record is compared with the newer one: 50 Gb/s over T, U = 0.5.
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}}, 4, 10));
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
}

TEST_F(HpccTest, LongSilenceRestoresTheRecords)
{
    Make();
    Start();
    // 20 ms without ACK: the 24-bit timestamp wraps every 16.8 ms and the 20-bit byte counter every
    // 10.7 ms at 100 Gb/s, so deltas cannot be trusted. Here the hop sent 16.8 ms + T worth of
    // stamps and one full counter wrap plus 64000 B: taken at face value that is u = 0.5 over T;
    // the controller must ignore it (U stays 1).
    clock.now += MilliSeconds(20);
    cc->OnAck(Ack({Step{(1ULL << 24) + kTNs, (1ULL << 27) + kHalfRateBytes, 0}}, 2, 10));
    EXPECT_DOUBLE_EQ(cc->GetUtilization(), 1.0);
    // Deltas work again from the re-stored record.
    cc->OnAck(Ack({Step{kTNs, kFullRateBytes, 0}}, 3, 10));
    EXPECT_NEAR(cc->GetUtilization(), 1.0, Tol(1.0));
    cc->OnAck(Ack({Step{kTNs, kHalfRateBytes, 0}}, 4, 10));
    EXPECT_NEAR(cc->GetUtilization(), 0.5, Tol(0.5));
}

TEST_F(HpccTest, DefaultsAreThePaperSimulationValues)
{
    Make();
    DoubleValue eta;
    UintegerValue stage;
    DataRateValue ai;
    DataRateValue minRate;
    cc->GetAttribute("Eta", eta);
    cc->GetAttribute("MaxStage", stage);
    cc->GetAttribute("RateAi", ai);
    cc->GetAttribute("MinRate", minRate);
    EXPECT_DOUBLE_EQ(eta.Get(), 0.95);
    EXPECT_EQ(stage.Get(), 0u);
    EXPECT_EQ(ai.Get().GetBitRate(), 50000000u);
    EXPECT_EQ(minRate.Get().GetBitRate(), 1000000000u);
}

} // namespace
