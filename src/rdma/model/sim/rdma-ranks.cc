/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-ranks.h"

#include "ns3/abort.h"

#ifdef NS3_MPI
#include "ns3/global-value.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/string.h"
#endif

namespace ns3
{

bool
RdmaRanks::Available()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

void
RdmaRanks::Enable(int* argc, char*** argv, const std::string& engine)
{
#ifdef NS3_MPI
    GlobalValue::Bind("SimulatorImplementationType", StringValue(engine));
    MpiInterface::Enable(argc, argv);
#else
    (void)argc;
    (void)argv;
    NS_FATAL_ERROR("RdmaRanks::Enable(" << engine
                                        << "): the module was built without ns-3's MPI module");
#endif
}

void
RdmaRanks::Disable()
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
#endif
}

uint32_t
RdmaRanks::Rank()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
RdmaRanks::Size()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

void
RdmaRanks::Send(Ptr<Packet> p, Time rxTime, uint32_t node, uint32_t ifIndex)
{
#ifdef NS3_MPI
    MpiInterface::SendPacket(p, rxTime, node, ifIndex);
#else
    (void)p;
    (void)rxTime;
    (void)node;
    (void)ifIndex;
    NS_FATAL_ERROR("RdmaRanks::Send: the module was built without ns-3's MPI module");
#endif
}

void
RdmaRanks::Listen(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> receive)
{
#ifdef NS3_MPI
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(receive);
    device->AggregateObject(receiver);
#else
    (void)device;
    (void)receive;
#endif
}

} // namespace ns3
