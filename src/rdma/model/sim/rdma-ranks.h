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
    /**
     * Every rank's \p text, in rank order, at rank 0 (elsewhere: empty). Collective.
     * Texts of any length cross (in pieces of at most 1 GiB).
     */
    static std::vector<std::string> Gather(const std::string& text);
    /// Have device \p device receive what another rank sends it, through \p receive
    /// (an MpiReceiver aggregated to it). Does nothing in a build without MPI.
    static void Listen(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> receive);
};

} // namespace ns3

#endif /* RDMA_RANKS_H */
