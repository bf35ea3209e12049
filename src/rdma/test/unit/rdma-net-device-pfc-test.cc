/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the PFC handling of an RdmaNetDevice port (rdma-net-device.h, IEEE
 * 802.1Qbb), on two bare ports A and B joined by an RdmaChannel (no switch, no NIC);
 * B sends PFC frames to A, and the tests watch what A puts on the wire:
 *  - a received pause for class c stops c, and only c, at A: a frame of c waiting in A's
 *    queue starts exactly quanta x 512 bit times (at A's rate) after the pause frame
 *    arrived, frames of the other classes leave at once;
 *  - a resume (0 quanta) restarts the class at the instant it arrives;
 *  - every PFC frame reloads the class's pause timer with its own quanta: a refresh
 *    before expiry extends the pause, a shorter one shortens it;
 *  - transmit order: PFC frames first (never paused, even with every class paused), then
 *    the strict (control) class, then the other classes; the strict class keeps sending
 *    while the data classes are paused;
 *  - IsPaused / GetPausedMask: bit c set exactly while class c is paused;
 *  - the PfcRx trace reports the class and quanta of every PFC frame received, and PFC
 *    frames are not handed up (receive callback, MacRx);
 *  - the pull source is told the paused classes, and asked again when a pause ends;
 *  - with HonourPfc off the port ignores pauses.
 * Times are measured against the arrival of the pause frame (PfcRx trace), so only the
 * pause arithmetic is asserted: 1 quantum = 512 bit times = 64 bytes at the port's rate;
 * at 100 Gb/s 1000 quanta = 512,000 bits = 5,120 ns.
 */
#include "ns3/boolean.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-net-device.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t kStrict = 7; // the StrictPriority default
constexpr uint16_t kMaxQuanta = 0xffff;

/// A frame seen at some instant.
struct Seen
{
    Time at;
    RdmaPacketType type;
    uint8_t priority;
    uint32_t psn;
};

/// A PFC frame received at some instant.
struct PfcSeen
{
    Time at;
    uint8_t priority;
    uint16_t quanta;
};

/**
 * Ports A and B on two nodes, one link (1 us). Records A's transmissions (MacTx), the
 * PFC frames A and B receive (PfcRx) and the frames each hands up. The simulator is
 * destroyed with it.
 */
class TwoPorts
{
  public:
    explicit TwoPorts(DataRate rate, bool honourPfc = true)
    {
        m_channel = CreateObject<RdmaChannel>();
        m_channel->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        a = Port(rate, honourPfc);
        b = Port(rate, true);
        using PacketSink = Callback<void, Ptr<const Packet>>;
        using PfcSink = Callback<void, uint8_t, uint16_t>;
        a->TraceConnectWithoutContext("MacTx", PacketSink([this](Ptr<const Packet> p) {
                                          txA.push_back(Describe(p));
                                      }));
        a->TraceConnectWithoutContext("MacRx", PacketSink([this](Ptr<const Packet> p) {
                                          macRxA.push_back(Describe(p));
                                      }));
        a->TraceConnectWithoutContext("PfcRx", PfcSink([this](uint8_t c, uint16_t q) {
                                          pfcAtA.push_back({Simulator::Now(), c, q});
                                      }));
        b->TraceConnectWithoutContext("PfcRx", PfcSink([this](uint8_t c, uint16_t q) {
                                          pfcAtB.push_back({Simulator::Now(), c, q});
                                      }));
        a->SetRdmaReceiveCallback([this](Ptr<RdmaNetDevice>, Ptr<Packet> p, const RdmaHeader&) {
            rxA.push_back(Describe(p));
        });
        b->SetRdmaReceiveCallback([this](Ptr<RdmaNetDevice>, Ptr<Packet> p, const RdmaHeader&) {
            rxB.push_back(Describe(p));
        });
    }

    ~TwoPorts()
    {
        Simulator::Destroy();
    }

    TwoPorts(const TwoPorts&) = delete;
    TwoPorts& operator=(const TwoPorts&) = delete;

    /// At \p t, B sends A a PFC frame for class \p c.
    void BSendsPfc(Time t, uint8_t c, uint16_t quanta)
    {
        Simulator::Schedule(t, [this, c, quanta]() { b->SendPfc(c, quanta); });
    }

    /// At \p t, A queues a data frame of \p payload bytes in class \p c.
    void AQueues(Time t, uint8_t c, uint32_t psn, uint32_t payload = 1000)
    {
        Simulator::Schedule(t, [this, c, psn, payload]() {
            a->Enqueue(DataFrame(c, psn, payload), c, 0);
        });
    }

    /// At \p t, run \p f (to look at the ports' state).
    template <typename F>
    void At(Time t, F f)
    {
        Simulator::Schedule(t, f);
    }

    static Ptr<Packet> DataFrame(uint8_t c, uint32_t psn, uint32_t payload = 1000)
    {
        RdmaHeader h;
        h.type = RdmaPacketType::DATA;
        h.priority = c;
        h.psn = psn;
        h.payload = payload;
        return CreateRdmaFrame(h);
    }

    /// A's transmissions of data frames (PFC frames left out).
    std::vector<Seen> DataTxA() const
    {
        std::vector<Seen> out;
        for (const Seen& s : txA)
        {
            if (s.type != RdmaPacketType::PFC)
            {
                out.push_back(s);
            }
        }
        return out;
    }

    Ptr<RdmaNetDevice> a;
    Ptr<RdmaNetDevice> b;
    std::vector<Seen> txA;
    std::vector<Seen> macRxA;
    std::vector<Seen> rxA;
    std::vector<Seen> rxB;
    std::vector<PfcSeen> pfcAtA;
    std::vector<PfcSeen> pfcAtB;

  private:
    Ptr<RdmaNetDevice> Port(DataRate rate, bool honourPfc)
    {
        Ptr<Node> node = CreateObject<Node>();
        Ptr<RdmaNetDevice> dev = CreateObject<RdmaNetDevice>();
        dev->SetAttribute("HonourPfc", BooleanValue(honourPfc));
        dev->SetDataRate(rate);
        node->AddDevice(dev);
        dev->Attach(m_channel);
        return dev;
    }

    static Seen Describe(Ptr<const Packet> p)
    {
        RdmaHeader h;
        p->PeekHeader(h);
        return {Simulator::Now(), h.type, h.priority, h.psn};
    }

    Ptr<RdmaChannel> m_channel;
};

/// Pause time of \p quanta at \p bitRate: quanta x 512 bits / rate, in whole ns here.
Time
PauseTime(uint64_t quanta, uint64_t bitRate)
{
    return PicoSeconds(quanta * 512 * 1000000000000ULL / bitRate);
}

} // namespace

