/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_OUTPUT_DESCRIPTION_H
#define RDMA_OUTPUT_DESCRIPTION_H

#include "ns3/scenario-stage.h"

namespace ns3
{

/**
 * \ingroup rdma
 * The outputs' side of a scenario, before the run: the keys output.* (sampling periods,
 * progress, packet captures) and the estimate of the files the run writes: every declared
 * CSV file that estimates its rows (OutputFile::rows), and pcap/, at most what their
 * sampling until stop_time_ms gives. OutputStage and PcapStage do the writing.
 */
class OutputDescription : public ScenarioStage
{
  public:
    std::vector<ScenarioKey> Keys() const override;
    /// The output files (OutputFiles), from the fabric, QPs and flows the other stages estimated.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
};

} // namespace ns3

#endif /* RDMA_OUTPUT_DESCRIPTION_H */
