/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Packets and queue-pair states for the loss-recovery policy tests. A policy's methods
 * take the time as an argument, so the tests set the clock by hand (no simulation).
 */
#ifndef RDMA_TEST_RECOVERY_TEST_UTIL_H
#define RDMA_TEST_RECOVERY_TEST_UTIL_H

#include "ns3/queue-pair.h"
#include "ns3/rdma-header.h"

namespace rdmatest
{

constexpr uint32_t kPayload = 1000; ///< payload bytes of every test data packet

/// A data packet with PSN \p psn and header flags \p flags.
inline ns3::RdmaHeader
Data(uint32_t psn, uint8_t flags = 0)
{
    ns3::RdmaHeader h;
    h.type = ns3::RdmaPacketType::DATA;
    h.psn = psn;
    h.payload = kPayload;
    h.flags = flags;
    return h;
}

/// A NACK expecting \p psn (its cumulative acknowledgement) that reports \p sackPsn.
inline ns3::RdmaHeader
Nack(uint32_t psn, uint32_t sackPsn)
{
    ns3::RdmaHeader h;
    h.type = ns3::RdmaPacketType::NACK;
    h.psn = psn;
    h.sackPsn = sackPsn;
    return h;
}

/// A requester QP with [sndUna, sndNxt) in flight of a message ending at lastPsn.
inline ns3::SendQueuePair
InFlight(uint32_t sndUna, uint32_t sndNxt, uint32_t nextPsn = 100)
{
    ns3::SendQueuePair qp;
    qp.sndUna = sndUna;
    qp.sndNxt = sndNxt;
    qp.maxSent = sndNxt;
    qp.retxNext = sndUna;
    qp.recoverHigh = sndUna;
    qp.nextPsn = nextPsn;
    return qp;
}

} // namespace rdmatest

#endif