TEST(RdmaNetDevicePfc, APauseStopsItsClassForQuantaTimes512BitTimesAtThePortsRate)
{
    // 1000 quanta = 512,000 bits: 20,480 ns at 25 Gb/s, 5,120 ns at 100 Gb/s, 1,280 ns at
    // 400 Gb/s. The frame is queued at 1.5 us, after the pause has arrived (~1.006 us)
    // and before it ends.
    struct Case
    {
        uint64_t bitRate;
        Time pause;
    };

    for (const Case& c : {Case{25000000000ULL, NanoSeconds(20480)},
                          Case{100000000000ULL, NanoSeconds(5120)},
                          Case{400000000000ULL, NanoSeconds(1280)}})
    {
        SCOPED_TRACE(c.bitRate);
        ASSERT_EQ(PauseTime(1000, c.bitRate), c.pause);
        TwoPorts ports{DataRate(c.bitRate)};
        ports.BSendsPfc(Time(0), 3, 1000);
        ports.AQueues(MicroSeconds(1) + NanoSeconds(500), 3, 42);
        Simulator::Run();
        ASSERT_EQ(ports.pfcAtA.size(), 1u);
        const Time arrived = ports.pfcAtA[0].at;
        ASSERT_LT(arrived, MicroSeconds(1) + NanoSeconds(500)) << "the pause came first";
        const std::vector<Seen> tx = ports.DataTxA();
        ASSERT_EQ(tx.size(), 1u);
        EXPECT_EQ(tx[0].psn, 42u);
        EXPECT_EQ(tx[0].at, arrived + c.pause);
    }
}

