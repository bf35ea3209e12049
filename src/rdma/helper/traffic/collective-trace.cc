/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/collective-trace.h"

#include "ns3/input-fields.h"
#include "ns3/scenario-error.h"

#include <fstream>
#include <set>

namespace ns3
{

using namespace inputfields;

namespace
{
bool
ValidPhase(const std::string& p)
{
    if (p.empty())
    {
        return false;
    }
    for (char c : p)
    {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-')
        {
            return false;
        }
    }
    return true;
}

/// A flow's wait list: the (phase, layer) groups it waits for, resolved once all are read.
using WaitList = std::vector<std::pair<std::string, uint32_t>>;

/// Throws unless the first line \p c (\p line as read) is the trace's header.
void
CheckHeader(const std::vector<std::string>& c, const std::string& line, const std::string& where)
{
    std::string got;
    for (size_t i = 0; i < c.size(); ++i)
    {
        got += (i ? "," : "") + c[i];
    }
    if (got != CollectiveTrace::Header())
    {
        throw ScenarioError(where + ": header must be '" + std::string(CollectiveTrace::Header()) +
                            "', got '" + line + "'");
    }
}

/// The wait_groups cell \p cell: phase:layer items separated by ';' (empty: none).
WaitList
ReadWaits(const std::string& cell, const std::string& where)
{
    WaitList w;
    if (!cell.empty())
    {
        for (const std::string& item : Split(cell, ";", false))
        {
            const auto colon = item.rfind(':');
            if (colon == std::string::npos || !ValidPhase(item.substr(0, colon)))
            {
                throw ScenarioError(where + ": column 'wait_groups' has invalid value '" + cell +
                                    "' (expected phase:layer items separated by ';')");
            }
            w.emplace_back(item.substr(0, colon),
                           Unsigned(item.substr(colon + 1), where, "wait_groups", 1u << 30));
        }
    }
    return w;
}

/// One data line \p c of the trace, its group added to \p t and its waits to \p waits;
/// \p ids holds the flow ids read so far.
TraceFlow
ReadFlow(const std::vector<std::string>& c,
         const std::string& where,
         uint32_t ranks,
         std::set<uint64_t>& ids,
         CollectiveTrace& t,
         WaitList& waits)
{
    TraceFlow f;
    f.flowId = Unsigned(c[0], where, "flow_id", uint64_t(1) << 62);
    if (!ids.insert(f.flowId).second)
    {
        throw ScenarioError(where + ": column 'flow_id' has invalid value '" + c[0] +
                            "' (appears twice)");
    }
    f.releaseNs = Unsigned(c[1], where, "release_ns", uint64_t(1) << 62);
    f.src = Unsigned(c[2], where, "src", ranks - 1);
    f.dst = Unsigned(c[3], where, "dst", ranks - 1);
    if (f.src == f.dst)
    {
        throw ScenarioError(where + ": src and dst are the same rank (" + c[2] + ")");
    }
    f.bytes = Unsigned(c[4], where, "bytes", uint64_t(1) << 40);
    if (f.bytes == 0)
    {
        throw ScenarioError(where + ": column 'bytes' has invalid value '0' (must be > 0)");
    }
    if (!ValidPhase(c[5]))
    {
        throw ScenarioError(where + ": column 'phase' has invalid value '" + c[5] +
                            "' (letters, digits, '_' and '-')");
    }
    f.phase = c[5];
    f.layer = Unsigned(c[6], where, "layer", 1u << 30);
    f.group = t.GroupIndex(f.phase, f.layer);
    waits = ReadWaits(c[7], where);
    f.gapNs = Unsigned(c[8], where, "gap_ns", uint64_t(1) << 62);
    f.priority = c[9].empty() ? -1 : int32_t(Unsigned(c[9], where, "prio", 7));
    return f;
}

/// Each flow's \p waits (read from line \p lineOf of \p path) as group indices.
void
ResolveWaits(CollectiveTrace& t,
             const std::vector<WaitList>& waits,
             const std::vector<uint32_t>& lineOf,
             const std::string& path)
{
    for (size_t i = 0; i < t.flows.size(); ++i)
    {
        for (const auto& [phase, layer] : waits[i])
        {
            const auto it = t.groupIndex.find({phase, layer});
            if (it == t.groupIndex.end())
            {
                throw ScenarioError(path + ":" + std::to_string(lineOf[i]) + ": waits for group " +
                                    phase + ":" + std::to_string(layer) + ", which has no flow");
            }
            t.flows[i].waits.push_back(it->second);
        }
    }
}
} // namespace

const char*
CollectiveTrace::Header()
{
    return "flow_id,release_ns,src,dst,bytes,phase,layer,wait_groups,gap_ns,prio";
}

uint32_t
CollectiveTrace::GroupIndex(const std::string& phase, uint32_t layer)
{
    const auto [it, added] = groupIndex.emplace(std::make_pair(phase, layer), groups.size());
    if (added)
    {
        groups.push_back(Group{phase, layer});
    }
    return it->second;
}

void
CollectiveTrace::CheckAcyclic(const std::string& origin) const
{
    // Group graph: an edge from each waited group to the group of the waiting flow.
    std::vector<std::set<uint32_t>> next(groups.size());
    std::vector<uint32_t> indegree(groups.size(), 0);
    for (const TraceFlow& f : flows)
    {
        for (uint32_t w : f.waits)
        {
            if (next[w].insert(f.group).second)
            {
                ++indegree[f.group];
            }
        }
    }
    std::vector<uint32_t> ready;
    for (uint32_t g = 0; g < groups.size(); ++g)
    {
        if (indegree[g] == 0)
        {
            ready.push_back(g);
        }
    }
    size_t done = 0;
    while (!ready.empty())
    {
        const uint32_t g = ready.back();
        ready.pop_back();
        ++done;
        for (uint32_t n : next[g])
        {
            if (--indegree[n] == 0)
            {
                ready.push_back(n);
            }
        }
    }
    if (done != groups.size())
    {
        for (uint32_t g = 0; g < groups.size(); ++g)
        {
            if (indegree[g] > 0)
            {
                throw ScenarioError(
                    origin + ": group " + groups[g].phase + ":" + std::to_string(groups[g].layer) +
                    " waits, directly or not, for itself (groups must not wait in a cycle)");
            }
        }
    }
}

CollectiveTrace
CollectiveTrace::Read(const std::string& path, uint32_t ranks)
{
    std::ifstream in = inputfields::OpenInputFile(path, "collective trace");
    CollectiveTrace t;
    std::set<uint64_t> ids;
    // Waits are resolved after reading (a flow may wait for a group listed later).
    std::vector<WaitList> waits;
    std::vector<uint32_t> lineOf;
    std::string line;
    uint32_t lineNo = 0;
    bool header = false;
    while (std::getline(in, line))
    {
        ++lineNo;
        const std::string where = path + ":" + std::to_string(lineNo);
        const std::vector<std::string> c = Split(line, ",", false);
        if (c.size() == 1 && (c[0].empty() || c[0][0] == '#'))
        {
            continue;
        }
        if (!header)
        {
            CheckHeader(c, line, where);
            header = true;
            continue;
        }
        if (c.size() != 10)
        {
            throw ScenarioError(where + ": expected 10 columns, got " + std::to_string(c.size()) +
                                " in '" + line + "'");
        }
        WaitList w;
        const TraceFlow f = ReadFlow(c, where, ranks, ids, t, w);
        t.flows.push_back(f);
        waits.push_back(w);
        lineOf.push_back(lineNo);
    }
    if (!header)
    {
        throw ScenarioError(path + ": empty collective trace (no header line)");
    }
    ResolveWaits(t, waits, lineOf, path);
    t.CheckAcyclic(path);
    return t;
}

void
CollectiveTrace::Write(std::ostream& out) const
{
    out << Header() << '\n';
    for (const TraceFlow& f : flows)
    {
        out << f.flowId << ',' << f.releaseNs << ',' << f.src << ',' << f.dst << ',' << f.bytes
            << ',' << f.phase << ',' << f.layer << ',';
        for (size_t i = 0; i < f.waits.size(); ++i)
        {
            const Group& g = groups[f.waits[i]];
            out << (i ? ";" : "") << g.phase << ':' << g.layer;
        }
        out << ',' << f.gapNs << ',';
        if (f.priority >= 0)
        {
            out << f.priority;
        }
        out << '\n';
    }
}

} // namespace ns3
