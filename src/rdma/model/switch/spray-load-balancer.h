/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SPRAY_LOAD_BALANCER_H
#define SPRAY_LOAD_BALANCER_H

#include "ns3/load-balancer.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Per-packet spraying: every packet picks an equal-cost port at random or in round
 * robin, whatever its flow. Uses every link; reorders packets.
 */
class SprayLoadBalancer : public LoadBalancer
{
  public:
    enum Mode
    {
        RANDOM,
        ROUND_ROBIN,
    };

    static TypeId GetTypeId();
    SprayLoadBalancer();

    uint32_t SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates) override;
    std::string GetName() const override;
    int64_t AssignStreams(int64_t stream) override;

  private:
    Mode m_mode;
    uint32_t m_next; ///< round-robin position
};

} // namespace ns3

#endif /* SPRAY_LOAD_BALANCER_H */
