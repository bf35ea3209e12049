/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NO_CONGESTION_CONTROL_H
#define NO_CONGESTION_CONTROL_H

#include "ns3/congestion-control.h"

namespace ns3
{

/**
 * \ingroup rdma
 * No congestion control: every QP sends at line rate ("none"); the fabric relies on PFC
 * (or drops). The baseline every CC study compares against.
 */
class NoCongestionControl : public CongestionControl
{
  public:
    static TypeId GetTypeId();

  private:
    // CongestionControl
    uint64_t DoGetRate() override;
    std::string DoGetName() const override;
    /// \return the optional hooks it implements: none
    uint16_t DoImplementedHooks() const override;
};

} // namespace ns3

#endif /* NO_CONGESTION_CONTROL_H */
