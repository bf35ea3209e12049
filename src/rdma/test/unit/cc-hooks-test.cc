/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of CongestionControl::ImplementedHooks: the NIC skips on its packet path the
 * hooks a controller leaves out of it, so a hook left out must behave as the base
 * class's. Every registered algorithm is driven through a run of sends, ACKs (with
 * queueing delay, ECN echoes and INT records), CNPs, NACKs and timeouts on a fake clock:
 *  - a hook left out gives the base answer at every step (no window, no pacing delay, a
 *    recheck of Time::Max(), no probe, no INT, a zero RTO);
 *  - if OnAck is left out, a twin controller that never gets an ACK decides exactly the
 *    same (rate, window, RTO) as the one that gets them all;
 *  - if HOOK_PEER_RATES is left out, one whose peer group holds other QPs' rates (which
 *    the NIC then does not keep) decides exactly the same as one whose group holds none.
 */

#include "fake-cc-clock.h"

#include "ns3/congestion-control.h"
#include "ns3/core-module.h"
#include "ns3/int-hop.h"
#include "ns3/plugin-registry.h"

#include <gtest/gtest.h>
#include <initializer_list>
#include <string>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr uint32_t kMtu = 1000;
constexpr uint32_t kWire = 1078; // a data packet's wire bytes at that MTU (any value works)

/// One controller of \p tid on the fake clock, initialized for a 3-hop path.
Ptr<CongestionControl>
MakeController(TypeId tid, const rdmatest::FakeClock& clock, CcPeerGroup& peers)
{
    ObjectFactory f;
    f.SetTypeId(tid);
    Ptr<CongestionControl> cc = f.Create<CongestionControl>();
    CcContext ctx;
    ctx.lineRate = kLine;
    ctx.baseRtt = MicroSeconds(8);
    ctx.mtu = kMtu;
    ctx.hops = 3;
    ctx.fabricBaseRtt = MicroSeconds(10);
    ctx.peers = &peers;
    ctx.clock = &clock;
    cc->Init(ctx);
    return cc;
}

/// The base class's answer for every hook left out of \p hooks.
void
ExpectBaseAnswers(const std::string& name, uint8_t hooks, CongestionControl& cc, int step)
{
    if (!(hooks & CongestionControl::HOOK_WINDOW))
    {
        EXPECT_EQ(cc.GetWindow(), 0U) << name << " step " << step;
    }
    if (!(hooks & CongestionControl::HOOK_PACING))
    {
        EXPECT_EQ(cc.PacingDelay(kWire), Time(0)) << name << " step " << step;
        EXPECT_EQ(cc.PacingRecheck(), Time::Max()) << name << " step " << step;
    }
    if (!(hooks & CongestionControl::HOOK_PROBE))
    {
        EXPECT_FALSE(cc.WantsProbe()) << name << " step " << step;
    }
    if (!(hooks & CongestionControl::HOOK_INT))
    {
        EXPECT_FALSE(cc.NeedsInt()) << name << " step " << step;
    }
    if (!(hooks & CongestionControl::HOOK_RTO))
    {
        EXPECT_EQ(cc.GetRetransmissionTimeout(), Time(0)) << name << " step " << step;
    }
}

/// The queueing delay (us) at step \p step: it swings between none and 60 us (a queue
/// that builds and drains).
uint32_t
StepQueueUs(int step)
{
    return (step / 50) % 2 == 0 ? (step % 50) * 60 / 50 : 0;
}

/**
 * The ACK of step \p step, for the packet sent a queueing delay ago: every fourth is
 * CE-marked, and it carries one INT record per switch with a matching queue.
 * \param txBytes each switch's transmitted bytes, advanced by one packet
 */
CcAck
StepAck(int step, Time now, uint32_t sndNxt, uint32_t ackPsn, uint64_t (&txBytes)[3])
{
    const uint32_t queueUs = StepQueueUs(step);
    CcAck ack;
    ack.ackedBytes = kMtu;
    ack.rtt = MicroSeconds(8 + queueUs);
    ack.ecnEcho = step % 4 == 0 && queueUs > 10;
    ack.ackPsn = ackPsn;
    ack.sndNxt = sndNxt;
    ack.inflightBytes = uint64_t(sndNxt - ackPsn) * kMtu;
    ack.intHops = 3;
    for (int h = 0; h < 3; ++h)
    {
        txBytes[h] += kMtu + 78;
        ack.intStack[h] = IntHop::Pack(kLine,
                                       static_cast<uint64_t>(now.GetNanoSeconds()),
                                       txBytes[h],
                                       uint64_t(queueUs) * 12500);
    }
    return ack;
}

/// The CNPs, NACKs and timeouts of step \p step, to each of \p controllers.
void
StepSignals(int step, std::initializer_list<Ptr<CongestionControl>> controllers)
{
    for (const Ptr<CongestionControl>& c : controllers)
    {
        if (step % 97 == 0 && StepQueueUs(step) > 20)
        {
            c->OnCnp();
        }
        if (step % 499 == 0 && step > 0)
        {
            c->OnNack();
        }
        if (step % 1499 == 0 && step > 0)
        {
            c->OnTimeout();
        }
    }
}

} // namespace

