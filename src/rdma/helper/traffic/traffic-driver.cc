/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/traffic-driver.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rdma-sim.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrafficDriver");

namespace
{
/// No flow (delivery order).
constexpr uint64_t kNoFlow = ~uint64_t(0);
/// UDP source ports of QPs (per-QP ECMP entropy) cycle through the dynamic range.
constexpr uint32_t kSportBase = 49152;
constexpr uint32_t kSportRange = 16384;
} // namespace

const char*
FlowKindName(FlowKind kind)
{
    switch (kind)
    {
    case FlowKind::FLOW:
        return "flow";
    case FlowKind::INCAST:
        return "incast";
    case FlowKind::PROBE:
        return "probe";
    case FlowKind::PERMUTATION:
        return "permutation";
    case FlowKind::CDF:
        return "cdf";
    case FlowKind::COLLECTIVE:
        return "collective";
    }
    return "?";
}

TrafficDriver::TrafficDriver(RdmaTopology& topo)
    : m_topo(topo),
      m_completed(0),
      m_probesCompleted(0),
      m_probeSeq(0),
      m_probesPosted(0),
      m_foregroundDone(false),
      m_foregroundBytes(0),
      m_started(false),
      m_done(false),
      m_nextSport(topo.GetHosts().size(), 0)
{
    for (uint32_t h : topo.GetLocalHosts())
    {
        topo.GetNic(h)->SetCompletionCallback(MakeCallback(&TrafficDriver::Completed, this));
    }
    m_split = topo.GetLocalHosts().size() < topo.GetHosts().size();
    if (m_split)
    {
        m_remoteQpns.assign(topo.GetHosts().size(), {0, 0});
    }
}

std::pair<uint32_t, uint32_t>
TrafficDriver::Connect(uint32_t src, uint32_t dst, uint8_t priority)
{
    const auto& hosts = m_topo.GetHosts();
    NS_ABORT_MSG_IF(src >= hosts.size() || dst >= hosts.size() || src == dst,
                    "TrafficDriver: bad host pair " << src << "->" << dst);
    Ptr<RdmaNic> s = m_topo.GetNic(hosts[src]);
    Ptr<RdmaNic> d = m_topo.GetNic(hosts[dst]);
    const uint16_t sport = kSportBase + (m_nextSport[src]++ % kSportRange);
    if (s)
    {
        // Per-pair path facts for the controller (base RTT, hops), set on first use.
        // (The topology keeps each path shape once: this is a lookup, not a path search.)
        s->SetCcContextFor(hosts[dst],
                           m_topo.GetBaseRtt(hosts[src], hosts[dst]),
                           m_topo.GetPathLength(hosts[src], hosts[dst]));
    }
    uint32_t recvQpn = 0;
    if (s && d)
    {
        const uint32_t qpn = RdmaNic::Connect(s, d, priority, sport, &recvQpn);
        return {qpn, recvQpn};
    }
    // Over MPI ranks, another rank's NIC is not built here: its QPs are only numbered,
    // as it numbers them (its peers here address them by number).
    if (s)
    {
        recvQpn = m_remoteQpns[dst].second++;
        return {s->ConnectTo(hosts[dst], recvQpn, priority, sport), recvQpn};
    }
    const uint32_t qpn = m_remoteQpns[src].first++;
    recvQpn = d ? d->AcceptFrom(hosts[src], qpn, priority, sport) : m_remoteQpns[dst].second++;
    return {qpn, recvQpn};
}

uint64_t
TrafficDriver::AddFlow(const FlowSpec& flow)
{
    NS_ABORT_MSG_IF(m_started, "TrafficDriver: AddFlow after Start");
    const auto [qpn, recvQpn] = Connect(flow.src, flow.dst, flow.priority);
    if (flow.bytes != RdmaMessage::kUnbounded)
    {
        m_foregroundBytes += flow.bytes;
    }
    return Add(FlowState{flow, qpn, recvQpn});
}