TEST(RdmaNetDevicePfc, APauseStopsOnlyItsClass)
{
    // Class 3 paused from ~1.006 us for 5.12 us; frames of classes 3, 1, 5 and the
    // strict class 7 are queued while it lasts, 500 ns apart (each takes ~85 ns on the
    // wire, so the port is idle again by the next).
    TwoPorts ports{DataRate("100Gb/s")};
    ports.BSendsPfc(Time(0), 3, 1000);
    ports.AQueues(MicroSeconds(2), 3, 30);
    ports.AQueues(MicroSeconds(2) + NanoSeconds(500), 1, 10);
    ports.AQueues(MicroSeconds(3), 5, 50);
    ports.AQueues(MicroSeconds(3) + NanoSeconds(500), kStrict, 70);
    Simulator::Run();
    ASSERT_EQ(ports.pfcAtA.size(), 1u);
    const std::vector<Seen> tx = ports.DataTxA();
    ASSERT_EQ(tx.size(), 4u);
    EXPECT_EQ(tx[0].psn, 10u);
    EXPECT_EQ(tx[0].at, MicroSeconds(2) + NanoSeconds(500)) << "class 1 is not paused";
    EXPECT_EQ(tx[1].psn, 50u);
    EXPECT_EQ(tx[1].at, MicroSeconds(3)) << "class 5 is not paused";
    EXPECT_EQ(tx[2].psn, 70u);
    EXPECT_EQ(tx[2].at, MicroSeconds(3) + NanoSeconds(500)) << "the strict class is not paused";
    EXPECT_EQ(tx[3].psn, 30u);
    EXPECT_EQ(tx[3].at, ports.pfcAtA[0].at + NanoSeconds(5120)) << "class 3 waits its pause";
}

TEST(RdmaNetDevicePfc, AResumeRestartsTheClassTheInstantItArrives)
{
    // Paused for 65535 quanta (335.5 us at 100 Gb/s); B resumes it at 4 us (arrives at
    // ~5.006 us). Two frames of 1000 bytes of payload (1062 + 20 on the wire) wait.
    TwoPorts ports{DataRate("100Gb/s")};
    ports.BSendsPfc(Time(0), 3, kMaxQuanta);
    ports.AQueues(MicroSeconds(2), 3, 1);
    ports.AQueues(MicroSeconds(2), 3, 2);
    ports.BSendsPfc(MicroSeconds(4), 3, 0);
    bool pausedBefore = false;
    ports.At(MicroSeconds(4), [&]() { pausedBefore = ports.a->IsPaused(3); });
    Simulator::Run();
    ASSERT_EQ(ports.pfcAtA.size(), 2u);
    EXPECT_EQ(ports.pfcAtA[1].quanta, 0u);
    const Time resumed = ports.pfcAtA[1].at;
    EXPECT_TRUE(pausedBefore);
    EXPECT_FALSE(ports.a->IsPaused(3));
    const std::vector<Seen> tx = ports.DataTxA();
    ASSERT_EQ(tx.size(), 2u);
    EXPECT_EQ(tx[0].psn, 1u);
    EXPECT_EQ(tx[0].at, resumed);
    EXPECT_EQ(tx[1].psn, 2u);
    // The second follows the first on the wire: 1082 bytes = 86.56 ns later, rounded to
    // whole ns (long before the 335 us pause would have ended).
    EXPECT_GE(tx[1].at, resumed + NanoSeconds(86));
    EXPECT_LE(tx[1].at, resumed + NanoSeconds(87));
}

