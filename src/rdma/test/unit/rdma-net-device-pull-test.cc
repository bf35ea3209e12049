/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of a port whose owner gives frames when the queues are empty (a NIC:
 * RdmaNetDevice::SetOwner with pulls), on two bare ports A and B joined by an
 * RdmaChannel. A's owner is a fake that says whether it has frames
 * (RdmaPortOwner::HasFramesToPull) and logs when it is asked for one.
 *
 * Under ns3::RdmaSimulatorImpl a port whose owner has nothing to give skips its end of
 * transmission (no event). What must not change is *when*, in event order, the owner is
 * asked: every test runs the same script under ns-3's DefaultSimulatorImpl (which
 * schedules every end of transmission) and under RdmaSimulatorImpl, and expects the same
 * log, in time and in order among the events of the same nanosecond:
 *  - an owner that gets a frame while the port is busy and calls NotifyPullable is
 *    asked at the end of the transmission, before an event scheduled later for the
 *    same instant (a NIC's pacing wake-up);
 *  - an owner that says it has frames is asked at the end of every transmission, and
 *    its frames leave back to back;
 *  - a frame queued when the port's transmission has ended (its owner having nothing)
 *    leaves at once, also in the very nanosecond it ended.
 * The log holds the owner's pulls that give a frame and the port's transmissions (MacTx);
 * a pull that gives nothing must change nothing, so whether it happens is not logged.
 */
#include "ns3/global-value.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-port-owner.h"
#include "ns3/rdma-simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One line of the log: when, and what.
struct Entry
{
    int64_t ns;
    std::string what;

    bool operator==(const Entry& o) const
    {
        return ns == o.ns && what == o.what;
    }
};

std::ostream&
operator<<(std::ostream& os, const Entry& e)
{
    return os << e.ns << " ns " << e.what;
}

/// A NIC stand-in: gives the frames in `frames` when pulled, says `hasFrames`.
class FakeOwner : public RdmaPortOwner
{
  public:
    explicit FakeOwner(std::vector<Entry>& log)
        : m_log(log)
    {
    }

    void FrameReceived(uint32_t, RdmaNetDevice*, const Ptr<RdmaFrame>&) override
    {
    }

    /// Logs the pulls that give a frame (one that gives none must change nothing, and
    /// may happen or not: HasFramesToPull).
    Ptr<RdmaFrame> PullFrame(uint32_t, uint8_t) override
    {
        if (frames == 0)
        {
            return nullptr;
        }
        m_log.push_back({Simulator::Now().GetNanoSeconds(), "pull"});
        --frames;
        hasFrames = frames > 0;
        return Frame();
    }

    bool HasFramesToPull(uint32_t) const override
    {
        return hasFrames;
    }

    static Ptr<RdmaFrame> Frame()
    {
        RdmaHeader h;
        h.type = RdmaPacketType::DATA;
        h.priority = 3;
        h.payload = 1000;
        return RdmaFrame::Make(h);
    }

    uint32_t frames = 0;    ///< frames it will give
    bool hasFrames = false; ///< what HasFramesToPull says

  private:
    std::vector<Entry>& m_log;
};

/// Ports A (owned by a FakeOwner that pulls) and B, 100 Gb/s, 1 us apart.
class PullingPort
{
  public:
    explicit PullingPort(const std::string& impl)
        : owner(log)
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        Ptr<RdmaChannel> channel = CreateObject<RdmaChannel>();
        a = Port(channel);
        b = Port(channel);
        a->SetOwner(&owner, 0, true);
        using PacketSink = Callback<void, Ptr<const Packet>>;
        a->TraceConnectWithoutContext("MacTx", PacketSink([this](Ptr<const Packet>) {
                                          log.push_back({Simulator::Now().GetNanoSeconds(), "tx"});
                                      }));
    }

    ~PullingPort()
    {
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    }

    PullingPort(const PullingPort&) = delete;
    PullingPort& operator=(const PullingPort&) = delete;

    /// Log \p what at \p t (an event scheduled now).
    void Mark(Time t, const std::string& what)
    {
        Simulator::Schedule(t, [this, what]() {
            log.push_back({Simulator::Now().GetNanoSeconds(), what});
        });
    }

    std::vector<Entry> log;
    FakeOwner owner;
    Ptr<RdmaNetDevice> a;
    Ptr<RdmaNetDevice> b;

  private:
    static Ptr<RdmaNetDevice> Port(Ptr<RdmaChannel> channel)
    {
        Ptr<Node> node = CreateObject<Node>();
        Ptr<RdmaNetDevice> dev = CreateObject<RdmaNetDevice>();
        dev->SetDataRate(DataRate("100Gb/s"));
        node->AddDevice(dev);
        dev->Attach(channel);
        return dev;
    }
};

