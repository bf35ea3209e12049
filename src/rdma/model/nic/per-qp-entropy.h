/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PER_QP_ENTROPY_H
#define RDMA_PER_QP_ENTROPY_H

#include "ns3/path-selector.h"

namespace ns3
{

/**
 * \ingroup rdma
 * The default path selection (`per_qp`): every packet of a QP carries the QP's own UDP
 * source port, so plain ECMP keeps a QP on one path, as RoCEv2 NICs do. With
 * ChangePackets N > 0 the port changes every N packets (host-side spraying over ECMP,
 * scenario key nic.entropy_change_packets): PSN / N picks a port of the dynamic range
 * by a hash of the QP's port. No feedback, no state: one instance serves every QP.
 */
class PerQpEntropy : public PathSelector
{
  public:
    static TypeId GetTypeId();

    PerQpEntropy();

    bool IsPerQp() const override;
    /// True without EntropyChangePackets.
    bool KeepsQpPort() const override;
    std::string GetName() const override;

  private:
    uint16_t DoNextEntropy(uint16_t basePort, uint32_t psn, Time now) override;

    uint32_t m_changePackets;
};

} // namespace ns3

#endif /* RDMA_PER_QP_ENTROPY_H */
