/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The event core's knowledge of the fabric's layout (FabricLayout, model/sim): what it
 * loads ahead of a link's arrival and a port's end of transmission. A load ahead changes
 * nothing that is simulated (EventCore.WarmNextChangesNothingSimulated and
 * PortPrefetchChangesNothingSimulated run whole scenarios with and without); what can
 * go wrong is that it names the wrong memory or none, which these tests check: Setup
 * gives every link's arrival and every port's end of transmission the role of the node
 * behind the port; an arrival names the receive QP for DATA and the send QP for an
 * answer, nothing for other frames and unknown QP numbers, as a NIC's QP vectors grow
 * and move; what is loaded of a QP's controller spans it exactly, up to the core's
 * bound; and an event the core does not know runs as before with warming on.
 */
#include "ns3/core-module.h"
#include "ns3/fabric-layout.h"
#include "ns3/member-event.h"
#include "ns3/plugin-registry.h"
#include "ns3/rdma-module.h"
#include "ns3/rdma-sim-schedule.h"
#include "ns3/rdma-simulator-impl.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

RdmaHeader
Frame(RdmaPacketType type, uint32_t dstQpn)
{
    RdmaHeader h;
    h.type = type;
    h.dstQpn = dstQpn;
    return h;
}

std::vector<std::string> g_log;

/// An object with a run, as a port's end of transmission is.
class Owner
{
  public:
    void Run()
    {
        g_log.push_back("run");
    }
};

void
Log(std::string what)
{
    g_log.push_back(what);
}

} // namespace

TEST(FabricLayoutTest, SetupGivesEveryLinkAndPortTheRoleOfItsNode)
{
    RdmaTopology topo;
    StarHelper star;
    star.hosts = 3;
    star.Build(topo);
    topo.Finalize();
    Ptr<RdmaNetDevice> host = topo.GetNic(topo.GetHosts()[0])->GetDevice();
    Ptr<RdmaNetDevice> port = host->GetRdmaChannel()->GetPeer(host);
    EXPECT_EQ(FabricLayout::RoleOfArrivalAt(*host), FabricLayout::NONE) << "before Setup";
    FabricLayout::Setup();
    for (uint32_t h : topo.GetHosts())
    {
        Ptr<RdmaNetDevice> dev = topo.GetNic(h)->GetDevice();
        Ptr<RdmaNetDevice> peer = dev->GetRdmaChannel()->GetPeer(dev);
        EXPECT_EQ(FabricLayout::RoleOfTxEnd(*dev), FabricLayout::TX_END_NIC);
        EXPECT_EQ(FabricLayout::RoleOfArrivalAt(*dev), FabricLayout::ARRIVAL_NIC);
        EXPECT_EQ(FabricLayout::RoleOfTxEnd(*peer), FabricLayout::TX_END_SWITCH);
        EXPECT_EQ(FabricLayout::RoleOfArrivalAt(*peer), FabricLayout::ARRIVAL_SWITCH);
    }
    // (At least: nodes another test left behind count too.)
    EXPECT_GE(FabricLayout::PortBytes(), int64_t(2 * 3) * RdmaNetDevice::kHotLines * 64)
        << "three links, two ports each";
    EXPECT_EQ(FabricLayout::PortLines(), RdmaNetDevice::kHotLines);
    Simulator::Destroy();
}

