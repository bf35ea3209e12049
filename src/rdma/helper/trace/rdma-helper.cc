/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-net-device.h"
#include "ns3/simulator.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHelper");

/**
 * One pcap file: writes the frames of one port's Sniffer trace until its cap, then
 * closes the file and disconnects (at once, not from inside the trace call).
 */
class RdmaHelper::Writer : public SimpleRefCount<Writer>
{
  public:
    /// \p device must outlive the writer's Close (the device's trace keeps the writer).
    Writer(Ptr<PcapFileWrapper> file, RdmaNetDevice* device, uint64_t maxPackets)
        : m_file(file),
          m_device(device),
          m_maxPackets(maxPackets),
          m_written(0),
          m_open(true)
    {
    }

    /// Connect to the device's Sniffer trace (the callback keeps this writer alive, and
    /// the file open, as long as the device lives or until Close).
    void Connect()
    {
        m_device->TraceConnectWithoutContext("Sniffer", Sink());
    }

    void Write(Ptr<const Packet> p)
    {
        if (!m_open)
        {
            return;
        }
        m_file->Write(Simulator::Now(), p);
        if (m_maxPackets != 0 && ++m_written == m_maxPackets)
        {
            m_open = false;
            m_file->Close();
            // A trace source's sink list must not change while it calls the sinks.
            Simulator::ScheduleNow(&Writer::Disconnect, Ptr<Writer>(this));
        }
    }

    void Close()
    {
        if (m_open)
        {
            m_open = false;
            m_file->Close();
            Disconnect();
        }
    }

  private:
    /// The trace sink (equal to the one connected: same function, same writer).
    Callback<void, Ptr<const Packet>> Sink()
    {
        return MakeCallback(&Writer::Write, Ptr<Writer>(this));
    }

    void Disconnect()
    {
        m_device->TraceDisconnectWithoutContext("Sniffer", Sink());
    }

    Ptr<PcapFileWrapper> m_file;
    RdmaNetDevice* m_device; ///< not a Ptr: the device's trace holds this writer
    uint64_t m_maxPackets;
    uint64_t m_written;
    bool m_open;
};

namespace
{
/// One line of an ASCII trace: "t|r TIME CONTEXT HEADER".
void
AsciiSink(Ptr<OutputStreamWrapper> stream,
          const char* what,
          std::string context,
          Ptr<const Packet> p)
{
    RdmaHeader h;
    p->PeekHeader(h);
    std::ostream& os = *stream->GetStream();
    os << what << " " << Simulator::Now().GetSeconds() << " " << context << " ";
    h.Print(os);
    os << "\n";
}
} // namespace

RdmaHelper::RdmaHelper()
    : m_maxPackets(0)
{
}

RdmaHelper::~RdmaHelper() = default;

void
RdmaHelper::SetPcapMaxPackets(uint64_t maxPackets)
{
    m_maxPackets = maxPackets;
}

void
RdmaHelper::ClosePcapFiles()
{
    for (const Ptr<Writer>& w : m_writers)
    {
        w->Close();
    }
    m_writers.clear();
}

void
RdmaHelper::EnablePcapInternal(std::string prefix,
                               Ptr<NetDevice> nd,
                               bool /* promiscuous: a port sees only its own frames */,
                               bool explicitFilename)
{
    Ptr<RdmaNetDevice> device = DynamicCast<RdmaNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("not an RdmaNetDevice: no capture of " << nd);
        return;
    }
    PcapHelper pcap;
    const std::string file = explicitFilename ? prefix : pcap.GetFilenameFromDevice(prefix, device);
    // As PcapHelper::CreateFile, with nanosecond time stamps (a 1 KB frame lasts 84 ns
    // at 100 Gb/s).
    Ptr<PcapFileWrapper> wrapper = CreateObject<PcapFileWrapper>();
    wrapper->SetAttribute("NanosecMode", BooleanValue(true));
    wrapper->Open(file, std::ios::out);
    NS_ABORT_MSG_IF(wrapper->Fail(), "RdmaHelper: cannot open " << file << " for writing");
    wrapper->Init(PcapHelper::DLT_EN10MB);
    Ptr<Writer> w = Create<Writer>(wrapper, PeekPointer(device), m_maxPackets);
    w->Connect();
    m_writers.push_back(w);
}

void
RdmaHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                                std::string prefix,
                                Ptr<NetDevice> nd,
                                bool explicitFilename)
{
    Ptr<RdmaNetDevice> device = DynamicCast<RdmaNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("not an RdmaNetDevice: no ASCII trace of " << nd);
        return;
    }
    if (!stream)
    {
        AsciiTraceHelper ascii;
        const std::string file =
            explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
        stream = ascii.CreateFileStream(file);
    }
    std::ostringstream context;
    context << "/NodeList/" << device->GetNode()->GetId() << "/DeviceList/" << device->GetIfIndex();
    device->TraceConnectWithoutContext("MacTx",
                                       MakeBoundCallback(&AsciiSink, stream, "t", context.str()));
    device->TraceConnectWithoutContext("MacRx",
                                       MakeBoundCallback(&AsciiSink, stream, "r", context.str()));
}

} // namespace ns3
