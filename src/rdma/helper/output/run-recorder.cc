/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/run-recorder.h"

#include "ns3/output-file.h"
#include "ns3/rdma-sim.h"
#include "ns3/simulator.h"

#include <iomanip>

namespace ns3
{

namespace
{
/// fct.csv: a row per completed flow or probe, in completion order.
OutputFile
FctCsv()
{
    return {"fct.csv",
            {"flow_id",
             "kind",
             "src",
             "dst",
             "qp",
             "prio",
             "size_bytes",
             "start_ns",
             "end_ns",
             "fct_ns",
             "ideal_fct_ns",
             "slowdown"},
            {"end_ns"}, // at one time: each rank's order (one rank: the serial run's)
            "",
            OutputFile::Merge::ROWS,
            96, // bytes a row: twelve columns of ids, sizes and times, rounded up
            [](const nlohmann::json&, const SizeGuard::Estimate& e) {
                return OutputFile::Rows{e.flows + e.probes, "stop_time_ms"};
            },
            nullptr,
            50};
}

/// pfc.csv: a row per PFC event of a switch (pause, refresh, resume, storm), in time
/// order; not estimated (the pauses are not known before the run).
OutputFile
PfcCsv()
{
    return {"pfc.csv",
            {"time_ns", "node", "port", "prio", "event"},
            {"time_ns"},
            "time_ns",
            OutputFile::Merge::ROWS,
            0,
            nullptr,
            nullptr,
            55};
}

const OutputFileRegistration g_fctCsv(FctCsv());
const OutputFileRegistration g_pfcCsv(PfcCsv());
} // namespace

RunRecorder::RunRecorder(std::ostream& fct, std::ostream& pfc, bool eventOrder)
    : m_fct(fct),
      m_pfc(pfc),
      m_eventOrder(eventOrder)
{
    const char* order = eventOrder ? ",event_order\n" : "\n";
    m_fct << FctCsv().Header() << order;
    m_pfc << PfcCsv().Header() << order;
}

void
RunRecorder::EndRow(std::ostream& out, uint32_t order) const
{
    if (m_eventOrder)
    {
        out << ',' << order;
    }
    out << '\n';
}

void
RunRecorder::OnRecord(const TrafficDriver::Record& r)
{
    const int64_t fct = (r.end - r.start).GetNanoSeconds();
    const int64_t ideal = r.ideal.GetNanoSeconds();
    m_fct << r.flowId << ',' << FlowKindName(r.kind) << ',' << r.src << ',' << r.dst << ',' << r.qpn
          << ',' << +r.priority << ',' << r.bytes << ',' << r.start.GetNanoSeconds() << ','
          << r.end.GetNanoSeconds() << ',' << fct << ',' << ideal << ',' << std::setprecision(6)
          << (ideal > 0 ? double(fct) / double(ideal) : 0.0);
    EndRow(m_fct, r.order);
    if (r.kind == FlowKind::PROBE)
    {
        m_probeFct.push_back(fct);
    }
    else if (r.bytes <= kSmallFlowBytes)
    {
        m_smallFct.push_back(fct);
    }
}

void
RunRecorder::OnPfc(uint32_t node, uint32_t port, uint8_t prio, uint8_t event)
{
    static const char* names[] = {"pause", "refresh", "resume"};
    m_pfc << Simulator::Now().GetNanoSeconds() << ',' << node << ',' << port << ',' << +prio << ','
          << names[event];
    EndRow(m_pfc, m_eventOrder ? RdmaSim::CurrentUid() : 0);
}

void
RunRecorder::OnStorm(uint32_t node, uint32_t port, uint8_t prio, bool stormed)
{
    m_pfc << Simulator::Now().GetNanoSeconds() << ',' << node << ',' << port << ',' << +prio << ','
          << (stormed ? "storm_detected" : "storm_restored");
    EndRow(m_pfc, m_eventOrder ? RdmaSim::CurrentUid() : 0);
}

const std::vector<int64_t>&
RunRecorder::GetProbeFcts() const
{
    return m_probeFct;
}

const std::vector<int64_t>&
RunRecorder::GetSmallFlowFcts() const
{
    return m_smallFct;
}

} // namespace ns3