// Rule: a hook left out of ImplementedHooks answers as the base class's at every step,
// and without OnAck the controller decides the same whether it gets ACKs or not.
TEST(CcHooksTest, AHookLeftOutBehavesAsTheBaseClass)
{
    int algorithms = 0;
    int withoutAck = 0;
    int withoutPeerRates = 0;
    for (const PluginRegistry::Plugin& a : PluginRegistry::CongestionControls().Plugins())
    {
        ++algorithms;
        rdmatest::FakeClock clock;
        CcPeerGroup peers;
        peers.activeQps = 1;
        CcPeerGroup twinPeers = peers;
        // Rates of QPs to the same destination that a NIC would not keep for a
        // controller that reads none (HOOK_PEER_RATES): seven at 3 Gb/s.
        CcPeerGroup blindPeers = peers;
        blindPeers.ratedQps = 7;
        blindPeers.rateSum = 7 * uint64_t(3e9);
        Ptr<CongestionControl> cc = MakeController(a.tid, clock, peers);
        Ptr<CongestionControl> twin = MakeController(a.tid, clock, twinPeers);
        Ptr<CongestionControl> blind = MakeController(a.tid, clock, blindPeers);
        const uint8_t hooks = cc->ImplementedHooks();
        const bool ratesMatter = hooks & CongestionControl::HOOK_PEER_RATES;
        withoutPeerRates += ratesMatter ? 0 : 1;
        ASSERT_EQ(hooks & ~CongestionControl::HOOK_ALL, 0) << a.name;
        ASSERT_EQ(twin->ImplementedHooks(), hooks) << a.name << ": constant per class";
        const bool ackMatters = hooks & CongestionControl::HOOK_ACK;
        withoutAck += ackMatters ? 0 : 1;

        cc->OnFirstSend();
        twin->OnFirstSend();
        blind->OnFirstSend();
        uint32_t sndNxt = 0;
        uint32_t sndUna = 0;
        uint64_t txBytes[3] = {0, 0, 0};
        for (int step = 0; step < 3000; ++step)
        {
            clock.now += NanoSeconds(700 + 300 * (step % 5));
            for (Ptr<CongestionControl> c : {cc, twin, blind})
            {
                c->GetRate();
                c->OnSend(kMtu);
            }
            ++sndNxt;
            const CcAck ack = StepAck(step, clock.now, sndNxt, ++sndUna, txBytes);
            cc->OnAck(ack);
            blind->OnAck(ack);
            if (ackMatters)
            {
                twin->OnAck(ack);
            }
            StepSignals(step, {cc, twin, blind});
            ExpectBaseAnswers(a.name, hooks, *cc, step);
            if (!ratesMatter)
            {
                ASSERT_EQ(cc->PeekRate(), blind->PeekRate()) << a.name << " step " << step;
                ASSERT_EQ(cc->GetWindow(), blind->GetWindow()) << a.name << " step " << step;
            }
            if (!ackMatters)
            {
                ASSERT_EQ(cc->PeekRate(), twin->PeekRate()) << a.name << " step " << step;
                ASSERT_EQ(cc->GetWindow(), twin->GetWindow()) << a.name << " step " << step;
                ASSERT_EQ(cc->GetRetransmissionTimeout(), twin->GetRetransmissionTimeout())
                    << a.name << " step " << step;
            }
        }
    }
    EXPECT_GE(algorithms, 6);       // none, DCQCN, TIMELY, Swift, HPCC, the RTT probe
    EXPECT_GE(withoutAck, 2);       // none and DCQCN do without ACKs
    EXPECT_GE(withoutPeerRates, 5); // all but the RTT probe do without their peers' rates
}

// Rule: the controllers that react to delay, windows or INT declare the hooks that carry
// them, so the NIC asks them (a mask too small would silently change their behaviour).
TEST(CcHooksTest, ControllersDeclareTheHooksTheyNeed)
{
    const PluginRegistry& r = PluginRegistry::CongestionControls();
    auto hooksOf = [&r](const std::string& name) {
        const PluginRegistry::Plugin* p = r.Find(name);
        EXPECT_NE(p, nullptr) << name;
        ObjectFactory f;
        f.SetTypeId(p->tid);
        return f.Create<CongestionControl>()->ImplementedHooks();
    };
    using CC = CongestionControl;
    EXPECT_EQ(hooksOf("hpcc"), CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_INT);
    EXPECT_EQ(hooksOf("swift"), CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_RTO);
    EXPECT_EQ(hooksOf("timely"), CC::HOOK_ACK);
    // RTT-probe: its data packets are its probes, its start a window, its gaps its own.
    EXPECT_EQ(hooksOf("rtt-probe"), CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_PACING);
    EXPECT_EQ(hooksOf("rtt-probe-nvidia"), CC::HOOK_ACK | CC::HOOK_PROBE);
    EXPECT_EQ(hooksOf("rtt-probe-shared"),
              CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_PACING | CC::HOOK_PROBE);
    EXPECT_EQ(hooksOf("dcqcn"), 0);
}
