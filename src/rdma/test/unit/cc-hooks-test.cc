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
 * And of the interface's size: CongestionControl is a small core of public non-virtual
 * entry points over private hooks; a controller's own timing of sends (pacing by credit,
 * probes, its retransmission timeout) is the CcSendTiming extension, and only
 * controllers that declare one of its hooks implement it; what a class needs of the NIC
 * (INT records, a CNP spacing) is data, not a method; every event hook of the core
 * changes the decisions of at least two controllers, but for OnCnp, the signal of one
 * protocol (see the rule below).
 */

#include "fake-cc-clock.h"

#include "ns3/congestion-control.h"
#include "ns3/core-module.h"
#include "ns3/dcqcn.h"
#include "ns3/hpcc.h"
#include "ns3/int-hop.h"
#include "ns3/no-congestion-control.h"
#include "ns3/plugin-registry.h"
#include "ns3/power-tcp.h"
#include "ns3/rtt-probe-nvidia.h"
#include "ns3/rtt-probe-shared.h"
#include "ns3/rtt-probe.h"
#include "ns3/swift.h"
#include "ns3/theta-power-tcp.h"
#include "ns3/timely.h"

#include <functional>
#include <gtest/gtest.h>
#include <initializer_list>
#include <map>
#include <string>
#include <type_traits>

using namespace ns3;

namespace
{

constexpr uint64_t kLine = 100000000000ULL; // 100 Gb/s
constexpr uint32_t kMtu = 1000;
constexpr uint32_t kWire = 1078; // a data packet's wire bytes at that MTU (any value works)

/// One controller of \p tid on the fake clock, initialized for a 3-hop path.
Ptr<CongestionControl>
MakeController(TypeId tid,
               const rdmatest::FakeClock& clock,
               CcPeerGroup& peers,
               UniformRandomVariable* rng = nullptr)
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
    ctx.rng = rng;
    cc->Init(ctx);
    return cc;
}

/// The retransmission timeout \p cc wants (zero: the loss-recovery policy's).
Time
RtoOf(CongestionControl& cc)
{
    CcSendTiming* ext = cc.GetExtension();
    return ext != nullptr ? ext->RetransmissionTimeout() : Time(0);
}