uint64_t
TrafficDriver::Add(const FlowState& s)
{
    const auto& hosts = m_topo.GetHosts();
    const bool keep = m_topo.IsLocal(hosts[s.spec.src]) || m_topo.IsLocal(hosts[s.spec.dst]);
    if (!keep && !m_sparse)
    {
        m_sparse = true;
        // The first flow not kept: from now on, ids are looked up.
        for (uint64_t id = 0; id < m_flows.size(); ++id)
        {
            m_ids.push_back(id);
            m_briefs.push_back({m_flows[id].spec.bytes, m_flows[id].spec.src, m_flows[id].qpn});
        }
    }
    if (m_sparse)
    {
        m_briefs.push_back({s.spec.bytes, s.spec.src, s.qpn});
    }
    if (keep)
    {
        if (m_sparse)
        {
            m_ids.push_back(m_total);
        }
        m_flows.push_back(s);
    }
    return m_total++;
}

uint64_t
TrafficDriver::GetKeptIndex(uint64_t flowId) const
{
    if (!m_sparse)
    {
        return flowId < m_flows.size() ? flowId : kNotKept;
    }
    const auto it = std::lower_bound(m_ids.begin(), m_ids.end(), flowId);
    return it != m_ids.end() && *it == flowId ? uint64_t(it - m_ids.begin()) : kNotKept;
}

uint64_t
TrafficDriver::GetKeptId(uint64_t slot) const
{
    return m_sparse ? m_ids[slot] : slot;
}

uint64_t
TrafficDriver::AddDeferredFlow(const FlowSpec& flow, int64_t shareQpOf)
{
    NS_ABORT_MSG_IF(m_started, "TrafficDriver: AddDeferredFlow after Start");
    NS_ABORT_MSG_IF(flow.bytes == RdmaMessage::kUnbounded,
                    "TrafficDriver: a deferred flow needs a size");
    std::pair<uint32_t, uint32_t> qpns;
    const uint64_t other = shareQpOf >= 0 ? GetKeptIndex(shareQpOf) : kNotKept;
    if (shareQpOf >= 0 && other == kNotKept)
    {
        NS_ABORT_MSG_IF(uint64_t(shareQpOf) >= m_total || m_briefs[shareQpOf].src != flow.src,
                        "TrafficDriver: a shared QP joins the same hosts in the same class");
        qpns = {m_briefs[shareQpOf].qpn, 0}; // between two other ranks' hosts: not kept
    }
    else if (shareQpOf >= 0)
    {
        const FlowState& o = m_flows[other];
        NS_ABORT_MSG_IF(o.spec.src != flow.src || o.spec.dst != flow.dst ||
                            o.spec.priority != flow.priority,
                        "TrafficDriver: a shared QP joins the same hosts in the same class");
        qpns = {o.qpn, o.recvQpn};
    }
    else
    {
        qpns = Connect(flow.src, flow.dst, flow.priority);
    }
    m_foregroundBytes += flow.bytes;
    return Add(FlowState{flow, qpns.first, qpns.second, true});
}

void
TrafficDriver::ReleaseFlow(uint64_t flowId, Time delay)
{
    const uint64_t slot = GetKeptIndex(flowId);
    if (slot == kNotKept || !m_topo.IsLocal(m_topo.GetHosts()[m_flows[slot].spec.src]))
    {
        return; // its source's rank posts it
    }
    NS_ABORT_MSG_IF(!m_flows[slot].deferred,
                    "TrafficDriver: flow " << flowId << " is not deferred");
    Simulator::ScheduleWithContext(m_topo.GetHosts()[m_flows[slot].spec.src],
                                   delay,
                                   &TrafficDriver::PostFlow,
                                   this,
                                   slot);
}

