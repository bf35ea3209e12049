/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INCAST_GROUP_READER_H
#define RDMA_INCAST_GROUP_READER_H

#include "ns3/incast-generator.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Reads incast groups that join and leave a run: a header line naming the columns, then
 * one group per line. Required columns: `receiver` (host), `senders` (hosts: `3`,
 * `1-7` or `1;4;9-12`), `qps_per_sender`, `join_us`, `leave_us`; optional:
 * `message_bytes`, `jitter_us`, `priority`, in any order.
 *
 * With leave_us > join_us, each QP sends without end from join (+ U(0, jitter)) until
 * leave (a group that joins, then leaves); with leave_us = 0 each QP sends one message
 * of message_bytes. Blank lines and '#' lines are skipped; a malformed line, an unknown
 * column or a host outside [0, hosts) throws ScenarioError naming file:line.
 */
class IncastGroupReader
{
  public:
    static std::vector<IncastGenerator> Read(const std::string& path,
                                             uint32_t hosts,
                                             uint8_t defaultPriority);
};

} // namespace ns3

#endif /* RDMA_INCAST_GROUP_READER_H */
