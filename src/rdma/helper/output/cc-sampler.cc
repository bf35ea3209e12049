/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/cc-sampler.h"

#include <algorithm>

namespace ns3
{

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
    out << "time_ns,node,qp,rate_bps,window_bytes,acked_bytes\n";
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
