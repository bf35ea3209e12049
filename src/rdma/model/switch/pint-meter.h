/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PINT_METER_H
#define RDMA_PINT_METER_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A switch's side of PINT's HPCC use case (Ben Basat et al., SIGCOMM 2020, section 4.3):
 * per egress port, HPCC's utilisation estimate, updated by each PINT data packet that
 * leaves the port, and the packet's value max(code, PintCode::Encode(u)).
 *
 * With B the port rate (bytes/s), T the fabric's base RTT, qlen the bytes the packet
 * leaves behind in its queue and dt the time since the port's previous update:
 *   sample = qlen / (B T) + txRate / B,  txRate = bytes sent in dt / dt,
 *   u = (1 - w) u + w sample,            w = min(dt, T) / T,
 * HPCC's estimate (Li et al., SIGCOMM 2019, Algorithm 1, lines 7-9), computed at the
 * switch over the port's own history instead of at the sender over two INT records. The
 * first packet of a port has no dt: its sample is the queue term alone, at weight 1.
 * The random rounding draws from one ns-3 stream per switch (AssignStream), so that a run
 * is deterministic.
 */
class PintMeter
{
  public:
    /// Bit budget of the code (1 to 16: PintCode::IsValidBits).
    void SetBits(uint32_t bits);
    /// \return the bit budget
    uint32_t GetBits() const;
    /// T, the RTT the queue term and the EWMA are normalised to (strictly positive).
    void SetBaseRtt(Time t);
    /// Number the rounding's stream; \return the streams used (1).
    int64_t AssignStream(int64_t stream);

    /**
     * A PINT data packet leaves egress \p port: update the port's estimate and
     * \return max(\p code, its code), the value the packet leaves with
     * \param port egress port index
     * \param code the packet's code so far
     * \param nowNs now (ns)
     * \param qlenBytes bytes its queue holds behind it
     * \param txBytes bytes the port has sent so far (a running count)
     * \param bitRate the port's rate (bit/s)
     */
    uint16_t Stamp(uint32_t port,
                   uint16_t code,
                   int64_t nowNs,
                   uint64_t qlenBytes,
                   uint64_t txBytes,
                   uint64_t bitRate);

    /// \return port \p port's utilisation estimate u (0 before its first PINT packet)
    double GetUtilization(uint32_t port) const;

  private:
    /// One egress port's history.
    struct Port
    {
        double u = 0;        ///< utilisation estimate
        int64_t lastNs = -1; ///< time of the previous update (-1: none yet)
        uint64_t lastTx = 0; ///< txBytes at the previous update
    };

    std::vector<Port> m_ports;
    uint32_t m_bits = 8;
    double m_tNs = 0;
    Ptr<UniformRandomVariable> m_rng;
};

} // namespace ns3

#endif /* RDMA_PINT_METER_H */
