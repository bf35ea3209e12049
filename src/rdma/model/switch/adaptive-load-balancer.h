/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ADAPTIVE_LOAD_BALANCER_H
#define ADAPTIVE_LOAD_BALANCER_H

#include "ns3/load-balancer.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Per-packet adaptive routing (NVIDIA Spectrum-X style): each packet takes the
 * equal-cost egress port with the fewest queued bytes, ties broken at random; a port
 * whose class is paused by PFC can count as full. Uses every link and reacts to slow
 * ones; reorders packets, which the receiver NIC must absorb (direct placement).
 */
class AdaptiveLoadBalancer : public LoadBalancer
{
  public:
    static TypeId GetTypeId();
    AdaptiveLoadBalancer();

    void Attach(const PortLoadView* ports) override;
    uint32_t SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates) override;
    std::string GetName() const override;
    int64_t AssignStreams(int64_t stream) override;

  private:
    const PortLoadView* m_ports;
    bool m_pausedAsFull;
};

} // namespace ns3

#endif /* ADAPTIVE_LOAD_BALANCER_H */
