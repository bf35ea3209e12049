/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HPCC_FLOW_READER_H
#define RDMA_HPCC_FLOW_READER_H

#include "ns3/flow-spec.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Reads the HPCC simulator's flow.txt: a first line with the number of flows N, then N
 * lines `src dst priority dport bytes start_s` (node ids, the priority group, the
 * destination port -- ignored --, the size, the start time in seconds). As in that
 * simulator, lines after the N flows are ignored (its sample file keeps notes there).
 * Node ids are mapped to host indices by \p hostOfNode (empty: node id = host index;
 * -1: a switch). Malformed lines throw ScenarioError naming file:line.
 */
class HpccFlowReader
{
  public:
    static std::vector<FlowSpec> Read(const std::string& path,
                                      uint32_t hosts,
                                      const std::vector<int64_t>& hostOfNode);
};

} // namespace ns3

#endif /* RDMA_HPCC_FLOW_READER_H */
