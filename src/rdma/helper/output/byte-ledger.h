/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_BYTE_LEDGER_H
#define RDMA_BYTE_LEDGER_H

#include "ns3/packet.h"
#include "ns3/rdma-topology.h"
#include "ns3/rdma-wire.h"
#include "ns3/switch-verdict.h"

#include <array>
#include <deque>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Byte conservation of a run, kept from the devices' and switches' trace sources only
 * (it changes nothing in the simulation): every non-PFC frame a NIC puts on a wire must
 * end up received by a NIC, dropped for a named reason, or still in flight at the end,
 * in a switch queue or on a wire.
 *
 * It is checked where a frame could vanish: each wire is a FIFO (the frames a device
 * sent arrive at its peer in order, or are counted lost to a link that is down), and
 * each switch's ledger (frames in, minus out, minus dropped) must equal the bytes its
 * ports' queues hold at the end (RdmaNetDevice::GetQueueBytes, measured independently).
 * A difference is reported as `unaccounted` bytes at that switch: an uncounted drop.
 *
 * Frame bytes exclude the INT records a switch adds at dequeue, so that a frame counts
 * the same going in and out. Data payload bytes (every transmission, retransmissions
 * included) are kept beside them: the `data` part of the report.
 */
class ByteLedger
{
  public:
    /**
     * The fields of a frame's RdmaHeader that the ledger and StallReport read, taken from
     * the frame's first bytes in the layout of RdmaHeader::Serialize (a unit test keeps
     * the two in step): much cheaper than Packet::PeekHeader, which reads every field
     * and the INT stack, on every hop of every frame.
     */
    struct Facts
    {
        RdmaPacketType type;
        uint8_t flags;
        uint32_t dstQpn;
        uint32_t psn;
        uint32_t payload;
        uint8_t intHops;

        static Facts Of(Ptr<const Packet> p);
    };

    /// Connect to every device and switch of the finalized \p topo.
    explicit ByteLedger(RdmaTopology& topo);

    /// The conservation report (summary.json "conservation"); "balanced" is the check.
    nlohmann::json Report() const;

  private:
    /// Bytes in frames, and data payload bytes.
    struct Amount
    {
        uint64_t frames = 0;
        uint64_t bytes = 0;
        uint64_t dataPayload = 0;
        uint64_t raw = 0; ///< frame bytes as queued in a switch (its earlier INT records in)
        void Add(const Amount& a);
        void Sub(const Amount& a);
    };

    struct Device
    {
        Ptr<RdmaNetDevice> dev;
        int64_t sw = -1;   ///< index into m_switches, -1 for a NIC
        uint32_t peer = 0; ///< index of the device at the other end of its link
        std::deque<std::pair<uint64_t, Amount>> wire; ///< sent, not arrived (uid, amount)
    };

    /// A frame's ledger amount (nothing for PFC frames: \p pfc set); \p leavingSwitch:
    /// sent by a switch port, which has just added one INT record to a data frame.
    static Amount Measure(Ptr<const Packet> p, bool leavingSwitch, bool* pfc);
    void OnTx(uint32_t dev, Ptr<const Packet> p);
    void OnRx(uint32_t dev, Ptr<const Packet> p);
    void OnLinkDownDrop(uint32_t dev, Ptr<const Packet> p);
    void OnSwitchDrop(uint32_t sw,
                      Ptr<const Packet> p,
                      uint32_t inPort,
                      uint32_t outPort,
                      const char* reason);
    /// Take the frame off the wire into \p dev, its amount into \p a; false if it was not
    /// on that wire.
    bool Arrive(uint32_t dev, Ptr<const Packet> p, Amount* a);

    std::vector<Device> m_devices;
    std::vector<Amount> m_inSwitch; ///< per switch: in - out - dropped
    std::vector<uint32_t> m_switchNodes;
    Amount m_injected;                       ///< sent by NICs
    Amount m_received;                       ///< received by NICs
    std::map<std::string, Amount> m_dropped; ///< by reason
    uint64_t m_wireMismatches = 0;           ///< frames that did not arrive in order
    uint64_t m_pfcLinkDown = 0;              ///< PFC frames lost arriving on a link that is down
};

} // namespace ns3

#endif /* RDMA_BYTE_LEDGER_H */
