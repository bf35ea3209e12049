/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_CSV_READER_H
#define RDMA_FLOW_CSV_READER_H

#include "ns3/flow-spec.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Reads a flow list: a header line `src,dst,bytes,start_ns` with an optional fifth
 * column `priority`, then one flow per line (host indices, bytes > 0, start >= 0).
 * Blank lines and lines starting with '#' are skipped. Any malformed line, an unknown
 * column, or a host outside [0, hosts) throws ScenarioError naming file:line and the
 * value.
 */
class FlowCsvReader
{
  public:
    static std::vector<FlowSpec> Read(const std::string& path,
                                      uint32_t hosts,
                                      uint8_t defaultPriority);
};

} // namespace ns3

#endif /* RDMA_FLOW_CSV_READER_H */
