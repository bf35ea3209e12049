/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_REMOTE_CHANNEL_H
#define RDMA_REMOTE_CHANNEL_H

#include "ns3/rdma-channel.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A link whose two ends are stepped by different MPI ranks, as ns-3's
 * PointToPointRemoteChannel is for PointToPointChannel.
 *
 * What the local end sends crosses to the other rank at its arrival time
 * (RdmaRanks::SendRecord on the module's own engine: the header's wire image and, ordered
 * by node, the uid the sender reserves for the arrival, as a serial link does;
 * RdmaRanks::Send on ns-3's engines: the packet). What the other end sends arrives
 * through the local device's listener (RdmaRanks::ListenRecords or RdmaRanks::Listen).
 * It keeps no frames in flight: every frame leaves the process. The topology builds one
 * for each link cut by the partition, and an RdmaChannel for every other.
 */
class RdmaRemoteChannel : public RdmaChannel
{
  public:
    static TypeId GetTypeId();

  protected:
    /// Send \p f to \p dst's rank, to arrive after \p txSteps and the delay.
    void Deliver(const Ptr<RdmaFrame>& f, RdmaNetDevice* dst, uint64_t txSteps) override;
    /// false: its frames leave the process.
    bool KeepsFramesInFlight() const override;
};

} // namespace ns3

#endif /* RDMA_REMOTE_CHANNEL_H */