void
TrafficDriver::Start()
{
    m_started = true;
    // In a distributed run a flow is posted (and completes) on its source's rank only.
    const auto& hosts = m_topo.GetHosts();
    for (uint64_t slot = 0; slot < m_flows.size(); ++slot)
    {
        if (!m_topo.IsLocal(hosts[m_flows[slot].spec.src]))
        {
            continue;
        }
        ++m_localFlows;
        if (!m_flows[slot].deferred)
        {
            // (In its source's context: its events are that node's, wherever scheduled.)
            Simulator::ScheduleWithContext(hosts[m_flows[slot].spec.src],
                                           m_flows[slot].spec.start,
                                           &TrafficDriver::PostFlow,
                                           this,
                                           slot);
        }
    }
    m_localForegroundDone = m_localFlows == 0;
    for (uint32_t i = 0; i < m_probes.size(); ++i)
    {
        if (m_topo.IsLocal(hosts[m_probes[i].src]))
        {
            Simulator::ScheduleWithContext(hosts[m_probes[i].src],
                                           m_probes[i].start,
                                           &TrafficDriver::PostProbe,
                                           this,
                                           i);
        }
    }
    // Without foreground flows, probes run until the stop time.
    if (!m_deliveryListeners.empty())
    {
        IndexDeliveries();
    }
}

void
TrafficDriver::AddDeliveryListener(DeliveryCallback cb)
{
    NS_ABORT_MSG_IF(m_started, "TrafficDriver: AddDeliveryListener after Start");
    if (m_deliveryListeners.empty())
    {
        // Only now: without listeners the NICs call nothing on a delivery.
        for (uint32_t h : m_topo.GetLocalHosts())
        {
            m_topo.GetNic(h)->SetDeliveryCallback(MakeCallback(&TrafficDriver::Delivered, this));
        }
    }
    m_deliveryListeners.push_back(cb);
}

void
TrafficDriver::IndexDeliveries()
{
    const auto& hosts = m_topo.GetHosts();
    m_nextDelivery.assign(hosts.size(), {});
    m_nextOnQp.assign(m_flows.size(), kNoFlow);
    std::vector<std::vector<uint64_t>> last(hosts.size()); // per host and QP: last flow so far
    for (uint64_t slot = 0; slot < m_flows.size(); ++slot)
    {
        const FlowState& f = m_flows[slot];
        if (!m_topo.IsLocal(hosts[f.spec.dst]))
        {
            continue;
        }
        const uint32_t rqpn = f.recvQpn;
        std::vector<uint64_t>& next = m_nextDelivery[f.spec.dst];
        std::vector<uint64_t>& tail = last[f.spec.dst];
        if (rqpn >= next.size())
        {
            next.resize(rqpn + 1, kNoFlow);
            tail.resize(rqpn + 1, kNoFlow);
        }
        if (next[rqpn] == kNoFlow)
        {
            next[rqpn] = slot;
        }
        else
        {
            m_nextOnQp[tail[rqpn]] = slot;
        }
        tail[rqpn] = slot;
    }
}

void
TrafficDriver::Delivered(uint32_t node, uint32_t recvQpn)
{
    std::vector<uint64_t>& next = m_nextDelivery[m_topo.GetHostIndex(node)];
    if (recvQpn >= next.size() || next[recvQpn] == kNoFlow)
    {
        return; // a probe's QP
    }
    const uint64_t slot = next[recvQpn];
    next[recvQpn] = m_nextOnQp[slot];
    for (const DeliveryCallback& listener : m_deliveryListeners)
    {
        listener(GetKeptId(slot));
    }
}

void
TrafficDriver::PostFlow(uint64_t slot)
{
    const FlowState& f = m_flows[slot];
    Ptr<RdmaNic> nic = m_topo.GetNic(m_topo.GetHosts()[f.spec.src]);
    nic->PostSend(f.qpn, f.spec.bytes, GetKeptId(slot));
    if (f.spec.bytes == RdmaMessage::kUnbounded)
    {
        // (A stream posted after its stop time, e.g. by an incast group, ends at once.)
        Simulator::ScheduleWithContext(m_topo.GetHosts()[f.spec.src],
                                       Max(f.spec.stop - Simulator::Now(), Time(0)),
                                       &RdmaNic::TruncateMessage,
                                       nic,
                                       f.qpn);
    }
}