TEST(FabricLayoutTest, ArrivalsNameTheirQpAsTheNicsTablesGrow)
{
    RdmaTopology topo;
    StarHelper star;
    star.hosts = 2;
    star.Build(topo);
    topo.Finalize();
    Ptr<RdmaNic> sender = topo.GetNic(topo.GetHosts()[0]);
    Ptr<RdmaNic> receiver = topo.GetNic(topo.GetHosts()[1]);
    EXPECT_EQ(FabricLayout::QpOf(*sender, Frame(RdmaPacketType::ACK, 0)), nullptr) << "no QP";
    EXPECT_EQ(FabricLayout::QpOf(*receiver, Frame(RdmaPacketType::DATA, 0)), nullptr);

    std::vector<const void*> qp0;
    // Enough connections for the QP vectors to reallocate several times.
    for (uint32_t i = 0; i < 100; ++i)
    {
        const uint32_t qpn = RdmaNic::Connect(sender, receiver, 3, static_cast<uint16_t>(1000 + i));
        ASSERT_EQ(qpn, i);
        qp0.push_back(&sender->GetSendQp(0));
        for (uint32_t k = 0; k <= i; ++k)
        {
            for (RdmaPacketType t : {RdmaPacketType::ACK,
                                     RdmaPacketType::NACK,
                                     RdmaPacketType::CNP,
                                     RdmaPacketType::PROBE_RESP})
            {
                ASSERT_EQ(FabricLayout::QpOf(*sender, Frame(t, k)), &sender->GetSendQp(k))
                    << "after " << i + 1 << " QPs, QP " << k;
            }
            // The core loads two lines from the QP's start, which hold what a pull and
            // an acknowledgement read only if the QP starts a line.
            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(&sender->GetSendQp(k)) % 64, 0u)
                << "QP " << k << " is not aligned to a cache line";
        }
        EXPECT_EQ(FabricLayout::QpOf(*sender, Frame(RdmaPacketType::ACK, i + 1)), nullptr);
        EXPECT_NE(FabricLayout::QpOf(*receiver, Frame(RdmaPacketType::DATA, i)), nullptr);
        EXPECT_EQ(FabricLayout::QpOf(*receiver, Frame(RdmaPacketType::DATA, i + 1)), nullptr);
        // Each side holds only its half of the connection.
        EXPECT_EQ(FabricLayout::QpOf(*sender, Frame(RdmaPacketType::DATA, 0)), nullptr);
        EXPECT_EQ(FabricLayout::QpOf(*receiver, Frame(RdmaPacketType::ACK, 0)), nullptr);
    }
    // A probe is answered by the NIC without a QP; PFC stays in the device.
    EXPECT_EQ(FabricLayout::QpOf(*sender, Frame(RdmaPacketType::PROBE, 0)), nullptr);
    EXPECT_EQ(FabricLayout::QpOf(*sender, Frame(RdmaPacketType::PFC, 0)), nullptr);
    // The receive entries are consecutive QPs, one RecvQueuePair apart.
    const auto* r0 =
        static_cast<const char*>(FabricLayout::QpOf(*receiver, Frame(RdmaPacketType::DATA, 0)));
    const auto* r7 =
        static_cast<const char*>(FabricLayout::QpOf(*receiver, Frame(RdmaPacketType::DATA, 7)));
    EXPECT_EQ(r7 - r0, static_cast<std::ptrdiff_t>(7 * sizeof(RecvQueuePair)));
    // The test meant something only if the send table did move.
    EXPECT_NE(qp0.front(), qp0.back()) << "the QP vector never moved";
    Simulator::Destroy();
}

TEST(FabricLayoutTest, ControllerLinesSpanTheControllerExactly)
{
    // From the line a controller starts in to the one its last byte is in, for
    // controllers at every offset the heap gives (many objects), capped at the core's
    // bound; no line beyond its end (that one belongs to another object). Every
    // controller of the registry, the larger ones included: none is refused for its size.
    for (const PluginRegistry::Plugin& cc : PluginRegistry::CongestionControls().Plugins())
    {
        ObjectFactory factory;
        factory.SetTypeId(cc.tid);
        const uint32_t size = cc.tid.GetSize();
        std::vector<Ptr<CongestionControl>> keep; // alive, so each gets a new address
        for (int i = 0; i < 16; ++i)
        {
            keep.push_back(factory.Create<CongestionControl>());
            const auto first = reinterpret_cast<std::uintptr_t>(PeekPointer(keep.back()));
            const std::uintptr_t last = first + size - 1;
            const uint32_t spanned = static_cast<uint32_t>(last / 64 - first / 64 + 1);
            EXPECT_EQ(FabricLayout::ControllerLines(*keep.back()),
                      std::min(spanned, FabricLayout::kCcMostLines))
                << cc.name << " at offset " << first % 64;
        }
    }
    EXPECT_GE(FabricLayout::kCcMostLines, FabricLayout::kCcFirstLines);
}

TEST(FabricLayoutTest, SetupMeasuresTheControllersInUse)
{
    RdmaTopology topo;
    StarHelper star;
    star.hosts = 2;
    star.Build(topo);
    topo.Finalize();
    FabricLayout::Setup();
    EXPECT_EQ(FabricLayout::CcLines(), FabricLayout::kCcMostLines) << "none yet: the bound";
    Ptr<RdmaNic> sender = topo.GetNic(topo.GetHosts()[0]);
    Ptr<RdmaNic> receiver = topo.GetNic(topo.GetHosts()[1]);
    RdmaNic::Connect(sender, receiver, 3, 1000);
    FabricLayout::Setup();
    EXPECT_EQ(FabricLayout::CcLines(), FabricLayout::ControllerLines(*sender->GetSendQp(0).cc));
    Simulator::Destroy();
}

TEST(FabricLayoutTest, AnEventWithoutARoleRunsAsBeforeWithWarmingOn)
{
    for (auto warm : {RdmaSimulatorImpl::AID_ALWAYS, RdmaSimulatorImpl::AID_NEVER})
    {
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
        Owner owner;
        auto event = Create<MemberEvent<Owner, &Owner::Run>>(&owner);
        g_log.clear();
        Simulator::Schedule(NanoSeconds(5), &Log, std::string("a"));
        event->ScheduleIn(NanoSeconds(10));
        Simulator::Schedule(NanoSeconds(10), &Log, std::string("b"));
        Simulator::GetImplementation()->SetAttribute("WarmNext", EnumValue(warm));
        Simulator::Run();
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
        EXPECT_EQ(g_log, (std::vector<std::string>{"a", "run", "b"}));
        EXPECT_EQ(event->GetReferenceCount(), 1u) << "the run gives its reference back";
    }
}
