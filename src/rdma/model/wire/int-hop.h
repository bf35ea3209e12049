/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INT_HOP_H
#define RDMA_INT_HOP_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * One in-band network telemetry record, pushed by a switch egress port onto a data
 * packet as it is dequeued (HPCC, Li et al. SIGCOMM 2019), packed in 8 bytes on the wire
 * as HPCC does: link rate (3-bit code), timestamp (24 bits, ns, wraps every 16.8 ms),
 * cumulative tx bytes (20 bits in 128-byte units, wraps every 128 MiB) and queue length
 * (17 bits in 80-byte units, saturating at ~10 MB). Receivers echo the stack in the ACK;
 * senders take differences between two records of the same hop with the *Delta helpers,
 * which undo the wrap-around.
 */
struct IntHop
{
    static constexpr uint32_t kTsBits = 24;
    static constexpr uint32_t kTxBits = 20;
    static constexpr uint32_t kTxUnit = 128;
    static constexpr uint32_t kQlenBits = 17;
    static constexpr uint32_t kQlenUnit = 80;

    /// Link rates an INT record can carry (bit/s); a code is the index.
    static constexpr uint64_t kRates[8] = {10000000000ULL,
                                           25000000000ULL,
                                           40000000000ULL,
                                           50000000000ULL,
                                           100000000000ULL,
                                           200000000000ULL,
                                           400000000000ULL,
                                           800000000000ULL};

    /// Whether \p bitRate is one of kRates (HPCC needs the exact rate of each hop).
    static bool IsEncodableRate(uint64_t bitRate);
    static uint64_t Pack(uint64_t bitRate, uint64_t timeNs, uint64_t txBytes, uint64_t qlenBytes);

    explicit IntHop(uint64_t packed = 0);

    uint64_t bitRate; ///< link rate (bit/s)
    uint32_t ts;      ///< timestamp, ns modulo 2^24
    uint32_t tx;      ///< cumulative tx bytes / 128, modulo 2^20
    uint64_t qlen;    ///< queue length (bytes, multiple of 80)

    /// ns elapsed from \p earlier to this record.
    uint64_t TimeDelta(const IntHop& earlier) const;
    /// Bytes sent from \p earlier to this record.
    uint64_t TxDelta(const IntHop& earlier) const;
};

} // namespace ns3

#endif /* RDMA_INT_HOP_H */
