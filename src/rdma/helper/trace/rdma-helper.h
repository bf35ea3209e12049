/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HELPER_H
#define RDMA_HELPER_H

#include "ns3/pcap-file-wrapper.h"
#include "ns3/trace-helper.h"

#include <vector>

namespace ns3
{

class RdmaNetDevice;

/**
 * \ingroup rdma
 * Packet captures and ASCII traces of RdmaNetDevice ports, the ns-3 way: everything
 * PcapHelperForDevice and AsciiTraceHelperForDevice offer (EnablePcap(prefix, device),
 * EnablePcap(prefix, NodeContainer), EnablePcapAll(prefix), EnableAscii..., with the
 * file names of ns-3's other helpers, PREFIX-NODE-DEVICE.pcap and .tr).
 *
 * A pcap file (link type Ethernet) holds every frame the port sends and receives, PFC
 * frames included, with nanosecond time stamps, as the bytes of a real RoCEv2 link
 * (rocewire::Render: Ethernet, IPv4 with the ECN codepoint, UDP to port 4791, BTH,
 * AETH, PFC as MAC control), so Wireshark and tshark decode them. Frames are rendered
 * only for ports being captured: a run without captures builds no Packet.
 * SetPcapMaxPackets caps every file; a file that reached its cap is closed and its port
 * stops rendering frames.
 *
 * An ASCII trace has one line per frame sent ("t") or received ("r", PFC frames not
 * included): time in seconds, the device's context path and the frame's header
 * (RdmaHeader::Print).
 *
 * Devices that are not RdmaNetDevices are skipped, so EnablePcapAll is safe in any
 * simulation.
 */
class RdmaHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    RdmaHelper();
    ~RdmaHelper() override;

    /// Most frames written per pcap file enabled after this call; 0 = no limit.
    void SetPcapMaxPackets(uint64_t maxPackets);

    /**
     * Close every pcap file this helper opened (their ports stop rendering frames); call
     * it while the devices exist (before Simulator::Destroy). Files not closed this way
     * are closed when their device is destroyed.
     */
    void ClosePcapFiles();

  private:
    class Writer;

    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;
    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    uint64_t m_maxPackets;
    std::vector<Ptr<Writer>> m_writers;
};

} // namespace ns3

#endif /* RDMA_HELPER_H */