void
TrafficDriver::Completed(const RdmaNic::Completion& c)
{
    Record r;
    r.order = RdmaSim::OrdersByNode() ? RdmaSim::CurrentUid() : 0;
    r.qpn = c.qpn;
    r.bytes = c.bytes;
    r.start = c.posted;
    r.end = c.completed;
    if (c.flowId & kProbeBit)
    {
        if (!ProbeCompleted(c.flowId & ~kProbeBit, r))
        {
            return;
        }
    }
    else
    {
        const FlowSpec& f = m_flows[GetKeptIndex(c.flowId)].spec;
        r.flowId = c.flowId;
        r.kind = f.kind;
        r.src = f.src;
        r.dst = f.dst;
        r.priority = f.priority;
        ++m_completed;
        if (m_completed == m_localFlows)
        {
            m_localForegroundDone = true;
            m_localForegroundEnd = Simulator::Now();
        }
    }
    Report(r);
    if (m_split)
    {
        return; // the ranks compare their progress (GetRankProgress)
    }
    // Done once the foreground has completed and no probe is still in flight, so that
    // bytes sent = bytes delivered holds at the end of every completed run.
    if (m_localFlows > 0 && m_localForegroundDone)
    {
        m_foregroundDone = true;
    }
    if (!m_done && m_foregroundDone && m_probesCompleted == m_probesPosted)
    {
        m_done = true;
        if (!m_doneCallback.IsNull())
        {
            m_doneCallback();
        }
    }
}

void
TrafficDriver::Report(Record& r)
{
    const auto& hosts = m_topo.GetHosts();
    r.ideal = r.bytes > 0 ? m_topo.GetIdealFct(hosts[r.src], hosts[r.dst], r.bytes) : Time(0);
    m_lastRecordEnd = r.end;
    if (!m_recordCallback.IsNull())
    {
        m_recordCallback(r);
    }
    for (const RecordCallback& listener : m_listeners)
    {
        listener(r);
    }
}

void
TrafficDriver::SetRecordCallback(RecordCallback cb)
{
    m_recordCallback = cb;
}

void
TrafficDriver::AddCompletionListener(RecordCallback cb)
{
    m_listeners.push_back(cb);
}

void
TrafficDriver::SetDoneCallback(Callback<void> cb)
{
    m_doneCallback = cb;
}

uint64_t
TrafficDriver::GetFlowsTotal() const
{
    return m_total;
}

uint64_t
TrafficDriver::GetFlowsCompleted() const
{
    return m_completed;
}

uint64_t
TrafficDriver::GetProbesCompleted() const
{
    return m_probesCompleted;
}

uint64_t
TrafficDriver::GetForegroundBytes() const
{
    return m_foregroundBytes;
}

std::pair<uint32_t, uint32_t>
TrafficDriver::GetFlowQp(uint64_t flowId) const
{
    NS_ABORT_MSG_IF(flowId >= m_total, "TrafficDriver: no flow " << flowId);
    if (m_sparse)
    {
        return {m_topo.GetHosts()[m_briefs[flowId].src], m_briefs[flowId].qpn};
    }
    const FlowState& f = m_flows[flowId];
    return {m_topo.GetHosts()[f.spec.src], f.qpn};
}

uint64_t
TrafficDriver::GetFlowBytes(uint64_t flowId) const
{
    NS_ABORT_MSG_IF(flowId >= m_total, "TrafficDriver: no flow " << flowId);
    return m_sparse ? m_briefs[flowId].bytes : m_flows[flowId].spec.bytes;
}

uint64_t
TrafficDriver::GetKeptFlows() const
{
    return m_flows.size();
}

bool
TrafficDriver::IsKept(uint64_t flowId) const
{
    return GetKeptIndex(flowId) != kNotKept;
}

const FlowSpec&
TrafficDriver::GetFlowSpec(uint64_t flowId) const
{
    const uint64_t slot = GetKeptIndex(flowId);
    NS_ABORT_MSG_IF(slot == kNotKept, "TrafficDriver: flow " << flowId << " is not kept here");
    return m_flows[slot].spec;
}

bool
TrafficDriver::IsDone() const
{
    return m_done;
}

uint64_t
TrafficDriver::GetLocalFlows() const
{
    return m_localFlows;
}

bool
TrafficDriver::IsLocalFlow(uint64_t flowId) const
{
    const uint64_t slot = GetKeptIndex(flowId);
    return slot != kNotKept && m_topo.IsLocal(m_topo.GetHosts()[m_flows[slot].spec.src]);
}

} // namespace ns3
