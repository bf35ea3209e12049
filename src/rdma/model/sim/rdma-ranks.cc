/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-ranks.h"

#include "ns3/abort.h"

#include <algorithm>
#include <map>

#ifdef NS3_MPI
#include "ns3/global-value.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <mpi.h>
#endif

namespace ns3
{

namespace
{
/// A reduction started by StartMax and not yet finished.
struct Reduction
{
    std::vector<int64_t> in;
    std::vector<int64_t> out;
#ifdef NS3_MPI
    MPI_Request request = MPI_REQUEST_NULL;
#endif
};

/// The reductions in flight, by handle.
std::map<uint32_t, Reduction>&
Reductions()
{
    static std::map<uint32_t, Reduction> pending;
    return pending;
}

/// The next reduction's handle.
uint32_t g_nextReduction = 0;

#ifdef NS3_MPI
/// The module's own communicator (a duplicate of ns-3's), so that its collectives never
/// interleave with the engine's.
MPI_Comm g_comm = MPI_COMM_NULL;

/// Largest piece of a gathered text sent at once (MPI counts are int).
constexpr std::size_t kPiece = std::size_t(1) << 30;

/// The engine is the module's own core (RdmaRanks::OwnEngine).
bool g_ownEngine = false;
#endif

/// The ranks' lookahead (RdmaRanks::SetLookahead).
Time g_lookahead = Time::Max();
} // namespace

#ifdef NS3_MPI
/// The module's communicator, for the own engine's transport (rdma-rank-link.cc).
MPI_Comm
RdmaRanksCommunicator()
{
    return g_comm;
}
#endif

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
    // A simulator made before (reading a scenario can make one) would not be the engine.
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(engine));
    MpiInterface::Enable(argc, argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &g_comm);
    g_ownEngine = engine == "ns3::RdmaSimulatorImpl";
    if (g_ownEngine)
    {
        // ns-3's MPI interface started MPI (and took its own engine, which is not used).
        GlobalValue::Bind("SimulatorImplementationType", StringValue(engine));
    }
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
        NS_ABORT_MSG_IF(!Reductions().empty(), "RdmaRanks::Disable: reductions still in flight");
        if (g_ownEngine)
        {
            EndRecords();
            g_ownEngine = false;
        }
        if (g_comm != MPI_COMM_NULL)
        {
            MPI_Comm_free(&g_comm);
        }
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
RdmaRanks::SetLookahead(Time lookahead)
{
    g_lookahead = lookahead;
}

Time
RdmaRanks::GetLookahead()
{
    return g_lookahead;
}

bool
RdmaRanks::OwnEngine()
{
#ifdef NS3_MPI
    return g_ownEngine;
#else
    return false;
#endif
}

uint32_t
RdmaRanks::StartMax(const std::vector<int64_t>& values)
{
    const uint32_t handle = g_nextReduction++;
    Reduction& r = Reductions()[handle];
    r.in = values;
    r.out = values; // one rank: its own values are the maximum
#ifdef NS3_MPI
    if (g_comm != MPI_COMM_NULL)
    {
        MPI_Iallreduce(r.in.data(),
                       r.out.data(),
                       static_cast<int>(r.in.size()),
                       MPI_INT64_T,
                       MPI_MAX,
                       g_comm,
                       &r.request);
    }
#endif
    return handle;
}

void
RdmaRanks::AllReduce(std::vector<int64_t>& values, Reduce op)
{
#ifdef NS3_MPI
    if (g_comm != MPI_COMM_NULL)
    {
        const MPI_Op mpiOp = op == Reduce::MIN ? MPI_MIN : op == Reduce::MAX ? MPI_MAX : MPI_SUM;
        MPI_Allreduce(MPI_IN_PLACE,
                      values.data(),
                      static_cast<int>(values.size()),
                      MPI_INT64_T,
                      mpiOp,
                      g_comm);
    }
#else
    (void)values;
    (void)op;
#endif
}

bool
RdmaRanks::FinishMax(uint32_t handle, bool wait, std::vector<int64_t>* result)
{
    auto it = Reductions().find(handle);
    NS_ABORT_MSG_IF(it == Reductions().end(), "RdmaRanks::FinishMax: no reduction " << handle);
#ifdef NS3_MPI
    if (it->second.request != MPI_REQUEST_NULL)
    {
        int done = 0;
        if (wait)
        {
            MPI_Wait(&it->second.request, MPI_STATUS_IGNORE);
            done = 1;
        }
        else
        {
            MPI_Test(&it->second.request, &done, MPI_STATUS_IGNORE);
        }
        if (!done)
        {
            return false;
        }
    }
#else
    (void)wait;
#endif
    *result = std::move(it->second.out);
    Reductions().erase(it);
    return true;
}

std::vector<std::string>
RdmaRanks::Gather(const std::string& text)
{
#ifdef NS3_MPI
    if (g_comm != MPI_COMM_NULL)
    {
        int rank = 0;
        int size = 1;
        MPI_Comm_rank(g_comm, &rank);
        MPI_Comm_size(g_comm, &size);
        uint64_t length = text.size();
        std::vector<uint64_t> lengths(rank == 0 ? size : 0);
        MPI_Gather(&length, 1, MPI_UINT64_T, lengths.data(), 1, MPI_UINT64_T, 0, g_comm);
        if (rank != 0)
        {
            for (std::size_t at = 0; at < text.size(); at += kPiece)
            {
                const std::size_t n = std::min(kPiece, text.size() - at);
                MPI_Send(text.data() + at, static_cast<int>(n), MPI_CHAR, 0, 0, g_comm);
            }
            return {};
        }
        std::vector<std::string> texts(size);
        texts[0] = text;
        for (int k = 1; k < size; ++k)
        {
            texts[k].resize(lengths[k]);
            for (std::size_t at = 0; at < texts[k].size(); at += kPiece)
            {
                const std::size_t n = std::min(kPiece, texts[k].size() - at);
                MPI_Recv(texts[k].data() + at,
                         static_cast<int>(n),
                         MPI_CHAR,
                         k,
                         0,
                         g_comm,
                         MPI_STATUS_IGNORE);
            }
        }
        return texts;
    }
#endif
    return {text};
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
