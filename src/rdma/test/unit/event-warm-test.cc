/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The event core's warm-up (DirectEvent::Warm): RdmaSimulatorImpl with WarmNext on warms a
 * direct event while the event before it runs, once per time it becomes the next, and a
 * MemberEvent forwards the warm-up to its owner's WarmMethod; with WarmNext Never, or
 * under ns-3's own simulator implementation, nothing is warmed. That warming changes no
 * result is checked on whole scenarios (EventCore.WarmNextChangesNothingSimulated).
 */
#include "ns3/enum.h"
#include "ns3/global-value.h"
#include "ns3/member-event.h"
#include "ns3/rdma-sim-schedule.h"
#include "ns3/rdma-simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

std::vector<std::string> g_log;

void
Log(std::string what)
{
    g_log.push_back(what);
}

/// An owner with a run and a warm-up, as a port's end of transmission is.
class Owner
{
  public:
    void Run()
    {
        Log("run");
    }

    void Warm() const
    {
        Log("warm");
    }
};

/// Runs \p body under RdmaSimulatorImpl with WarmNext \p warm (Always: this test has no
/// ports, so Auto would not warm) and restores the default implementation.
template <class F>
void
UnderRdmaCore(F body, RdmaSimulatorImpl::CacheAid warm = RdmaSimulatorImpl::AID_ALWAYS)
{
    // A test run before this one may have left ns-3's default simulator alive (the
    // CcRegistryResolve tests do); the type bound below applies only to a new one.
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
    g_log.clear();
    body();
    Simulator::GetImplementation()->SetAttribute("WarmNext", EnumValue(warm));
    Simulator::Run();
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
}

} // namespace

TEST(EventWarm, MemberEventIsWarmedWhileTheEventBeforeItRuns)
{
    Owner owner;
    auto event = Create<MemberEvent<Owner, &Owner::Run, &Owner::Warm>>(&owner);
    UnderRdmaCore([&] {
        Simulator::Schedule(NanoSeconds(5), &Log, std::string("a"));
        event->ScheduleIn(NanoSeconds(10));
        Simulator::Schedule(NanoSeconds(10), &Log, std::string("b"));
    });
    // "a" runs first; while it does, the member event is the next one and is warmed.
    // "b" is an ordinary event: nothing warms it.
    EXPECT_EQ(g_log, (std::vector<std::string>{"warm", "a", "run", "b"}));
    EXPECT_EQ(event->GetReferenceCount(), 1u) << "the run gives its reference back";
}

TEST(EventWarm, AnEventScheduledAheadOfAWarmedOneLeavesItToBeWarmedAgain)
{
    Owner owner;
    auto event = Create<MemberEvent<Owner, &Owner::Run, &Owner::Warm>>(&owner);
    UnderRdmaCore([&] {
        // "a" schedules "c" before the member event: the member event was warmed as the
        // next one while "a" ran, is warmed again while "c" runs, and runs once.
        Simulator::Schedule(NanoSeconds(5), [] {
            Log("a");
            Simulator::Schedule(NanoSeconds(1), &Log, std::string("c"));
        });
        event->ScheduleIn(NanoSeconds(10));
    });
    EXPECT_EQ(g_log, (std::vector<std::string>{"warm", "a", "warm", "c", "run"}));
}

TEST(EventWarm, MemberEventWithoutWarmMethodRunsAlone)
{
    Owner owner;
    auto event = Create<MemberEvent<Owner, &Owner::Run>>(&owner);
    UnderRdmaCore([&] {
        Simulator::Schedule(NanoSeconds(5), &Log, std::string("a"));
        event->ScheduleIn(NanoSeconds(10));
    });
    EXPECT_EQ(g_log, (std::vector<std::string>{"a", "run"}));
}

TEST(EventWarm, WarmNextNeverRunsTheEventUnwarmed)
{
    Owner owner;
    auto event = Create<MemberEvent<Owner, &Owner::Run, &Owner::Warm>>(&owner);
    UnderRdmaCore(
        [&] {
            Simulator::Schedule(NanoSeconds(5), &Log, std::string("a"));
            event->ScheduleIn(NanoSeconds(10));
        },
        RdmaSimulatorImpl::AID_NEVER);
    EXPECT_EQ(g_log, (std::vector<std::string>{"a", "run"}));
}

TEST(EventWarm, OtherSimulatorImplementationsRunTheEventUnwarmed)
{
    Owner owner;
    auto event = Create<MemberEvent<Owner, &Owner::Run, &Owner::Warm>>(&owner);
    g_log.clear();
    Simulator::Schedule(NanoSeconds(5), &Log, std::string("a"));
    event->ScheduleIn(NanoSeconds(10));
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(g_log, (std::vector<std::string>{"a", "run"}));
}