TEST(RdmaNetDevicePfc, ARefreshBeforeExpiryExtendsThePause)
{
    // Pause of 5.12 us from ~1.006 us (would end ~6.126 us), refreshed at 3 us (arrives
    // ~4.006 us): the class stays paused until 5.12 us after the refresh arrived.
    TwoPorts ports{DataRate("100Gb/s")};
    ports.BSendsPfc(Time(0), 3, 1000);
    ports.BSendsPfc(MicroSeconds(3), 3, 1000);
    ports.AQueues(MicroSeconds(2), 3, 7);
    bool pausedAfterFirstExpiry = false;
    ports.At(MicroSeconds(7), [&]() { pausedAfterFirstExpiry = ports.a->IsPaused(3); });
    Simulator::Run();
    ASSERT_EQ(ports.pfcAtA.size(), 2u);
    const Time first = ports.pfcAtA[0].at;
    const Time refresh = ports.pfcAtA[1].at;
    ASSERT_LT(first + NanoSeconds(5120), MicroSeconds(7));
    ASSERT_GT(refresh + NanoSeconds(5120), MicroSeconds(7));
    EXPECT_TRUE(pausedAfterFirstExpiry);
    const std::vector<Seen> tx = ports.DataTxA();
    ASSERT_EQ(tx.size(), 1u);
    EXPECT_EQ(tx[0].at, refresh + NanoSeconds(5120));
}

TEST(RdmaNetDevicePfc, ALaterPauseFrameReloadsTheTimerWithItsOwnQuanta)
{
    // 802.1Qbb: each PFC frame sets the class's pause timer to its own value. A 65535-
    // quanta pause followed by a 1000-quanta one ends 5.12 us after the second.
    TwoPorts ports{DataRate("100Gb/s")};
    ports.BSendsPfc(Time(0), 3, kMaxQuanta);
    ports.BSendsPfc(MicroSeconds(3), 3, 1000);
    ports.AQueues(MicroSeconds(2), 3, 7);
    Simulator::Run();
    ASSERT_EQ(ports.pfcAtA.size(), 2u);
    const std::vector<Seen> tx = ports.DataTxA();
    ASSERT_EQ(tx.size(), 1u);
    EXPECT_EQ(tx[0].at, ports.pfcAtA[1].at + NanoSeconds(5120));
}

TEST(RdmaNetDevicePfc, PfcFramesAreSentWhileEveryClassIsPaused)
{
    TwoPorts ports{DataRate("100Gb/s")};
    for (uint8_t c = 0; c < kRdmaNumPriorities; ++c)
    {
        ports.BSendsPfc(Time(0), c, kMaxQuanta);
    }
    ports.AQueues(MicroSeconds(2), 3, 1);
    Simulator::Schedule(MicroSeconds(3), [&ports]() { ports.a->SendPfc(2, 500); });
    uint8_t mask = 0;
    ports.At(MicroSeconds(3), [&]() { mask = ports.a->GetPausedMask(); });
    Simulator::Stop(MicroSeconds(100)); // long before the 335 us pauses end
    Simulator::Run();
    EXPECT_EQ(mask, 0xff);
    ASSERT_EQ(ports.txA.size(), 1u);
    EXPECT_EQ(ports.txA[0].type, RdmaPacketType::PFC);
    EXPECT_EQ(ports.txA[0].at, MicroSeconds(3)) << "sent at once";
    ASSERT_EQ(ports.pfcAtB.size(), 1u);
    EXPECT_EQ(ports.pfcAtB[0].priority, 2u);
    EXPECT_EQ(ports.pfcAtB[0].quanta, 500u);
    EXPECT_TRUE(ports.DataTxA().empty()) << "the data frame waits";
}

