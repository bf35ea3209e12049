/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaRanks, the part the module's own event core uses over MPI ranks (simulator.engine
 * rdma): the records (frame headers) that links between ranks carry, batched per window
 * and per rank, and the granted-time windows. ns-3's engines carry frames through
 * MpiInterface instead (rdma-ranks.cc).
 */
#include "ns3/abort.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/rdma-ranks.h"
#include "ns3/simulator.h"

#include <chrono>
#include <cstring>
#include <limits>
#include <list>
#include <unordered_map>
#include <vector>

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

namespace ns3
{

#ifdef NS3_MPI
MPI_Comm RdmaRanksCommunicator();
#endif

namespace
{
/// What precedes a record's bytes in a batch.
struct RecordHead
{
    int64_t rxTs;     ///< arrival time stamp
    uint32_t node;    ///< receiving node
    uint32_t ifIndex; ///< receiving device
    uint32_t uid;     ///< its arrival's uid on the sending rank (0: none)
    uint32_t size;    ///< bytes that follow
};

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

#ifdef NS3_MPI
/// MPI tag of a batch of records (the gathers use tag 0).
constexpr int kBatchTag = 7;
/// The records of this window, per destination rank.
std::vector<std::vector<uint8_t>> g_batches;
/// The earliest arrival among them (kNever: none).
uint64_t g_earliestSent = kNever;
/// Batches sent to each rank, and received from each, since the run began.
std::vector<uint64_t> g_sentTo;
std::vector<uint64_t> g_receivedFrom;
#endif

/// The handlers of the devices that listen, by (node, interface).
std::unordered_map<uint64_t, RdmaRanks::RecordHandler> g_handlers;
/// Grant calls, and the wall time spent in them.
uint64_t g_windows = 0;
double g_windowWait = 0;

uint64_t
DeviceKey(uint32_t node, uint32_t ifIndex)
{
    return (uint64_t(node) << 32) | ifIndex;
}

#ifdef NS3_MPI
/// A batch on its way, kept until MPI has sent it.
struct Outgoing
{
    MPI_Request request = MPI_REQUEST_NULL;
    std::vector<uint8_t> bytes;
};

std::list<Outgoing> g_outgoing;

/// Forget the sends MPI has completed; \p wait: wait for all of them.
void
CompleteSends(bool wait)
{
    for (auto it = g_outgoing.begin(); it != g_outgoing.end();)
    {
        int done = 1;
        if (wait)
        {
            MPI_Wait(&it->request, MPI_STATUS_IGNORE);
        }
        else
        {
            MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
        }
        it = done ? g_outgoing.erase(it) : std::next(it);
    }
}

/// Send this window's batches, one message per rank that has records.
void
SendBatches()
{
    for (std::size_t rank = 0; rank < g_batches.size(); ++rank)
    {
        if (g_batches[rank].empty())
        {
            continue;
        }
        Outgoing& out = g_outgoing.emplace_back();
        out.bytes.swap(g_batches[rank]);
        MPI_Isend(out.bytes.data(),
                  static_cast<int>(out.bytes.size()),
                  MPI_BYTE,
                  static_cast<int>(rank),
                  kBatchTag,
                  RdmaRanksCommunicator(),
                  &out.request);
        ++g_sentTo[rank];
    }
}

/// Receive the next batch from rank \p from and hand its records to their devices.
void
ReceiveBatch(int from)
{
    MPI_Status status;
    MPI_Probe(from, kBatchTag, RdmaRanksCommunicator(), &status);
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::vector<uint8_t> bytes(count);
    MPI_Recv(bytes.data(),
             count,
             MPI_BYTE,
             status.MPI_SOURCE,
             kBatchTag,
             RdmaRanksCommunicator(),
             MPI_STATUS_IGNORE);
    ++g_receivedFrom[from];
    const Time now = Simulator::Now();
    for (std::size_t at = 0; at < bytes.size();)
    {
        RecordHead head;
        std::memcpy(&head, bytes.data() + at, sizeof(head));
        at += sizeof(head);
        auto it = g_handlers.find(DeviceKey(head.node, head.ifIndex));
        NS_ABORT_MSG_IF(it == g_handlers.end(),
                        "RdmaRanks: a record for node " << head.node << " device " << head.ifIndex
                                                        << ", which does not listen");
        NS_ABORT_MSG_IF(TimeStep(head.rxTs) < now,
                        "RdmaRanks: a record arrives at " << head.rxTs << ", before now ("
                                                          << now.GetTimeStep() << ")");
        it->second(TimeStep(head.rxTs) - now, head.uid, bytes.data() + at, head.size);
        at += head.size;
    }
}
#endif
} // namespace

void
RdmaRanks::SendRecord(uint32_t node,
                      uint32_t ifIndex,
                      Time rxTime,
                      uint32_t uid,
                      const uint8_t* bytes,
                      uint32_t size)
{
#ifdef NS3_MPI
    if (g_batches.empty())
    {
        g_batches.resize(Size());
        g_sentTo.assign(Size(), 0);
        g_receivedFrom.assign(Size(), 0);
    }
    const uint32_t rank = NodeList::GetNode(node)->GetSystemId();
    std::vector<uint8_t>& batch = g_batches[rank];
    const RecordHead head{rxTime.GetTimeStep(), node, ifIndex, uid, size};
    const std::size_t at = batch.size();
    batch.resize(at + sizeof(head) + size);
    std::memcpy(batch.data() + at, &head, sizeof(head));
    std::memcpy(batch.data() + at + sizeof(head), bytes, size);
    g_earliestSent = std::min<uint64_t>(g_earliestSent, rxTime.GetTimeStep());
#else
    (void)node;
    (void)ifIndex;
    (void)rxTime;
    (void)uid;
    (void)bytes;
    (void)size;
    NS_FATAL_ERROR("RdmaRanks::SendRecord: the module was built without ns-3's MPI module");
#endif
}

void
RdmaRanks::ListenRecords(uint32_t node, uint32_t ifIndex, RecordHandler handler)
{
    g_handlers[DeviceKey(node, ifIndex)] = handler;
}

bool
RdmaRanks::Grant(uint64_t nextTs, uint64_t* granted)
{
    ++g_windows;
#ifdef NS3_MPI
    const auto start = std::chrono::steady_clock::now();
    const uint32_t ranks = Size();
    if (g_batches.empty())
    {
        g_batches.resize(ranks);
        g_sentTo.assign(ranks, 0);
        g_receivedFrom.assign(ranks, 0);
    }
    SendBatches();
    // Per rank: batches sent to each rank so far, then its earliest event or record.
    std::vector<uint64_t> mine(g_sentTo);
    mine.push_back(std::min(nextTs, g_earliestSent));
    g_earliestSent = kNever;
    std::vector<uint64_t> all(std::size_t(ranks) * (ranks + 1));
    MPI_Allgather(mine.data(),
                  ranks + 1,
                  MPI_UINT64_T,
                  all.data(),
                  ranks + 1,
                  MPI_UINT64_T,
                  RdmaRanksCommunicator());
    uint64_t earliest = kNever;
    for (uint32_t k = 0; k < ranks; ++k)
    {
        earliest = std::min(earliest, all[std::size_t(k) * (ranks + 1) + ranks]);
        // What rank k sent this rank up to this window, and no more: a rank already past
        // this window may have sent the next one's, which belongs to the next window.
        const uint64_t expected = all[std::size_t(k) * (ranks + 1) + Rank()];
        while (g_receivedFrom[k] < expected)
        {
            ReceiveBatch(static_cast<int>(k));
        }
    }
    CompleteSends(false);
    g_windowWait += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const uint64_t ahead = static_cast<uint64_t>(GetLookahead().GetTimeStep());
    *granted = earliest > kNever - ahead ? kNever : earliest + ahead;
    return earliest != kNever;
#else
    *granted = nextTs;
    return nextTs != kNever;
#endif
}

void
RdmaRanks::EndRecords()
{
#ifdef NS3_MPI
    // Every batch sent was received in its window; records of the last one stay unsent.
    g_batches.clear();
    CompleteSends(true);
#endif
    g_handlers.clear();
}

uint64_t
RdmaRanks::GetWindows()
{
    return g_windows;
}

double
RdmaRanks::GetWindowWaitSeconds()
{
    return g_windowWait;
}

} // namespace ns3
