/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PINT_CODE_H
#define RDMA_PINT_CODE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The one value of PINT's HPCC use case (Ben Basat et al., "PINT: Probabilistic In-band
 * Network Telemetry", SIGCOMM 2020, section 4.3): the bottleneck utilisation U of a
 * path, carried in b bits. Each switch egress writes max(code, Encode(u)) into a data
 * packet, so the packet arrives with the largest utilisation of its path.
 *
 * Codes are a logarithmic scale: code k in [0, K], K = 2^b - 1, stands for
 *   v(k) = Umin x base^k,  Umin = 2^-10, Umax = v(K) = 2^10,  base = 2^(20/K).
 * The bit budget alone fixes the base: the 2^b codes always span the same physical range
 * of U (2^-10 is far below any load that matters to HPCC, whose target is 0.95; 2^10 is
 * a queue of a thousand base RTTs). 8 bits give base 1.0559, close to PINT's 1.05 at 8
 * bits; 16 bits give 1.0002; 1 bit gives the two ends only. A u between v(k) and v(k+1)
 * is rounded at random, up with probability (u - v(k)) / (v(k+1) - v(k)), so that
 * E[Decode(Encode(u))] = u (unbiased, as PINT's randomized rounding); u outside
 * [Umin, Umax] is clamped to it first. The code takes ceil(b/8) bytes on the wire.
 */
struct PintCode
{
    static constexpr uint32_t kMinBits = 1;  ///< smallest bit budget
    static constexpr uint32_t kMaxBits = 16; ///< largest bit budget (a 16-bit field)
    static constexpr int kMinLog2 = -10;     ///< log2 of the smallest value, Umin
    static constexpr int kMaxLog2 = 10;      ///< log2 of the largest value, Umax

    /// \return whether \p bits is a bit budget the code supports (1 to 16)
    static bool IsValidBits(uint32_t bits)
    {
        return bits >= kMinBits && bits <= kMaxBits;
    }

    /// \return the largest code K = 2^bits - 1 (\p bits valid)
    static uint32_t MaxCode(uint32_t bits)
    {
        return (1u << bits) - 1;
    }

    /// \return the bytes the value takes in a header: ceil(bits / 8)
    static uint8_t Bytes(uint32_t bits)
    {
        return static_cast<uint8_t>((bits + 7) / 8);
    }

    /// \return the ratio of two adjacent codes' values, 2^(20 / (2^bits - 1))
    static double Base(uint32_t bits);

    /// \return the utilisation code \p code stands for, Umin x Base(bits)^code
    static double Decode(uint32_t code, uint32_t bits);

    /**
     * \param u the utilisation to encode (dimensionless, >= 0)
     * \param bits the bit budget
     * \param uniform a uniform draw in [0, 1) that decides the rounding
     * \return the code of \p u, rounded down or up at random so that the decoded value
     *         is \p u on average (within [Umin, Umax]); at most MaxCode(bits)
     */
    static uint16_t Encode(double u, uint32_t bits, double uniform);
};

} // namespace ns3

#endif /* RDMA_PINT_CODE_H */