TEST(RdmaNetDevicePfc, ThePortServesPfcFramesThenTheStrictClassThenTheOthers)
{
    // A starts a 9000-byte frame at 2 us (~722 ns on the wire); while it is sent, a
    // class-1 frame, a strict-class frame and a PFC frame are queued, in that order.
    TwoPorts ports{DataRate("100Gb/s")};
    ports.AQueues(MicroSeconds(2), 0, 100, 9000);
    ports.AQueues(MicroSeconds(2) + NanoSeconds(10), 1, 1);
    ports.AQueues(MicroSeconds(2) + NanoSeconds(20), kStrict, 7);
    Simulator::Schedule(MicroSeconds(2) + NanoSeconds(30), [&ports]() { ports.a->SendPfc(4, 9); });
    Simulator::Run();
    ASSERT_EQ(ports.txA.size(), 4u);
    EXPECT_EQ(ports.txA[0].psn, 100u);
    EXPECT_EQ(ports.txA[1].type, RdmaPacketType::PFC);
    EXPECT_EQ(ports.txA[2].priority, kStrict);
    EXPECT_EQ(ports.txA[3].priority, 1u);
    for (int i = 1; i < 4; ++i)
    {
        EXPECT_GT(ports.txA[i].at, MicroSeconds(2) + NanoSeconds(700)) << "after the big frame";
    }
}

TEST(RdmaNetDevicePfc, TheStrictClassKeepsSendingWhileTheDataClassesArePaused)
{
    TwoPorts ports{DataRate("100Gb/s")};
    for (uint8_t c = 0; c < kRdmaNumPriorities; ++c)
    {
        if (c != kStrict)
        {
            ports.BSendsPfc(Time(0), c, kMaxQuanta);
        }
    }
    ports.AQueues(MicroSeconds(2), 2, 1);
    ports.AQueues(MicroSeconds(3), kStrict, 2);
    ports.AQueues(MicroSeconds(4), kStrict, 3);
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    EXPECT_EQ(ports.a->GetPausedMask(), 0x7f);
    const std::vector<Seen> tx = ports.DataTxA();
    ASSERT_EQ(tx.size(), 2u);
    EXPECT_EQ(tx[0].psn, 2u);
    EXPECT_EQ(tx[0].at, MicroSeconds(3));
    EXPECT_EQ(tx[1].psn, 3u);
    EXPECT_EQ(tx[1].at, MicroSeconds(4));
    ASSERT_EQ(ports.rxB.size(), 2u) << "and they reach the peer";
}

TEST(RdmaNetDevicePfc, GetPausedMaskHasABitSetExactlyWhileItsClassIsPaused)
{
    // Class 1 paused for 65535 quanta and class 5 for 1000 (5.12 us) at ~1.006 us;
    // class 1 resumed at 3 us (arrives ~4.006 us); class 5 expires at ~6.126 us.
    TwoPorts ports{DataRate("100Gb/s")};
    ports.BSendsPfc(Time(0), 1, kMaxQuanta);
    ports.BSendsPfc(Time(0), 5, 1000);
    ports.BSendsPfc(MicroSeconds(3), 1, 0);
    std::vector<uint8_t> masks;
    std::vector<std::vector<bool>> paused;
    for (Time t : {Time(0), MicroSeconds(2), MicroSeconds(5), MicroSeconds(7)})
    {
        ports.At(t, [&]() {
            masks.push_back(ports.a->GetPausedMask());
            std::vector<bool> each;
            for (uint8_t c = 0; c < kRdmaNumPriorities; ++c)
            {
                each.push_back(ports.a->IsPaused(c));
            }
            paused.push_back(each);
        });
    }
    Simulator::Run();
    ASSERT_EQ(ports.pfcAtA.size(), 3u);
    ASSERT_LT(ports.pfcAtA[1].at + NanoSeconds(5120), MicroSeconds(7));
    ASSERT_EQ(masks.size(), 4u);
    EXPECT_EQ(masks[0], 0x00);
    EXPECT_EQ(masks[1], 0x22); // classes 1 and 5
    EXPECT_EQ(masks[2], 0x20); // class 1 resumed
    EXPECT_EQ(masks[3], 0x00); // class 5 expired
    const std::vector<uint8_t> expected = {0x00, 0x22, 0x20, 0x00};
    for (std::size_t i = 0; i < paused.size(); ++i)
    {
        for (uint8_t c = 0; c < kRdmaNumPriorities; ++c)
        {
            EXPECT_EQ(paused[i][c], bool(expected[i] & (1u << c)))
                << "sample " << i << " class " << +c;
        }
    }
}

