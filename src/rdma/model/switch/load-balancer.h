/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LOAD_BALANCER_H
#define RDMA_LOAD_BALANCER_H

#include "ns3/object.h"
#include "ns3/port-load-view.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-header.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Chooses the egress port of a frame among the equal-cost candidates of its destination
 * (one instance per switch). Subclasses: ECMP (flow hash); later per-packet spraying,
 * adaptive routing and flowlets.
 */
class LoadBalancer : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * Called once, when the balancer is installed on a switch, before any SelectPort.
     * \param ports the switch's per-port load (valid as long as the switch lives);
     * adaptive schemes read it, hash-based ones ignore it
     */
    virtual void Attach(const PortLoadView* ports);
    /**
     * Pick the egress port of one frame.
     * \param h the frame's header (addresses, UDP source port, class, PSN)
     * \param candidates the equal-cost egress ports of its destination (size >= 2)
     * \return one of \p candidates
     */
    virtual uint32_t SelectPort(const RdmaHeader& h, const std::vector<uint32_t>& candidates) = 0;
    /**
     * Fix the random streams used.
     * \param stream the first stream index to use
     * \return how many streams were used (deterministic schemes use none)
     */
    virtual int64_t AssignStreams(int64_t stream);
    /// Short name used in scenarios (routing.load_balancer) and outputs: "ecmp", ...
    virtual std::string GetName() const = 0;

  protected:
    /**
     * The balancer's random variable, created at its first use (AssignStreams or a
     * choice), so that making a balancer (the registry does, to ask its name) takes no
     * stream from ns-3's automatic stream numbering.
     */
    Ptr<UniformRandomVariable> GetRng();

  private:
    Ptr<UniformRandomVariable> m_rng;
};

} // namespace ns3

#endif /* RDMA_LOAD_BALANCER_H */
