/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RANKS_H
#define RDMA_RANKS_H

#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The ranks of a distributed run: the model's one door to ns-3's MPI module
 * (MpiInterface, MpiReceiver), so that no model file names it and the module builds
 * without it. In a build without MPI (NS3_MPI undefined, e.g. Debian's ns-3) or a run
 * that did not enable it, there is one rank, 0, and nothing crosses.
 */
class RdmaRanks
{
  public:
    /// Whether the module was built with ns-3's MPI module.
    static bool Available();
    /**
     * Make this run distributed: bind ns-3's SimulatorImplementationType to \p engine
     * (ns3::DistributedSimulatorImpl, granted-time windows, or
     * ns3::NullMessageSimulatorImpl), then MpiInterface::Enable. Call before anything
     * is scheduled: a simulator made before is destroyed first. Aborts in a build
     * without MPI.
     */
    static void Enable(int* argc, char*** argv, const std::string& engine);
    /// End the distributed run (MpiInterface::Disable), after Simulator::Destroy.
    static void Disable();
    /// This process's rank (ns-3's system id); 0 in a serial run.
    static uint32_t Rank();
    /// The number of ranks; 1 in a serial run.
    static uint32_t Size();
    /**
     * Hand frame bytes \p p to device \p ifIndex of node \p node on another rank, to
     * arrive at the absolute time \p rxTime (at least the lookahead ahead of now).
     * Aborts in a build without MPI (nothing is partitioned there).
     */
    static void Send(Ptr<Packet> p, Time rxTime, uint32_t node, uint32_t ifIndex);
    /**
     * Start the element-wise maximum of \p values over every rank, without blocking.
     * Collective: every rank starts its reductions in the same order, with as many
     * values. \return the reduction's handle, for FinishMax
     */
    static uint32_t StartMax(const std::vector<int64_t>& values);
    /**
     * Whether reduction \p handle has completed; \p wait blocks until it has. Once it
     * has, its result is in \p result and the handle is released.
     */
    static bool FinishMax(uint32_t handle, bool wait, std::vector<int64_t>* result);
    /// What AllReduce makes of the ranks' values.
    enum class Reduce
    {
        MIN,
        MAX,
        SUM,
    };
    /**
     * Replace \p values, element by element, by their minimum, maximum or sum over every
     * rank (blocking). Collective, as StartMax. Nothing changes in a serial run.
     */
    static void AllReduce(std::vector<int64_t>& values, Reduce op);
    /**
     * Every rank's \p text, in rank order, at rank 0 (elsewhere: empty). Collective.
     * Texts of any length cross (in pieces of at most 1 GiB).
     */
    static std::vector<std::string> Gather(const std::string& text);
    /**
     * The smallest delay of a link between ranks (RdmaTopology::Partition sets it): a
     * frame sent now arrives on another rank no sooner, so every rank may run that far
     * past the earliest next event of all ranks. Time::Max() when no link is cut.
     */
    static void SetLookahead(Time lookahead);
    static Time GetLookahead();

    /**
     * \name The module's own event core over ranks (ns3::RdmaSimulatorImpl as the engine,
     * simulator.engine rdma): frames cross on the module's communicator, and the core
     * runs granted-time windows with these.
     * @{
     */
    /// Whether the engine is the module's own core (Enable with ns3::RdmaSimulatorImpl).
    static bool OwnEngine();
    /// What a device on another rank is handed: (the delay from now to its arrival, the
    /// uid its arrival was given on the sending rank, its bytes, their number).
    using RecordHandler = Callback<void, Time, uint32_t, const uint8_t*, uint32_t>;
    /**
     * Send \p size bytes \p bytes (a frame's header) to device \p ifIndex of node \p node
     * on another rank, to arrive at \p rxTime (at least the lookahead ahead of now) under
     * uid \p uid (RdmaSim::ReserveUid, or 0 where the receiver chooses). The records of a
     * window travel together, one MPI message per rank, at its end (Grant).
     */
    static void SendRecord(uint32_t node,
                           uint32_t ifIndex,
                           Time rxTime,
                           uint32_t uid,
                           const uint8_t* bytes,
                           uint32_t size);
    /// Hand the records sent to device \p ifIndex of node \p node to \p handler.
    static void ListenRecords(uint32_t node, uint32_t ifIndex, RecordHandler handler);
    /**
     * The next window, agreed by all ranks (collective): this window's records go out,
     * and those sent to this rank come in and are handed over (their arrivals
     * scheduled). Each rank gives the time stamp of its earliest event \p nextTs
     * (UINT64_MAX: none); the earliest of all, and of the records sent, plus the
     * lookahead becomes \p granted: every rank may run its events up to it.
     * \return false once no rank has an event (the run is over everywhere)
     */
    static bool Grant(uint64_t nextTs, uint64_t* granted);
    /// At the end of a run (Disable): records never sent are dropped, sends completed.
    static void EndRecords();
    /// Windows agreed so far (Grant calls), and the wall time spent in them: the time
    /// this rank waited for the others and for frames in transit.
    static uint64_t GetWindows();
    static double GetWindowWaitSeconds();
    /** @} */

    /// Have device \p device receive what another rank sends it, through \p receive
    /// (an MpiReceiver aggregated to it). Does nothing in a build without MPI.
    static void Listen(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> receive);
};

} // namespace ns3

#endif /* RDMA_RANKS_H */