/// The base class's answer for every hook left out of \p hooks.
void
ExpectBaseAnswers(const std::string& name, uint16_t hooks, CongestionControl& cc, int step)
{
    if (!(hooks & CongestionControl::HOOK_WINDOW))
    {
        EXPECT_EQ(cc.GetWindow(), 0U) << name << " step " << step;
    }
    CcSendTiming* ext = cc.GetExtension();
    if (!(hooks & CongestionControl::HOOK_PACING) && ext != nullptr)
    {
        EXPECT_EQ(ext->PacingDelay(kWire), Time(0)) << name << " step " << step;
        EXPECT_EQ(ext->PacingRecheck(), Time::Max()) << name << " step " << step;
        EXPECT_FALSE(ext->PacesByCredit()) << name << " step " << step;
    }
    if (!(hooks & CongestionControl::HOOK_PROBE) && ext != nullptr)
    {
        EXPECT_FALSE(ext->WantsProbe()) << name << " step " << step;
    }
    if (!(hooks & CongestionControl::HOOK_INT))
    {
        EXPECT_FALSE(cc.NeedsInt()) << name << " step " << step;
    }
    if (!(hooks & CongestionControl::HOOK_PINT))
    {
        EXPECT_FALSE(cc.NeedsPint()) << name << " step " << step;
    }
    if (!(hooks & CongestionControl::HOOK_RTO))
    {
        EXPECT_EQ(RtoOf(cc), Time(0)) << name << " step " << step;
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
        const uint16_t hooks = cc->ImplementedHooks();
        const bool ratesMatter = hooks & CongestionControl::HOOK_PEER_RATES;
        withoutPeerRates += ratesMatter ? 0 : 1;
        ASSERT_EQ(hooks & ~(CongestionControl::HOOK_ALL | CongestionControl::HOOK_ECN_PER_PACKET |
                            CongestionControl::HOOK_PINT),
                  0)
            << a.name;
        ASSERT_EQ(twin->ImplementedHooks(), hooks) << a.name << ": constant per class";
        const bool ackMatters = hooks & CongestionControl::HOOK_ACK;
        withoutAck += ackMatters ? 0 : 1;

        cc->OnSendEvent(CcSendEvent::FIRST_SEND);
        twin->OnSendEvent(CcSendEvent::FIRST_SEND);
        blind->OnSendEvent(CcSendEvent::FIRST_SEND);
        uint32_t sndNxt = 0;
        uint32_t sndUna = 0;
        uint64_t txBytes[3] = {0, 0, 0};
        for (int step = 0; step < 3000; ++step)
        {
            clock.now += NanoSeconds(700 + 300 * (step % 5));
            for (Ptr<CongestionControl> c : {cc, twin, blind})
            {
                c->GetRate();
                c->OnSendEvent(CcSendEvent::SEND, kMtu);
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
                ASSERT_EQ(RtoOf(*cc), RtoOf(*twin)) << a.name << " step " << step;
            }
        }
    }
    EXPECT_GE(algorithms, 7);       // none, DCQCN, TIMELY, Swift, HPCC, DCTCP, the RTT probe
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
    EXPECT_EQ(hooksOf("powertcp"), CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_INT);
    EXPECT_EQ(hooksOf("hpcc-pint"), CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_PINT);
    EXPECT_EQ(hooksOf("theta-powertcp"), CC::HOOK_ACK | CC::HOOK_WINDOW);
    EXPECT_EQ(hooksOf("swift"), CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_RTO);
    EXPECT_EQ(hooksOf("timely"), CC::HOOK_ACK);
    EXPECT_EQ(hooksOf("dctcp"), CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_ECN_PER_PACKET);
    EXPECT_EQ(hooksOf("nscc"), CC::HOOK_ACK | CC::HOOK_WINDOW);
    // RTT-probe: its data packets are its probes, its start a window, its gaps its own.
    EXPECT_EQ(hooksOf("rtt-probe"), CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_PACING);
    EXPECT_EQ(hooksOf("rtt-probe-nvidia"), CC::HOOK_ACK | CC::HOOK_PROBE);
    EXPECT_EQ(hooksOf("rtt-probe-shared"),
              CC::HOOK_ACK | CC::HOOK_WINDOW | CC::HOOK_PACING | CC::HOOK_PROBE);
    EXPECT_EQ(hooksOf("dcqcn"), 0);
}

