/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/stall-report.h"

#include "ns3/byte-ledger.h"
#include "ns3/output-file.h"
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
StallReport::ReadDeliveries()
{
    // Each responder notes when it last accepted new data in order (retransmissions of
    // data it already has are not new): the latest of them all.
    for (uint32_t h : m_topo.GetLocalHosts())
    {
        const RdmaNic::Stats& st = m_topo.GetNic(h)->GetStats();
        if (st.payloadBytesDelivered > 0)
        {
            m_delivered = true;
            m_lastDelivery = std::max(m_lastDelivery, st.lastDelivery);
        }
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

namespace
{
/// unfinished.csv: a row per flow that did not complete, by flow id; not estimated (a
/// flow is here or in fct.csv, whose estimate counts every flow).
OutputFile
UnfinishedCsv()
{
    return {
        "unfinished.csv",
        {"flow_id", "kind", "src", "dst", "qp", "prio", "size_bytes", "start_ns", "acked_bytes"},
        {"flow_id"},
        "",
        OutputFile::Merge::ROWS,
        0,
        nullptr,
        nullptr,
        70};
}

const OutputFileRegistration g_unfinishedCsv(UnfinishedCsv());
} // namespace

void
StallReport::WriteUnfinished(std::ostream& os) const
{
    os << UnfinishedCsv().Header() << '\n';
    for (uint64_t id = 0; id < m_completed.size(); ++id)
    {
        // Over MPI ranks, a flow is listed by the rank that posted it.
        if (m_completed[id] || !m_driver.IsLocalFlow(id))
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
    return StallThreshold(m_topo.GetMaxBaseRtt());
}

Time
StallReport::StallThreshold(Time maxBaseRtt)
{
    return std::max(maxBaseRtt * 100, MicroSeconds(100));
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
    return StallMessage(m_lastDelivery,
                        end,
                        m_driver.GetFlowsTotal() - m_driver.GetFlowsCompleted(),
                        m_driver.GetFlowsTotal());
}

std::string
StallReport::StallMessage(Time lastDelivery, Time end, uint64_t unfinished, uint64_t total)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << "no progress since "
       << lastDelivery.GetSeconds() * 1e3 << " ms (simulated): nothing new delivered until "
       << end.GetSeconds() * 1e3 << " ms, " << unfinished << " of " << total
       << " flows unfinished (see unfinished.csv)";
    return os.str();
}

} // namespace ns3
