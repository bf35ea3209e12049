/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_BITMAP_PATH_SELECTOR_H
#define RDMA_BITMAP_PATH_SELECTOR_H

#include "ns3/oblivious-path-selector.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Oblivious spraying that skips entropies with bad news (`bitmap`), htsim's UecMpBitmap.
 * Each entropy has a penalty: an ACK with an ECN echo adds EcnPenalty, a NACK of a
 * trimmed packet NackPenalty, a timeout sets MaxPenalty, never above MaxPenalty; an
 * unmarked ACK changes nothing. The next entropy is the oblivious order's next one whose
 * penalty is 0; the first penalized one met on the way loses 1 (so a penalty counts
 * the rounds the entropy sits out, at least). If every entropy is penalized, the scan
 * gives up after a whole round and takes the next one.
 */
class BitmapPathSelector : public ObliviousPathSelector
{
  public:
    static TypeId GetTypeId();

    BitmapPathSelector();

    bool UsesFeedback() const override;
    std::string GetName() const override;

    /// The penalty of index \p index of the space (for tests and traces).
    uint8_t GetPenalty(uint32_t index) const;

  private:
    void DoInit() override;
    uint16_t DoNextEntropy(uint16_t basePort, uint32_t psn, Time now) override;
    void DoOnAck(uint16_t entropy, bool ecnEcho, Time now) override;
    void DoOnNack(uint16_t entropy, Time now) override;
    void DoOnTimeout(uint16_t entropy, Time now) override;
    /// Add \p penalty to \p entropy's (if it is of the space), capped at MaxPenalty.
    void Penalize(uint16_t entropy, uint32_t penalty);

    uint32_t m_ecnPenalty;
    uint32_t m_nackPenalty;
    uint32_t m_maxPenalty;
    std::vector<uint8_t> m_penalty; ///< per index of the space
};

} // namespace ns3

#endif /* RDMA_BITMAP_PATH_SELECTOR_H */
