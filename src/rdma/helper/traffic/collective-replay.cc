/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/collective-replay.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/output-file.h"
#include "ns3/rdma-ranks.h"
#include "ns3/simulator.h"

#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveReplay");

CollectiveReplay::CollectiveReplay(TrafficDriver& driver,
                                   CollectiveTrace& trace,
                                   const std::vector<uint32_t>& rankHosts,
                                   uint8_t defaultPriority,
                                   bool shareQps,
                                   Wait wait)
    : m_driver(driver),
      m_trace(trace),
      m_wait(wait),
      m_firstFlowId(driver.GetFlowsTotal()),
      m_traceFlows(trace.flows.size()),
      m_firstKept(driver.GetKeptFlows()),
      m_groups(trace.groups.size())
{
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, uint64_t>
        qpOwner;                         // (src, dst, prio) -> flow id
    std::map<uint64_t, uint32_t> qpLast; // QP owner's flow id -> last flow on it so far
    for (const TraceFlow& t : m_trace.flows)
    {
        NS_ABORT_MSG_IF(t.src >= rankHosts.size() || t.dst >= rankHosts.size(),
                        "CollectiveReplay: rank without a host");
        FlowState s;
        s.nextOnQp = kNone;
        s.srcHost = rankHosts[t.src];
        s.dstHost = rankHosts[t.dst];
        NS_ABORT_MSG_IF(s.srcHost == s.dstHost,
                        "CollectiveReplay: ranks " << t.src << " and " << t.dst << " share a host");
        FlowSpec f;
        f.src = s.srcHost;
        f.dst = s.dstHost;
        f.bytes = t.bytes;
        f.priority = t.priority >= 0 ? t.priority : defaultPriority;
        f.kind = FlowKind::COLLECTIVE;
        int64_t share = -1;
        if (shareQps)
        {
            const auto [it, added] = qpOwner.emplace(std::make_tuple(f.src, f.dst, f.priority), 0);
            if (added)
            {
                it->second = m_driver.GetFlowsTotal();
            }
            else
            {
                share = it->second;
            }
        }
        const uint64_t id = m_driver.AddDeferredFlow(f, share);
        NS_ABORT_MSG_IF(id != m_firstFlowId + (&t - m_trace.flows.data()),
                        "CollectiveReplay: flows must be added together");
        m_groups[t.group].flows += 1;
        m_groups[t.group].bytes += t.bytes;
        if (!m_driver.IsKept(id))
        {
            // Over MPI ranks, between two other ranks' hosts: numbered only. (The flows
            // of a QP join the same hosts: all of them kept, or none.)
            if (!m_sparse)
            {
                m_sparse = true;
                for (uint32_t k = 0; k < m_flows.size(); ++k)
                {
                    m_traceOf.push_back(k);
                }
            }
            continue;
        }
        if (m_sparse)
        {
            m_traceOf.push_back(&t - m_trace.flows.data());
        }
        if (share >= 0 && wait == Wait::DELIVERED)
        {
            const auto last = qpLast.emplace(share, Index(share)).first;
            m_flows[last->second].nextOnQp = m_flows.size();
            last->second = m_flows.size();
            s.behind = true;
        }
        m_flows.push_back(s);
        ++m_remaining[Key(s.srcHost, t.group)];
        ++m_remaining[Key(s.dstHost, t.group)];
    }
    // Dependencies: a flow waits for its groups on its sending host; a group without
    // flows there is complete from the start.
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        for (uint32_t g : Row(i).waits)
        {
            const uint64_t key = Key(m_flows[i].srcHost, g);
            if (m_remaining.count(key))
            {
                m_waiters[key].push_back(i);
                ++m_flows[i].pending;
            }
        }
    }
    m_driver.AddCompletionListener(MakeCallback(&CollectiveReplay::Completed, this));
    if (wait == Wait::DELIVERED)
    {
        m_driver.AddDeliveryListener(MakeCallback(&CollectiveReplay::Delivered, this));
    }
}

uint32_t
CollectiveReplay::Index(uint64_t flowId) const
{
    if (flowId < m_firstFlowId || flowId >= m_firstFlowId + m_traceFlows)
    {
        return kNone; // not one of this replay's flows
    }
    // The replay adds its flows together: its kept flows are the driver's, in one run.
    const uint64_t k = m_driver.GetKeptIndex(flowId);
    return k == TrafficDriver::kNotKept ? kNone : uint32_t(k - m_firstKept);
}

uint64_t
CollectiveReplay::IdOf(uint32_t i) const
{
    return m_driver.GetKeptId(m_firstKept + i);
}

const TraceFlow&
CollectiveReplay::Row(uint32_t i) const
{
    if (!m_sparse)
    {
        return m_trace.flows[i];
    }
    return m_dropped ? m_own[i] : m_trace.flows[m_traceOf[i]];
}

void
CollectiveReplay::DropRemoteFlows()
{
    if (!m_sparse || m_dropped)
    {
        return; // every flow is kept, or dropped already
    }
    m_dropped = true;
    m_own.reserve(m_flows.size());
    for (uint32_t k : m_traceOf)
    {
        m_own.push_back(std::move(m_trace.flows[k]));
    }
    m_traceOf = std::vector<uint32_t>();
    m_trace.flows = std::vector<TraceFlow>();
}

uint64_t
CollectiveReplay::Key(uint32_t host, uint32_t group)
{
    return (uint64_t(group) << 32) | host;
}

void
CollectiveReplay::Start()
{
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        if (m_flows[i].pending == 0)
        {
            Release(i);
        }
    }
}

