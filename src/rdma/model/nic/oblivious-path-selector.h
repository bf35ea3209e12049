/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_OBLIVIOUS_PATH_SELECTOR_H
#define RDMA_OBLIVIOUS_PATH_SELECTOR_H

#include "ns3/path-selector.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Oblivious spraying (`oblivious`), htsim's UecMpOblivious: each packet takes the next
 * entropy of the QP's space, and every round of Paths packets visits each entropy once,
 * in an order that changes from round to round (htsim XORs the counter with a value
 * drawn at each wrap, which needs a power-of-two space; here the round starts at a drawn
 * offset, which visits each entropy once for any size). Feedback is ignored.
 */
class ObliviousPathSelector : public PathSelector
{
  public:
    static TypeId GetTypeId();

    ObliviousPathSelector();

    std::string GetName() const override;

  protected:
    /// The next index of the current round (a new round, at a new offset, after the last).
    uint32_t NextIndex();
    /// Start the first round at a random offset.
    void DoInit() override;

  private:
    uint16_t DoNextEntropy(uint16_t basePort, uint32_t psn, Time now) override;

    uint32_t m_step;   ///< packets sent in the current round
    uint32_t m_offset; ///< where the current round started
};

} // namespace ns3

#endif /* RDMA_OBLIVIOUS_PATH_SELECTOR_H */
