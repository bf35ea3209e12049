/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaNic, queue pairs: connecting two NICs, creating send and receive QPs, and the
 * congestion controllers (and shared limiters) they are given.
 */
#include "ns3/abort.h"
#include "ns3/no-congestion-control.h"
#include "ns3/rdma-nic.h"

#include <algorithm>
#include <cstdint>

namespace ns3
{

uint32_t
RdmaNic::Connect(Ptr<RdmaNic> src,
                 Ptr<RdmaNic> dst,
                 uint8_t priority,
                 uint16_t sport,
                 uint32_t* recvQpn)
{
    const uint32_t rqpn = dst->AddRecvQp(src->GetNodeId(), sport, priority);
    const uint32_t sqpn = src->AddSendQp(dst->GetNodeId(), rqpn, sport, priority);
    dst->m_recvQps[rqpn].peerQpn = sqpn;
    if (recvQpn)
    {
        *recvQpn = rqpn;
    }
    return sqpn;
}

uint32_t
RdmaNic::ConnectTo(uint32_t peerNode, uint32_t peerQpn, uint8_t priority, uint16_t sport)
{
    return AddSendQp(peerNode, peerQpn, sport, priority);
}

uint32_t
RdmaNic::AcceptFrom(uint32_t peerNode, uint32_t peerQpn, uint8_t priority, uint16_t sport)
{
    const uint32_t qpn = AddRecvQp(peerNode, sport, priority);
    m_recvQps[qpn].peerQpn = peerQpn;
    return qpn;
}

uint32_t
RdmaNic::AddSendQp(uint32_t peerNode, uint32_t peerQpn, uint16_t sport, uint8_t priority)
{
    NS_ABORT_MSG_IF(!m_device, "RdmaNic: SetDevice before creating QPs");
    SendQueuePair qp;
    qp.qpn = m_sendQps.size();
    qp.peerNode = peerNode;
    qp.peerQpn = peerQpn;
    qp.sport = sport;
    qp.priority = priority;
    if (!m_perDestination)
    {
        qp.peers = &m_peerGroups[peerNode]; // created on first use, never moves
        qp.peers->nic = &m_nicGroup;
    }
    const auto shared =
        m_perDestination ? m_destinationLimiter.find(peerNode) : m_destinationLimiter.end();
    if (shared != m_destinationLimiter.end())
    {
        UseLimiter(qp, shared->second);
    }
    else
    {
        UseLimiter(qp, AddLimiter(m_ccFactory.Create<CongestionControl>(), peerNode, qp.peers));
        if (m_perDestination)
        {
            m_destinationLimiter[peerNode] = qp.limiter;
        }
    }
    AddQpPaths(qp);
    m_sendQps.push_back(std::move(qp));
    return m_sendQps.size() - 1;
}

uint32_t
RdmaNic::AddLimiter(Ptr<CongestionControl> cc, uint32_t peerNode, CcPeerGroup* peers)
{
    RateLimiter limiter;
    limiter.cc = cc;
    limiter.probeTimeout = m_probeTimeout;
    CcContext ctx;
    ctx.lineRate = m_device->GetBitRate();
    ctx.mtu = m_mtu;
    ctx.fabricBaseRtt = m_fabricBaseRtt;
    const auto path = m_paths.find(peerNode);
    if (path != m_paths.end())
    {
        ctx.baseRtt = path->second.baseRtt;
        ctx.hops = path->second.hops;
    }
    ctx.peers = peers;
    ctx.rng = PeekPointer(m_ccRng);
    limiter.cc->Init(ctx);
    m_limiters.push_back(limiter);
    return m_limiters.size() - 1;
}

void
RdmaNic::UseLimiter(SendQueuePair& qp, uint32_t limiter)
{
    qp.limiter = limiter;
    qp.cc = m_limiters[limiter].cc;
    qp.ccHooks = qp.cc->ImplementedHooks();
    if (qp.cc->GetExtension() == nullptr)
    {
        // Pacing by credit, probes and an own timeout are the extension's: none without one.
        qp.ccHooks &= ~(CongestionControl::HOOK_PACING | CongestionControl::HOOK_PROBE |
                        CongestionControl::HOOK_RTO);
    }
}

void
RdmaNic::ExemptFromCongestionControl(uint32_t qpn)
{
    NS_ABORT_MSG_IF(qpn >= m_sendQps.size(), "RdmaNic: no send QP " << qpn);
    SendQueuePair& qp = m_sendQps[qpn];
    NS_ABORT_MSG_IF(qp.active || qp.started, "RdmaNic: exempt QP " << qpn << " before it is used");
    // Its own limiter at line rate, outside its peer group (it does not take a share).
    qp.peers = nullptr;
    UseLimiter(qp, AddLimiter(CreateObject<NoCongestionControl>(), qp.peerNode, nullptr));
}

Ptr<CongestionControl>
RdmaNic::GetCongestionControl(uint32_t qpn) const
{
    return m_sendQps.at(qpn).cc;
}

uint32_t
RdmaNic::AddRecvQp(uint32_t peerNode, uint16_t sport, uint8_t priority)
{
    RecvQueuePair rq;
    rq.peerNode = peerNode;
    rq.sport = sport;
    rq.priority = priority;
    m_recvQps.push_back(rq);
    return m_recvQps.size() - 1;
}

} // namespace ns3
