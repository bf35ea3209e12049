/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/cc-sampler.h"

#include "ns3/output-file.h"
#include "ns3/scenario-access.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// cc.csv: a row per sampled QP and sample, when output.cc_sample_us is not 0.
OutputFile
CcCsv()
{
    return {"cc.csv",
            {"time_ns", "node", "qp", "rate_bps", "window_bytes", "acked_bytes"},
            {"time_ns", OutputFile::kSampledQpOrder},
            "time_ns",
            OutputFile::Merge::ROWS,
            56, // bytes a row: time, QP, rate, window, acked bytes, rounded up
            [](const nlohmann::json& s, const SizeGuard::Estimate& e) {
                const double period = scenario::Num(s, "output.cc_sample_us");
                const double sampled =
                    std::min(double(scenario::Int(s, "output.cc_sample_qps")), e.flows);
                return OutputFile::Rows{
                    period > 0 ? scenario::Num(s, "stop_time_ms") * 1000 / period * sampled : -1,
                    "output.cc_sample_us"};
            },
            nullptr,
            30};
}

const OutputFileRegistration g_ccCsv(CcCsv());
} // namespace

CcSampler::CcSampler(const RdmaTopology& topo,
                     std::vector<std::pair<uint32_t, uint32_t>> qps,
                     std::ostream& out,
                     Time interval)
    : PeriodicSampler(out, interval),
      m_topo(topo),
      m_qps(std::move(qps))
{
    // Over MPI ranks, a QP is sampled by the rank that steps its sender.
    m_qps.erase(std::remove_if(m_qps.begin(),
                               m_qps.end(),
                               [&topo](const auto& qp) { return !topo.IsLocal(qp.first); }),
                m_qps.end());
}

void
CcSampler::WriteHeader(std::ostream& out)
{
    out << CcCsv().Header() << '\n';
}

void
CcSampler::Sample(std::ostream& out, int64_t now)
{
    for (const auto& [node, qpn] : m_qps)
    {
        Ptr<RdmaNic> nic = m_topo.GetNic(node);
        const SendQueuePair& qp = nic->GetSendQp(qpn);
        // PeekRate() changes nothing: sampling does not change results.
        out << now << ',' << node << ',' << qpn << ',' << qp.cc->PeekRate() << ','
            << qp.cc->GetWindow() << ',' << nic->GetAckedBytes(qpn) << '\n';
    }
}

} // namespace ns3
