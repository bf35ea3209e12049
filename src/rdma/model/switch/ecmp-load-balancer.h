/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ECMP_LOAD_BALANCER_H
#define ECMP_LOAD_BALANCER_H

#include "ns3/load-balancer.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Flow ECMP: a hash of the 5-tuple (source, destination, UDP source port = per-QP
 * entropy, UDP destination port, protocol) picks the port, so a QP keeps one path.
 * The hash is salted per switch: with the same salt everywhere, the switches of the next
 * tier would see only flows that already hashed alike and use a fraction of their ports
 * (polarization).
 */
class EcmpLoadBalancer : public LoadBalancer
{
  public:
    static TypeId GetTypeId();
    EcmpLoadBalancer();

    uint32_t SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates) override;
    std::string GetName() const override;

    /// The salted 5-tuple hash (a 64-bit mixer, well spread in the low bits).
    static uint32_t Hash(const RdmaHeader& h, uint32_t salt);

  private:
    uint32_t m_salt;
};

} // namespace ns3

#endif /* ECMP_LOAD_BALANCER_H */