TEST(RdmaNetDevicePfc, PfcRxReportsEachPfcFrameAndPfcFramesAreNotHandedUp)
{
    TwoPorts ports{DataRate("100Gb/s")};
    ports.BSendsPfc(Time(0), 2, 300);
    ports.BSendsPfc(MicroSeconds(1), 5, 1000);
    ports.BSendsPfc(MicroSeconds(2), 2, 0);
    Simulator::Run();
    ASSERT_EQ(ports.pfcAtA.size(), 3u);
    EXPECT_EQ(ports.pfcAtA[0].priority, 2u);
    EXPECT_EQ(ports.pfcAtA[0].quanta, 300u);
    EXPECT_EQ(ports.pfcAtA[1].priority, 5u);
    EXPECT_EQ(ports.pfcAtA[1].quanta, 1000u);
    EXPECT_EQ(ports.pfcAtA[2].priority, 2u);
    EXPECT_EQ(ports.pfcAtA[2].quanta, 0u);
    // Each arrives one propagation delay (1 us) plus its serialization after it was sent.
    EXPECT_GT(ports.pfcAtA[0].at, MicroSeconds(1));
    EXPECT_LT(ports.pfcAtA[0].at, MicroSeconds(1) + NanoSeconds(10));
    EXPECT_TRUE(ports.rxA.empty()) << "PFC frames are MAC control: not given to the node";
    EXPECT_TRUE(ports.macRxA.empty());
    EXPECT_TRUE(ports.pfcAtB.empty());
}

TEST(RdmaNetDevicePfc, ThePullSourceIsToldThePausedClassesAndAskedAgainWhenThePauseEnds)
{
    // A has a pull source with one class-3 frame, which it hands over only when class 3
    // is not paused. Class 3 is paused for 5.12 us from ~1.006 us; A is kicked at 2 us.
    TwoPorts ports{DataRate("100Gb/s")};

    struct Ask
    {
        Time at;
        uint8_t mask;
    };

    std::vector<Ask> asks;
    bool given = false;
    ports.a->SetPullSource([&asks, &given](uint8_t pausedMask) -> Ptr<Packet> {
        asks.push_back({Simulator::Now(), pausedMask});
        if (given || (pausedMask & (1u << 3)))
        {
            return nullptr;
        }
        given = true;
        return TwoPorts::DataFrame(3, 9);
    });
    ports.BSendsPfc(Time(0), 3, 1000);
    Simulator::Schedule(MicroSeconds(2), [&ports]() { ports.a->TryTransmit(); });
    Simulator::Run();
    ASSERT_EQ(ports.pfcAtA.size(), 1u);
    const Time expiry = ports.pfcAtA[0].at + NanoSeconds(5120);
    ASSERT_GE(asks.size(), 2u);
    EXPECT_EQ(asks[0].at, MicroSeconds(2));
    EXPECT_EQ(asks[0].mask, 1u << 3);
    EXPECT_EQ(asks[1].at, expiry) << "the end of the pause makes the idle port pull again";
    EXPECT_EQ(asks[1].mask, 0u);
    const std::vector<Seen> tx = ports.DataTxA();
    ASSERT_EQ(tx.size(), 1u);
    EXPECT_EQ(tx[0].psn, 9u);
    EXPECT_EQ(tx[0].at, expiry);
}

TEST(RdmaNetDevicePfc, WithHonourPfcOffAPauseStopsNothing)
{
    TwoPorts ports{DataRate("100Gb/s"), false};
    ports.BSendsPfc(Time(0), 3, kMaxQuanta);
    ports.AQueues(MicroSeconds(2), 3, 1);
    Simulator::Run();
    ASSERT_EQ(ports.pfcAtA.size(), 1u) << "the frame is still received and traced";
    const std::vector<Seen> tx = ports.DataTxA();
    ASSERT_EQ(tx.size(), 1u);
    EXPECT_EQ(tx[0].at, MicroSeconds(2));
}
