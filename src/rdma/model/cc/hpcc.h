/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HPCC_H
#define RDMA_HPCC_H

#include "ns3/congestion-control.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Hpcc congestion control (being written: see ALGORITHMS.md).
 */
class Hpcc : public CongestionControl
{
  public:
    static TypeId GetTypeId();
    uint64_t GetRate() override;
    std::string GetName() const override;
};

} // namespace ns3

#endif /* RDMA_HPCC_H */
