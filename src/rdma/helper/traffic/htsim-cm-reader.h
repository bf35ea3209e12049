/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HTSIM_CM_READER_H
#define RDMA_HTSIM_CM_READER_H

#include "ns3/flow-spec.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Reads htsim's connection matrix (uet-htsim, htsim/sim/datacenter/connection_matrices/
 * *.cm and *.tm): a header of `Nodes N`, `Connections C` and, optionally, `Triggers T`
 * and `Failures F` lines, then C connection lines `a->b start T size S`, where a and b
 * are host indices below N, T is the start in microseconds (a decimal number, of which
 * whole microseconds count, as in htsim's main_uec) and S the size in bytes. A connection line may
 * also carry `id I` (a flow id, unique, not 0). Blank lines and lines starting with '#' are
 * skipped.
 *
 * The forms this module does not run are refused with the line that uses them rather
 * than run differently: trigger and failure lines, and a connection's `trigger`,
 * `send_done_trigger`, `recv_done_trigger`, `msg` (messages reusing one connection) and
 * `prio`. Every error throws ScenarioError naming file:line, the token and the value.
 */
class HtsimCmReader
{
  public:
    /// The flows of \p path; \p hosts is the topology's host count (N must not exceed it).
    static std::vector<FlowSpec> Read(const std::string& path, uint32_t hosts);
};

} // namespace ns3

#endif /* RDMA_HTSIM_CM_READER_H */
