/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_UPLINK_METER_H
#define RDMA_UPLINK_METER_H

#include "ns3/event-id.h"
#include "ns3/rdma-topology.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * How evenly each leaf spreads its traffic over its uplinks to the spines:
 * imbalance = (max - min) / mean of the bytes sent on a leaf's uplinks, over the whole
 * run and over consecutive windows (windows where the leaf sent nothing are skipped).
 */
class UplinkMeter
{
  public:
    UplinkMeter(const RdmaTopology& topo, Time window);
    void Start();
    void Stop();

    /// Whole run: the worst leaf's imbalance, and the mean over leaves.
    double GetRunImbalanceMax() const;
    double GetRunImbalanceMean() const;
    /// Mean over (leaf, window) pairs of the window imbalance.
    double GetWindowImbalanceMean() const;

    /// (max - min) / mean of \p bytes; 0 when empty or all zero.
    static double Imbalance(const std::vector<uint64_t>& bytes);
    /// The worst and the mean imbalance over leaves of \p perLeaf (each leaf's uplink
    /// bytes), as GetRunImbalanceMax and GetRunImbalanceMean give them for the fabric.
    static double ImbalanceMax(const std::vector<std::vector<uint64_t>>& perLeaf);
    static double ImbalanceMean(const std::vector<std::vector<uint64_t>>& perLeaf);

    /// Each window's bytes per leaf and uplink, in order (window k ends at (k+1) windows).
    using Windows = std::vector<std::vector<std::vector<uint64_t>>>;
    /// Keep every window's bytes (GetWindows): a run over MPI ranks adds the ranks'
    /// windows up before it takes their imbalance.
    void KeepWindows();
    const Windows& GetWindows() const;
    /// GetWindowImbalanceMean of \p windows.
    static double WindowImbalanceMean(const Windows& windows);

  private:
    void Tick();

    const RdmaTopology& m_topo;
    Time m_window;
    EventId m_event;
    std::vector<std::vector<uint64_t>> m_last;
    double m_windowSum;
    uint64_t m_windowCount;
    bool m_keepWindows = false;
    Windows m_windows;
};

} // namespace ns3

#endif /* RDMA_UPLINK_METER_H */