/// The end of A's first transmission: a 1000-byte frame queued at 0 (its wire time).
int64_t
FirstEndNs()
{
    std::vector<Entry> log;
    {
        PullingPort p("ns3::DefaultSimulatorImpl");
        p.owner.frames = 1; // asked at the end: that is when it ends
        p.owner.hasFrames = true;
        Simulator::Schedule(Time(0), [&p]() { p.a->Enqueue(FakeOwner::Frame(), 3); });
        Simulator::Run();
        log = p.log;
    }
    for (const Entry& e : log)
    {
        if (e.what == "pull" && e.ns > 0)
        {
            return e.ns;
        }
    }
    return -1;
}

using Script = void (*)(PullingPort&, int64_t endNs);

/// The log of \p script under both simulators; expects them equal.
std::vector<Entry>
SameOnBothSimulators(Script script)
{
    const int64_t end = FirstEndNs();
    EXPECT_GT(end, 0);
    std::vector<Entry> logs[2];
    const char* impls[2] = {"ns3::DefaultSimulatorImpl", "ns3::RdmaSimulatorImpl"};
    for (int i = 0; i < 2; ++i)
    {
        PullingPort p(impls[i]);
        EXPECT_EQ(RdmaSimulatorImpl::Active() != nullptr, i == 1) << impls[i];
        script(p, end);
        Simulator::Run();
        logs[i] = p.log;
    }
    EXPECT_EQ(logs[1], logs[0]) << "RdmaSimulatorImpl asks the owner at other times or in "
                                   "another order than ns-3's DefaultSimulatorImpl";
    return logs[0];
}

} // namespace

TEST(RdmaNetDevicePull, AnOwnerThatNotifiesWhileThePortIsBusyIsAskedAtTheEndInItsSlot)
{
    const int64_t end = FirstEndNs();
    const std::vector<Entry> log = SameOnBothSimulators([](PullingPort& p, int64_t end) {
        // A sends a queued frame; its owner has nothing then.
        Simulator::Schedule(Time(0), [&p]() { p.a->Enqueue(FakeOwner::Frame(), 3); });
        // While it is on the wire the owner gets a frame (for later) and says so.
        Simulator::Schedule(NanoSeconds(10), [&p]() {
            p.owner.frames = 1;
            p.owner.hasFrames = true;
            p.a->NotifyPullable();
        });
        // Events for the instant the transmission ends, scheduled after it began (a
        // NIC's pacing wake-up kicking the port): they run after the end, so the pull.
        Simulator::Schedule(NanoSeconds(20), [&p, end]() {
            p.Mark(NanoSeconds(end - 20), "wake");
            Simulator::Schedule(NanoSeconds(end - 20), [&p]() { p.a->TryTransmit(); });
        });
    });
    const std::vector<Entry> expected{{0, "tx"}, {end, "pull"}, {end, "tx"}, {end, "wake"}};
    EXPECT_EQ(log, expected);
}

TEST(RdmaNetDevicePull, AnOwnerWithFramesIsAskedAtTheEndOfEveryTransmission)
{
    const int64_t end = FirstEndNs();
    const std::vector<Entry> log = SameOnBothSimulators([](PullingPort& p, int64_t) {
        p.owner.frames = 3;
        p.owner.hasFrames = true;
        Simulator::Schedule(Time(0), [&p]() { p.a->TryTransmit(); });
    });
    // Back to back: each frame leaves as the one before ends (1000-byte frames, the
    // same wire time each, to within the serialization clock's nanosecond rounding).
    ASSERT_EQ(log.size(), 6u);
    for (size_t i = 0; i < log.size(); i += 2)
    {
        EXPECT_EQ(log[i].what, "pull");
        EXPECT_EQ(log[i + 1].what, "tx");
        EXPECT_EQ(log[i + 1].ns, log[i].ns);
    }
    EXPECT_EQ(log[0].ns, 0);
    EXPECT_NEAR(static_cast<double>(log[2].ns), static_cast<double>(end), 1.0);
    EXPECT_NEAR(static_cast<double>(log[4].ns), 2.0 * static_cast<double>(end), 1.0);
}

TEST(RdmaNetDevicePull, APortWhoseOwnerHasNothingSendsAFrameQueuedAfterTheEndAtOnce)
{
    const int64_t end = FirstEndNs();
    const std::vector<Entry> log = SameOnBothSimulators([](PullingPort& p, int64_t end) {
        Simulator::Schedule(Time(0), [&p]() { p.a->Enqueue(FakeOwner::Frame(), 3); });
        // Queued in the very nanosecond the first one ends, then 5 ns after.
        Simulator::Schedule(NanoSeconds(end), [&p]() { p.a->Enqueue(FakeOwner::Frame(), 3); });
        Simulator::Schedule(NanoSeconds(3 * end), [&p]() { p.a->Enqueue(FakeOwner::Frame(), 3); });
    });
    const std::vector<Entry> expected{{0, "tx"}, {end, "tx"}, {3 * end, "tx"}};
    EXPECT_EQ(log, expected);
}