void
CollectiveReplay::Release(uint32_t i)
{
    const TraceFlow& t = Row(i);
    Time at = NanoSeconds(t.releaseNs);
    if (!t.waits.empty())
    {
        at = Max(at, m_flows[i].ready + NanoSeconds(t.gapNs));
    }
    Post(i, at);
}

void
CollectiveReplay::Post(uint32_t i, Time at)
{
    if (m_flows[i].behind)
    {
        m_flows[i].held = true;
        m_flows[i].heldAt = at;
        return;
    }
    // Posting it may free the flows behind it on its QP, each no sooner than the one ahead.
    while (true)
    {
        m_driver.ReleaseFlow(IdOf(i), Max(Time(0), at - Simulator::Now()));
        const uint32_t next = m_flows[i].nextOnQp;
        if (next == kNone)
        {
            return;
        }
        m_flows[next].behind = false;
        if (!m_flows[next].held)
        {
            return;
        }
        m_flows[next].held = false;
        at = Max(at, m_flows[next].heldAt);
        i = next;
    }
}

void
CollectiveReplay::Completed(const TrafficDriver::Record& r)
{
    const uint32_t i = r.kind == FlowKind::COLLECTIVE ? Index(r.flowId) : kNone;
    if (i == kNone)
    {
        return;
    }
    const uint32_t g = Row(i).group;
    GroupStats& stats = m_groups[g];
    stats.start = Min(stats.start, r.start);
    stats.end = Max(stats.end, r.end);
    ++stats.completed;
    DoneOnHost(i, m_flows[i].srcHost);
    if (m_wait == Wait::ACKNOWLEDGED)
    {
        DoneOnHost(i, m_flows[i].dstHost);
    }
}

void
CollectiveReplay::Delivered(uint64_t flowId)
{
    const uint32_t i = Index(flowId);
    if (i != kNone)
    {
        DoneOnHost(i, m_flows[i].dstHost);
    }
}

void
CollectiveReplay::DoneOnHost(uint32_t i, uint32_t host)
{
    const uint64_t key = Key(host, Row(i).group);
    if (--m_remaining[key] == 0)
    {
        GroupDoneOnHost(key);
    }
}

void
CollectiveReplay::GroupDoneOnHost(uint64_t key)
{
    const auto it = m_waiters.find(key);
    if (it == m_waiters.end())
    {
        return;
    }
    for (uint32_t i : it->second)
    {
        m_flows[i].ready = Max(m_flows[i].ready, Simulator::Now());
        if (--m_flows[i].pending == 0)
        {
            Release(i);
        }
    }
    m_waiters.erase(it);
}

const std::vector<CollectiveReplay::GroupStats>&
CollectiveReplay::GetGroupStats() const
{
    return m_groups;
}

void
CollectiveReplay::CombineRanks()
{
    if (RdmaRanks::Size() <= 1)
    {
        return;
    }
    std::vector<int64_t> start;
    std::vector<int64_t> end;
    std::vector<int64_t> completed;
    for (const GroupStats& s : m_groups)
    {
        start.push_back(s.start.GetTimeStep());
        end.push_back(s.end.GetTimeStep());
        completed.push_back(s.completed);
    }
    RdmaRanks::AllReduce(start, RdmaRanks::Reduce::MIN);
    RdmaRanks::AllReduce(end, RdmaRanks::Reduce::MAX);
    RdmaRanks::AllReduce(completed, RdmaRanks::Reduce::SUM);
    for (std::size_t g = 0; g < m_groups.size(); ++g)
    {
        m_groups[g].start = Time(start[g]);
        m_groups[g].end = Time(end[g]);
        m_groups[g].completed = completed[g];
    }
}

void
CollectiveReplay::WriteCsv(std::ostream& out) const
{
    // The columns as collectives.csv declares them (CollectiveStage).
    out << OutputFiles::Find("collectives.csv")->Header() << '\n';
    for (uint32_t g = 0; g < m_groups.size(); ++g)
    {
        const GroupStats& s = m_groups[g];
        const bool done = s.completed == s.flows;
        out << m_trace.groups[g].phase << ',' << m_trace.groups[g].layer << ',';
        if (done)
        {
            out << s.start.GetNanoSeconds() << ',' << s.end.GetNanoSeconds() << ','
                << (s.end - s.start).GetNanoSeconds();
        }
        else
        {
            out << ",,"; // did not complete before the stop time
        }
        out << ',' << s.flows << ',' << s.bytes << '\n';
    }
}

void
CollectiveReplay::Summarize(nlohmann::json& sum) const
{
    uint64_t flows = 0;
    uint64_t bytes = 0;
    bool complete = true;
    Time first = Time::Max();
    Time last;
    std::map<std::string, std::pair<double, uint32_t>> phases; // phase -> (sum ns, groups)
    for (uint32_t g = 0; g < m_groups.size(); ++g)
    {
        const GroupStats& s = m_groups[g];
        flows += s.flows;
        bytes += s.bytes;
        if (s.completed != s.flows)
        {
            complete = false;
            continue;
        }
        first = Min(first, s.start);
        last = Max(last, s.end);
        auto& p = phases[m_trace.groups[g].phase];
        p.first += double((s.end - s.start).GetNanoSeconds());
        p.second += 1;
    }
    sum["collective_flows"] = flows;
    sum["collective_bytes"] = bytes;
    sum["collective_groups"] = m_groups.size();
    sum["collective_completed"] = complete;
    // First flow posted to last flow completed: the all-to-all completion time.
    sum["collective_time_ns"] = complete && flows > 0 ? (last - first).GetNanoSeconds() : 0;
    nlohmann::json mean = nlohmann::json::object();
    for (const auto& [phase, p] : phases)
    {
        mean[phase] = p.first / p.second;
    }
    sum["collective_phase_mean_ns"] = mean;
}

} // namespace ns3