namespace
{

// Whether T has an accessible member called NAME (a private one does not count).
#define CC_HAS_MEMBER(NAME)                                                                        \
    template <typename T, typename = void>                                                         \
    struct Has##NAME : std::false_type                                                             \
    {                                                                                              \
    };                                                                                             \
    template <typename T>                                                                          \
    struct Has##NAME<T, std::void_t<decltype(&T::NAME)>> : std::true_type                          \
    {                                                                                              \
    }

// The core's entry points.
CC_HAS_MEMBER(Init);
CC_HAS_MEMBER(OnAck);
CC_HAS_MEMBER(OnCnp);
CC_HAS_MEMBER(OnNack);
CC_HAS_MEMBER(OnTimeout);
CC_HAS_MEMBER(OnSendEvent);
CC_HAS_MEMBER(GetRate);
CC_HAS_MEMBER(PeekRate);
CC_HAS_MEMBER(GetWindow);
CC_HAS_MEMBER(GetRetransmissionTimeout);
CC_HAS_MEMBER(RetransmissionTimeout);
CC_HAS_MEMBER(NeedsInt);
CC_HAS_MEMBER(GetCnpInterval);
CC_HAS_MEMBER(GetName);
CC_HAS_MEMBER(ImplementedHooks);
CC_HAS_MEMBER(GetExtension);
// What used to be hooks of the core, for the RTT-probe family alone.
CC_HAS_MEMBER(OnSend);
CC_HAS_MEMBER(OnFirstSend);
CC_HAS_MEMBER(OnDrained);
CC_HAS_MEMBER(OnPeersChanged);
CC_HAS_MEMBER(PacingDelay);
CC_HAS_MEMBER(PacingRecheck);
CC_HAS_MEMBER(PacesByCredit);
CC_HAS_MEMBER(WantsProbe);
CC_HAS_MEMBER(OnProbeResponse);
CC_HAS_MEMBER(OnProbeTimeout);
// The algorithms' hooks, which nothing outside may call.
CC_HAS_MEMBER(DoOnAck);
CC_HAS_MEMBER(DoOnSendEvent);
CC_HAS_MEMBER(DoGetRate);
CC_HAS_MEMBER(DoInit);

using CC = CongestionControl;
static_assert(HasInit<CC>::value && HasOnAck<CC>::value && HasOnCnp<CC>::value &&
                  HasOnNack<CC>::value && HasOnTimeout<CC>::value && HasOnSendEvent<CC>::value &&
                  HasGetRate<CC>::value && HasPeekRate<CC>::value && HasGetWindow<CC>::value &&
                  HasNeedsInt<CC>::value && HasGetCnpInterval<CC>::value && HasGetName<CC>::value &&
                  HasImplementedHooks<CC>::value && HasGetExtension<CC>::value,
              "the core's entry points");
static_assert(!HasOnSend<CC>::value && !HasOnFirstSend<CC>::value && !HasOnDrained<CC>::value &&
                  !HasOnPeersChanged<CC>::value,
              "send events go through OnSendEvent");
static_assert(!HasPacingDelay<CC>::value && !HasPacingRecheck<CC>::value &&
                  !HasPacesByCredit<CC>::value && !HasWantsProbe<CC>::value &&
                  !HasOnProbeResponse<CC>::value && !HasOnProbeTimeout<CC>::value,
              "pacing by credit and probes are the extension's, not the core's");
static_assert(!HasGetRetransmissionTimeout<CC>::value && !HasRetransmissionTimeout<CC>::value,
              "a controller's own timeout is the extension's, not the core's");
static_assert(HasPacingDelay<CcSendTiming>::value && HasPacingRecheck<CcSendTiming>::value &&
                  HasPacesByCredit<CcSendTiming>::value && HasWantsProbe<CcSendTiming>::value &&
                  HasOnProbeResponse<CcSendTiming>::value &&
                  HasOnProbeTimeout<CcSendTiming>::value &&
                  HasRetransmissionTimeout<CcSendTiming>::value,
              "the extension");

/// The algorithms' hooks are private, in the base class and in every controller.
template <typename T>
constexpr bool
HooksPrivate()
{
    return !HasDoOnAck<T>::value && !HasDoOnSendEvent<T>::value && !HasDoGetRate<T>::value &&
           !HasDoInit<T>::value;
}

static_assert(HooksPrivate<CC>() && HooksPrivate<Dcqcn>() && HooksPrivate<Timely>() &&
                  HooksPrivate<Swift>() && HooksPrivate<Hpcc>() && HooksPrivate<PowerTcp>() &&
                  HooksPrivate<ThetaPowerTcp>() && HooksPrivate<NoCongestionControl>() &&
                  HooksPrivate<RttProbe>() && HooksPrivate<RttProbeShared>() &&
                  HooksPrivate<RttProbeNvidia>(),
              "non-virtual interface: the hooks are private");

/// The core's event hooks, each withheld in turn from one of two twin controllers.
enum class Withheld
{
    ACK,
    CNP,
    NACK,
    TIMEOUT,
    SEND,
};

/**
 * Whether a controller of \p tid decides differently (rate, window, RTO) when it misses
 * the events \p w of the run of AHookLeftOutBehavesAsTheBaseClass. Both twins draw from
 * random streams of the same number, so that only the event can set them apart.
 */
bool
UsesHook(TypeId tid, Withheld w)
{
    rdmatest::FakeClock clock;
    CcPeerGroup peers;
    peers.activeQps = 1;
    CcPeerGroup twinPeers = peers;
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    Ptr<UniformRandomVariable> twinRng = CreateObject<UniformRandomVariable>();
    rng->SetStream(11);
    twinRng->SetStream(11);
    Ptr<CongestionControl> cc = MakeController(tid, clock, peers, PeekPointer(rng));
    Ptr<CongestionControl> twin = MakeController(tid, clock, twinPeers, PeekPointer(twinRng));
    cc->OnSendEvent(CcSendEvent::FIRST_SEND);
    twin->OnSendEvent(CcSendEvent::FIRST_SEND);
    uint32_t sndNxt = 0;
    uint64_t txBytes[3] = {0, 0, 0};
    for (int step = 0; step < 3000; ++step)
    {
        clock.now += NanoSeconds(700 + 300 * (step % 5));
        for (const Ptr<CongestionControl>& c : {cc, twin})
        {
            c->GetRate();
            if (c == cc || w != Withheld::SEND)
            {
                c->OnSendEvent(CcSendEvent::SEND, kMtu);
            }
        }
        ++sndNxt;
        const CcAck ack = StepAck(step, clock.now, sndNxt, sndNxt, txBytes);
        cc->OnAck(ack);
        if (w != Withheld::ACK)
        {
            twin->OnAck(ack);
        }
        const bool cnp = step % 97 == 0 && StepQueueUs(step) > 20;
        const bool nack = step % 499 == 0 && step > 0;
        // Timeouts away from the NACKs, so that they do not fall in a NACK's episode.
        const bool timeout = step % 1499 == 700;
        for (const Ptr<CongestionControl>& c : {cc, twin})
        {
            const bool skip = c == twin;
            if (cnp && !(skip && w == Withheld::CNP))
            {
                c->OnCnp();
            }
            if (nack && !(skip && w == Withheld::NACK))
            {
                c->OnNack();
            }
            if (timeout && !(skip && w == Withheld::TIMEOUT))
            {
                c->OnTimeout();
            }
        }
        if (cc->PeekRate() != twin->PeekRate() || cc->GetWindow() != twin->GetWindow() ||
            RtoOf(*cc) != RtoOf(*twin))
        {
            return true;
        }
    }
    return false;
}

} // namespace

