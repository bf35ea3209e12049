/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/stall-report.h"

#include "ns3/byte-ledger.h"
#include "ns3/rdma-header.h"
#include "ns3/simulator.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

StallReport::StallReport(RdmaTopology& topo, TrafficDriver& driver)
    : m_topo(topo),
      m_driver(driver),
      m_completed(driver.GetFlowsTotal(), false),
      m_lastDelivery(0),
      m_delivered(false)
{
    driver.AddCompletionListener(MakeCallback(&StallReport::OnCompleted, this));
    for (uint32_t h : topo.GetHosts())
    {
        topo.GetNic(h)->GetDevice()->TraceConnectWithoutContext(
            "MacRx",
            MakeCallback(&StallReport::OnNicRx, this, h));
    }
}

void
StallReport::OnCompleted(const TrafficDriver::Record& r)
{
    if (r.kind != FlowKind::PROBE && r.flowId < m_completed.size())
    {
        m_completed[r.flowId] = true;
    }
}

void
StallReport::OnNicRx(uint32_t node, Ptr<const Packet> p)
{
    const ByteLedger::Facts h = ByteLedger::Facts::Of(p);
    if (h.type != RdmaPacketType::DATA || h.payload == 0)
    {
        return;
    }
    // New data: a PSN past every one this QP has received (a retransmission is not).
    uint32_t& next = m_highestPsn[(uint64_t(node) << 32) | h.dstQpn];
    if (h.psn + 1 > next)
    {
        next = h.psn + 1;
        m_lastDelivery = Simulator::Now();
        m_delivered = true;
    }
}

uint64_t
StallReport::Acknowledged(uint64_t flowId) const
{
    const auto [node, qpn] = m_driver.GetFlowQp(flowId);
    Ptr<RdmaNic> nic = m_topo.GetNic(node);
    const SendQueuePair& qp = nic->GetSendQp(qpn);
    // The flow's message is the oldest unacknowledged one of its QP, or still waits
    // behind others (or was never posted): only the oldest has bytes acknowledged.
    if (qp.messages.empty() || qp.messages.front().flowId != flowId)
    {
        return 0;
    }
    const RdmaMessage& m = qp.messages.front();
    const uint64_t acked = uint64_t(qp.sndUna - m.firstPsn) * nic->GetMtu();
    return std::min(acked, m.bytes);
}

void
StallReport::WriteUnfinished(std::ostream& os) const
{
    os << "flow_id,kind,src,dst,qp,prio,size_bytes,start_ns,acked_bytes\n";
    for (uint64_t id = 0; id < m_completed.size(); ++id)
    {
        if (m_completed[id])
        {
            continue;
        }
        const FlowSpec& f = m_driver.GetFlowSpec(id);
        const bool unbounded = f.bytes == RdmaMessage::kUnbounded;
        os << id << ',' << FlowKindName(f.kind) << ',' << f.src << ',' << f.dst << ','
           << m_driver.GetFlowQp(id).second << ',' << +f.priority << ','
           << (unbounded ? std::string("") : std::to_string(f.bytes)) << ','
           << f.start.GetNanoSeconds() << ',' << Acknowledged(id) << '\n';
    }
}

Time
StallReport::StallThreshold() const
{
    return std::max(m_topo.GetMaxBaseRtt() * 100, MicroSeconds(100));
}

bool
StallReport::Stalled(Time end) const
{
    const uint64_t unfinished = m_driver.GetFlowsTotal() - m_driver.GetFlowsCompleted();
    return unfinished > 0 && end - m_lastDelivery >= StallThreshold();
}

void
StallReport::Summarize(nlohmann::json& sum, Time end) const
{
    sum["flows_unfinished"] = m_driver.GetFlowsTotal() - m_driver.GetFlowsCompleted();
    sum["last_delivery_ns"] =
        m_delivered ? nlohmann::json(m_lastDelivery.GetNanoSeconds()) : nlohmann::json();
    sum["stalled_since_ns"] =
        Stalled(end) ? nlohmann::json(m_lastDelivery.GetNanoSeconds()) : nlohmann::json();
}

std::string
StallReport::StallMessage(Time end) const
{
    if (!Stalled(end))
    {
        return "";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << "no progress since "
       << m_lastDelivery.GetSeconds() * 1e3 << " ms (simulated): nothing new delivered until "
       << end.GetSeconds() * 1e3 << " ms, "
       << m_driver.GetFlowsTotal() - m_driver.GetFlowsCompleted() << " of "
       << m_driver.GetFlowsTotal() << " flows unfinished (see unfinished.csv)";
    return os.str();
}

} // namespace ns3
