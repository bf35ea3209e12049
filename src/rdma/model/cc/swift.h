/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SWIFT_H
#define RDMA_SWIFT_H

#include "ns3/congestion-control.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Swift congestion control (being written: see ALGORITHMS.md).
 */
class Swift : public CongestionControl
{
  public:
    static TypeId GetTypeId();
    uint64_t GetRate() override;
    std::string GetName() const override;
};

} // namespace ns3

#endif /* RDMA_SWIFT_H */
