/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaNic, responder side: data packets answered as the loss-recovery policy decides
 * (ACK, NACK), CNPs for CE-marked packets, and answers to RTT probes.
 */
#include "ns3/rdma-nic.h"
#include "ns3/rdma-sim.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>

namespace ns3
{

void
RdmaNic::ReceiveData(const RdmaHeader& h)
{
    RecvQueuePair& rq = m_recvQps[h.dstQpn];
    const Time now = RdmaSim::Now();
    if (h.ecn == RdmaHeader::CE && now - rq.lastCnp >= m_cnpInterval)
    {
        rq.lastCnp = now;
        SendCnp(rq);
    }
    const uint32_t inOrderBefore = rq.expectedPsn;
    // A trimmed packet (its payload cut by a switch) delivers nothing: the policy NACKs it.
    const bool trimmed = h.flags & RdmaHeader::FLAG_TRIMMED;
    m_stats.trimmedReceived += trimmed;
    const RecvReply r = trimmed ? m_recovery->OnTrimmedData(rq, h, now)
                                : m_recovery->OnData(rq, h, m_ackInterval, now);
    if ((h.flags & RdmaHeader::FLAG_LAST) ||
        (!m_lastsAhead.empty() && rq.expectedPsn != inOrderBefore))
    {
        NoteDeliveries(h, rq, inOrderBefore, r.deliveredBytes > 0);
    }
    // With a host model, every data packet takes its turn in the host, answered or not.
    const Time done = m_hostRx ? m_hostRx->Admit(r.deliveredBytes, now) : now;
    if (r.deliveredBytes > 0)
    {
        m_stats.payloadBytesDelivered += r.deliveredBytes;
        m_stats.lastDelivery = now;
    }
    if (r.outOfOrder)
    {
        ++m_stats.outOfOrderPackets;
    }
    if (r.send)
    {
        // A NACK answers reordering: with CnpOnOutOfOrder it is also a CNP.
        const bool cnp = r.type == RdmaPacketType::NACK && m_cnpOnOutOfOrder;
        uint8_t flags = cnp ? RdmaHeader::FLAG_CNP : 0;
        if (trimmed && r.type == RdmaPacketType::NACK)
        {
            flags |= RdmaHeader::FLAG_TRIMMED; // resend exactly h.psn (the NACK's sackPsn)
        }
        if (done > now)
        {
            Simulator::Schedule(done - now,
                                &RdmaNic::SendHeldAck,
                                this,
                                h,
                                r.type,
                                r.psn,
                                flags,
                                done - now);
        }
        else
        {
            SendAck(rq, h, r.type, r.psn, flags);
        }
    }
}

void
RdmaNic::NoteDeliveries(const RdmaHeader& h, const RecvQueuePair& rq, uint32_t before, bool placed)
{
    uint32_t delivered = 0; // messages (their order is the QP's: only the count matters)
    if ((h.flags & RdmaHeader::FLAG_LAST) && h.psn >= before)
    {
        if (h.psn < rq.expectedPsn)
        {
            ++delivered;
        }
        else if (placed)
        {
            m_lastsAhead.emplace_back(h.dstQpn, h.psn);
        }
    }
    if (rq.expectedPsn != before)
    {
        // The in-order point moved: last packets placed ahead of it may now be behind it.
        auto ahead = m_lastsAhead.begin();
        for (auto it = m_lastsAhead.begin(); it != m_lastsAhead.end(); ++it)
        {
            if (it->first == h.dstQpn && it->second < rq.expectedPsn)
            {
                ++delivered;
            }
            else
            {
                *ahead++ = *it;
            }
        }
        m_lastsAhead.erase(ahead, m_lastsAhead.end());
    }
    for (uint32_t k = 0; k < delivered; ++k)
    {
        m_deliveryTrace(m_nodeId, h.dstQpn);
        if (!m_deliveryCallback.IsNull())
        {
            m_deliveryCallback(m_nodeId, h.dstQpn);
        }
    }
}

void
RdmaNic::SendHeldAck(RdmaHeader data, RdmaPacketType type, uint32_t psn, uint8_t flags, Time held)
{
    SendAck(m_recvQps[data.dstQpn], data, type, psn, flags, held);
}

void
RdmaNic::ReceiveProbe(const RdmaHeader& h)
{
    RecvQueuePair& rq = m_recvQps[h.dstQpn];
    RdmaHeader r;
    r.type = RdmaPacketType::PROBE_RESP;
    r.priority =
        m_probeResponsePriority >= 0 ? m_probeResponsePriority : m_device->GetStrictPriority();
    r.src = m_nodeId;
    r.dst = rq.peerNode;
    r.sport = rq.sport;
    r.dstQpn = rq.peerQpn;
    r.timestamp = h.timestamp;
    m_device->Enqueue(RdmaFrame::Make(r), r.priority);
}

void
RdmaNic::SendAck(const RecvQueuePair& rq,
                 const RdmaHeader& data,
                 RdmaPacketType type,
                 uint32_t psn,
                 uint8_t extraFlags,
                 Time hostDelay)
{
    Ptr<RdmaFrame> frame = RdmaFrame::MakeBlank(); // its header filled in place
    RdmaHeader& h = frame->header;
    h.type = type;
    h.priority = m_device->GetStrictPriority();
    h.src = m_nodeId;
    h.dst = rq.peerNode;
    h.sport = rq.sport;
    h.dstQpn = rq.peerQpn;
    h.psn = psn;
    h.sackPsn = data.psn;
    h.echoSport = data.sport;
    h.timestamp = data.timestamp;
    h.flags = extraFlags;
    h.remoteDelayNs = static_cast<uint32_t>(
        std::min<int64_t>(hostDelay.GetNanoSeconds(), std::numeric_limits<uint32_t>::max()));
    if (data.ecn == RdmaHeader::CE)
    {
        h.flags |= RdmaHeader::FLAG_ECN_ECHO;
    }
    if (data.flags & RdmaHeader::FLAG_INT)
    {
        h.flags |= RdmaHeader::FLAG_INT;
        h.intHops = data.intHops;
        h.intStack = data.intStack;
    }
    // PINT's value travels back as it arrived (its bytes too).
    h.pintBytes = data.pintBytes;
    h.pintCode = data.pintCode;
    if (type == RdmaPacketType::ACK)
    {
        ++m_stats.acksSent;
    }
    else
    {
        ++m_stats.nacksSent;
    }
    frame->Sized();
    m_device->Enqueue(frame, h.priority);
}

void
RdmaNic::SendCnp(const RecvQueuePair& rq)
{
    RdmaHeader h;
    h.type = RdmaPacketType::CNP;
    h.priority = m_device->GetStrictPriority();
    h.src = m_nodeId;
    h.dst = rq.peerNode;
    h.sport = rq.sport;
    h.dstQpn = rq.peerQpn;
    ++m_stats.cnpsSent;
    m_device->Enqueue(RdmaFrame::Make(h), h.priority);
}

} // namespace ns3
