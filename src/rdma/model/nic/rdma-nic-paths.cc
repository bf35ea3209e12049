/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaNic, requester side: the path selection of its QPs (PathSelector), the entropy of
 * each data packet and the news ACKs, NACKs and timeouts bring of each entropy's path.
 */
#include "ns3/hash-constants.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-sim.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// A QP's own sequence of draws: the run's seed and run number, the node and the QP,
/// mixed so that neighbouring QPs' sequences are unrelated.
uint64_t
QpSeed(uint32_t node, uint32_t qpn)
{
    uint64_t x = (uint64_t(RngSeedManager::GetSeed()) << 32) ^ RngSeedManager::GetRun();
    x ^= (uint64_t(node) << 32 | qpn) * rdmahash::kGolden64;
    return rdmahash::SplitMix64(x);
}
} // namespace

void
RdmaNic::AddQpPaths(const SendQueuePair& qp)
{
    if (m_sendQps.empty() && !m_sharedPaths && m_qpPaths.empty())
    {
        // The NIC's first QP: whether the policy needs an instance per QP, and feedback.
        Ptr<PathSelector> first = m_pathFactory.Create<PathSelector>();
        m_perQpPaths = first->IsPerQp();
        m_pathFeedback = m_perQpPaths && first->UsesFeedback();
        m_keepsQpPort = !m_perQpPaths && first->KeepsQpPort();
        if (!m_perQpPaths)
        {
            first->Init(0, 0);
            m_sharedPaths = first;
        }
    }
    if (m_perQpPaths)
    {
        QpPaths paths;
        paths.selector = m_pathFactory.Create<PathSelector>();
        paths.selector->Init(qp.sport, QpSeed(m_nodeId, qp.qpn));
        m_qpPaths.push_back(std::move(paths));
    }
}

uint16_t
RdmaNic::NextQpEntropy(const SendQueuePair& qp, uint32_t psn, const Time& now)
{
    QpPaths& paths = m_qpPaths[qp.qpn];
    const uint16_t entropy = paths.selector->NextEntropy(qp.sport, psn, now);
    if (m_pathFeedback && psn >= paths.sentBase)
    {
        const uint32_t offset = psn - paths.sentBase;
        if (offset >= paths.sent.size())
        {
            paths.sent.resize(offset + 1, qp.sport);
        }
        paths.sent[offset] = entropy;
    }
    return entropy;
}

void
RdmaNic::NotePathFeedback(const SendQueuePair& qp, const RdmaHeader& h)
{
    QpPaths& paths = m_qpPaths[qp.qpn];
    const Time now = RdmaSim::Now();
    if (h.type == RdmaPacketType::NACK && (h.flags & RdmaHeader::FLAG_TRIMMED))
    {
        paths.selector->OnNack(h.echoSport, now);
    }
    else
    {
        // An ACK, or a NACK that reports a packet which arrived (out of order): either
        // way that packet's path delivered it.
        paths.selector->OnAck(h.echoSport, h.flags & RdmaHeader::FLAG_ECN_ECHO, now);
    }
    while (paths.sentBase < qp.sndUna && !paths.sent.empty())
    {
        paths.sent.pop_front();
        ++paths.sentBase;
    }
    paths.sentBase = std::max(paths.sentBase, qp.sndUna);
}

void
RdmaNic::NotePathTimeout(const SendQueuePair& qp, const Time& now)
{
    QpPaths& paths = m_qpPaths[qp.qpn];
    const uint32_t offset = qp.sndUna - paths.sentBase;
    const uint16_t entropy =
        qp.sndUna >= paths.sentBase && offset < paths.sent.size() ? paths.sent[offset] : qp.sport;
    paths.selector->OnTimeout(entropy, now);
}

} // namespace ns3
