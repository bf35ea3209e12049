/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_SIZE_CDF_H
#define RDMA_FLOW_SIZE_CDF_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A flow-size distribution given as an empirical CDF, in the format the RDMA simulation
 * literature ships (HPCC, ConWeave): one point per line, `size_bytes cdf_percent`,
 * sizes strictly increasing, percentages non-decreasing, the last one exactly 100.
 * Blank lines and lines starting with '#' are skipped.
 *
 * Between two points the size is uniform (linear interpolation of the inverse CDF, as
 * the HPCC traffic generator does); a first point with a percentage above 0 is a point
 * mass at that size. Sampled sizes are rounded to whole bytes, at least 1.
 */
class FlowSizeCdf
{
  public:
    struct Point
    {
        uint64_t bytes;
        double percent;
    };

    /// Read and check \p path; throws ScenarioError naming file:line and the value.
    static FlowSizeCdf Load(const std::string& path);
    /// Check \p points (\p origin names them in errors); throws ScenarioError.
    static FlowSizeCdf FromPoints(std::vector<Point> points, const std::string& origin);

    /// The size at cumulative probability \p u in [0, 1).
    uint64_t Sample(double u) const;
    /// Mean of the distribution (bytes), from the points (exact for the interpolation).
    double Mean() const;
    /// Largest size.
    uint64_t Max() const;
    const std::vector<Point>& Points() const;

  private:
    std::vector<Point> m_points;
};

} // namespace ns3

#endif /* RDMA_FLOW_SIZE_CDF_H */