// Rule: the core is small and shared. A controller's own timing of sends (pacing by
// credit, probes, its retransmission timeout) is an extension that a controller
// implements only if it declares one of its hooks (HOOK_PACING, HOOK_PROBE, HOOK_RTO),
// and those hooks need it. Every event hook of the core moves at least two controllers,
// but for OnCnp, the signal of DCQCN's protocol, which the core keeps (the NIC turns ECN
// marks into CNPs whatever the sender runs). What a class needs of the NIC is no method:
// INT records are the HOOK_INT bit (NeedsInt), the CNP spacing a read-only attribute
// (GetCnpInterval).
TEST(CcHooksTest, TheCoreIsSharedAndOwnTimingIsTheExtension)
{
    const std::map<Withheld, std::string> names = {{Withheld::ACK, "OnAck"},
                                                   {Withheld::CNP, "OnCnp"},
                                                   {Withheld::NACK, "OnNack"},
                                                   {Withheld::TIMEOUT, "OnTimeout"},
                                                   {Withheld::SEND, "OnSendEvent(SEND)"}};
    std::map<Withheld, int> users;
    int withExtension = 0;
    for (const PluginRegistry::Plugin& a : PluginRegistry::CongestionControls().Plugins())
    {
        ObjectFactory f;
        f.SetTypeId(a.tid);
        Ptr<CongestionControl> cc = f.Create<CongestionControl>();
        const uint16_t hooks = cc->ImplementedHooks();
        const uint8_t timing = CC::HOOK_PACING | CC::HOOK_PROBE | CC::HOOK_RTO;
        EXPECT_EQ(cc->NeedsInt(), (hooks & CC::HOOK_INT) != 0) << a.name;
        // The INT readers: HPCC and PowerTCP (θ-PowerTCP is PowerTCP on RTTs alone).
        EXPECT_EQ(cc->NeedsInt(), a.name == "hpcc" || a.name == "powertcp")
            << a.name << ": HPCC and PowerTCP alone read INT";
        EXPECT_EQ(cc->NeedsPint(), a.name == "hpcc-pint")
            << a.name << ": only HPCC-PINT reads PINT";
        if (cc->GetExtension() != nullptr)
        {
            ++withExtension;
            EXPECT_NE(hooks & timing, 0) << a.name << ": an extension no hook declares";
            EXPECT_EQ(static_cast<void*>(cc->GetExtension()),
                      static_cast<void*>(dynamic_cast<CcSendTiming*>(PeekPointer(cc))))
                << a.name << ": a controller is its own extension";
        }
        else
        {
            EXPECT_EQ(hooks & timing, 0) << a.name << ": pacing, probe and RTO hooks need it";
        }
        for (const auto& [w, name] : names)
        {
            users[w] += UsesHook(a.tid, w) ? 1 : 0;
        }
    }
    EXPECT_EQ(withExtension, 4); // the three RTT-probe classes and Swift (its own RTO)
    for (const auto& [w, name] : names)
    {
        EXPECT_GE(users[w], w == Withheld::CNP ? 1 : 2) << name;
    }
}
