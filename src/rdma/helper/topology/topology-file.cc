/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/topology-file.h"

#include "ns3/input-fields.h"
#include "ns3/scenario-error.h"

#include <algorithm>
#include <fstream>
#include <queue>

namespace ns3
{

using namespace inputfields;

namespace
{
/// Lines of \p path without comments ('#' to the end), trimmed, with their numbers.
std::vector<std::pair<uint32_t, std::string>>
ContentLines(const std::string& path, const char* what)
{
    std::ifstream in = inputfields::OpenInputFile(path, what);
    std::vector<std::pair<uint32_t, std::string>> lines;
    std::string line;
    uint32_t n = 0;
    while (std::getline(in, line))
    {
        ++n;
        const auto hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.resize(hash);
        }
        const std::vector<std::string> cells = Split(line, " \t\r", true);
        if (cells.size() == 1 && cells[0].empty())
        {
            continue;
        }
        lines.emplace_back(n, line);
    }
    return lines;
}

std::string
At(const std::string& path, uint32_t line)
{
    return path + ":" + std::to_string(line);
}

/// The switch node ids of an HPCC topology file (its second line, when it has switches),
/// each marked in \p isSwitch (one flag per node id). Throws ScenarioError.
std::vector<uint64_t>
HpccSwitchIds(const std::string& path,
              const std::vector<std::pair<uint32_t, std::string>>& lines,
              uint64_t switches,
              std::vector<bool>& isSwitch)
{
    std::vector<uint64_t> switchIds;
    if (switches == 0)
    {
        return switchIds;
    }
    if (lines.size() < 2)
    {
        throw ScenarioError(path + ": missing the line of switch node ids");
    }
    const std::string where = At(path, lines[1].first);
    const std::vector<std::string> ids = Split(lines[1].second, " \t\r", true);
    if (ids.size() != switches)
    {
        throw ScenarioError(where + ": expected " + std::to_string(switches) + " switch ids, got " +
                            std::to_string(ids.size()));
    }
    for (const std::string& id : ids)
    {
        const uint64_t s = Unsigned(id, where, "switch id", isSwitch.size() - 1);
        if (isSwitch[s])
        {
            throw ScenarioError(where + ": switch id " + id + " appears twice");
        }
        isSwitch[s] = true;
        switchIds.push_back(s);
    }
    return switchIds;
}

/// The link of an HPCC link line `src dst rate delay error_rate`, its ends renumbered by
/// \p ours (file node id -> ours). Throws ScenarioError naming \p where.
TopologyFile::Link
HpccLink(const std::string& text,
         const std::string& where,
         const std::vector<bool>& isSwitch,
         const std::vector<uint32_t>& ours)
{
    const std::vector<std::string> f = Split(text, " \t\r", true);
    if (f.size() != 5)
    {
        throw ScenarioError(where +
                            ": expected 'src dst rate delay error_rate' (e.g. '0 320 100Gbps "
                            "1000ns 0'), got '" +
                            text + "'");
    }
    const uint64_t nodes = isSwitch.size();
    const uint64_t a = Unsigned(f[0], where, "src", nodes - 1);
    const uint64_t b = Unsigned(f[1], where, "dst", nodes - 1);
    if (a == b)
    {
        throw ScenarioError(where + ": a link joins two different nodes");
    }
    if (!isSwitch[a] && !isSwitch[b])
    {
        throw ScenarioError(where + ": nodes " + f[0] + " and " + f[1] +
                            " are both hosts (not in the switch list)");
    }
    if (Number(f[4], where, "error_rate", 0, 1) != 0)
    {
        throw ScenarioError(where + ": column 'error_rate' has invalid value '" + f[4] +
                            "' (random loss is not modelled; use 0)");
    }
    return TopologyFile::Link{ours[a],
                              ours[b],
                              BitRate(f[2], where, "rate"),
                              Nanoseconds(f[3], where, "delay")};
}
} // namespace

uint32_t
TopologyFile::RdmaNode(const std::string& name, const std::string& where, bool haveHosts) const
{
    const char kind = name.empty() ? '?' : name[0];
    if ((kind != 'h' && kind != 's') || name.size() < 2)
    {
        throw ScenarioError(where + ": node '" + name + "' must be hN (host) or sN (switch)");
    }
    if (kind == 'h')
    {
        if (!haveHosts)
        {
            throw ScenarioError(where + ": host '" + name + "' before the 'hosts N' line");
        }
        return Unsigned(name.substr(1), where, "host", m_hosts - 1);
    }
    if (m_switchKinds.empty())
    {
        throw ScenarioError(where + ": switch '" + name + "' before any 'switches N' line");
    }
    return kSwitchFlag | Unsigned(name.substr(1), where, "switch", m_switchKinds.size() - 1);
}

void
TopologyFile::AddRdmaLink(const std::vector<std::string>& f,
                          const std::string& text,
                          const std::string& where,
                          bool haveHosts)
{
    if (f.size() != 5)
    {
        throw ScenarioError(where +
                            ": expected 'link A B RATE DELAY' (e.g. 'link h0 s0 100Gbps 1us'), "
                            "got '" +
                            text + "'");
    }
    const uint32_t a = RdmaNode(f[1], where, haveHosts);
    const uint32_t b = RdmaNode(f[2], where, haveHosts);
    if (a == b)
    {
        throw ScenarioError(where + ": a link joins two different nodes, got '" + text + "'");
    }
    if (!(a & kSwitchFlag) && !(b & kSwitchFlag))
    {
        throw ScenarioError(where + ": a host links to a switch, not to another host ('" + text +
                            "')");
    }
    m_links.push_back(Link{a, b, BitRate(f[3], where, "rate"), Nanoseconds(f[4], where, "delay")});
}

TopologyFile
TopologyFile::ReadRdma(const std::string& path)
{
    TopologyFile t;
    bool haveHosts = false;
    std::vector<uint32_t> linkLines;
    for (const auto& [lineNo, text] : ContentLines(path, "topology file"))
    {
        const std::string where = At(path, lineNo);
        const std::vector<std::string> f = Split(text, " \t\r", true);
        if (f[0] == "hosts")
        {
            if (f.size() != 2)
            {
                throw ScenarioError(where + ": expected 'hosts N', got '" + text + "'");
            }
            if (haveHosts)
            {
                throw ScenarioError(where + ": 'hosts' appears twice");
            }
            t.m_hosts = Unsigned(f[1], where, "hosts", 1000000);
            if (t.m_hosts < 2)
            {
                throw ScenarioError(where + ": column 'hosts' has invalid value '" + f[1] +
                                    "' (at least 2 hosts)");
            }
            haveHosts = true;
        }
        else if (f[0] == "switches")
        {
            if (f.size() != 2 && f.size() != 3)
            {
                throw ScenarioError(where + ": expected 'switches N [kind]', got '" + text + "'");
            }
            const uint64_t n = Unsigned(f[1], where, "switches", 1000000);
            t.m_switchKinds.insert(t.m_switchKinds.end(), n, f.size() == 3 ? f[2] : "switch");
        }
        else if (f[0] == "link")
        {
            t.AddRdmaLink(f, text, where, haveHosts);
            linkLines.push_back(lineNo);
        }
        else
        {
            throw ScenarioError(
                where + ": unknown line '" + text +
                "' (expected 'hosts N', 'switches N [kind]' or 'link A B RATE DELAY')");
        }
    }
    if (!haveHosts)
    {
        throw ScenarioError(path + ": no 'hosts N' line");
    }
    // Switch nodes are numbered after the hosts, known only now.
    for (Link& l : t.m_links)
    {
        for (uint32_t* end : {&l.a, &l.b})
        {
            if (*end & kSwitchFlag)
            {
                *end = t.m_hosts + (*end & ~kSwitchFlag);
            }
        }
    }
    for (uint32_t h = 0; h < t.m_hosts; ++h)
    {
        t.m_hostIndexOfFileNode.push_back(h);
    }
    t.Check(path, linkLines);
    return t;
}

TopologyFile
TopologyFile::ReadHpcc(const std::string& path)
{
    const auto lines = ContentLines(path, "HPCC topology file");
    if (lines.empty())
    {
        throw ScenarioError(path + ": empty HPCC topology file");
    }
    const std::vector<std::string> head = Split(lines[0].second, " \t\r", true);
    const std::string headWhere = At(path, lines[0].first);
    if (head.size() != 3)
    {
        throw ScenarioError(headWhere + ": expected 'nodes switches links', got '" +
                            lines[0].second + "'");
    }
    const uint64_t nodes = Unsigned(head[0], headWhere, "nodes", 10000000);
    const uint64_t switches = Unsigned(head[1], headWhere, "switches", nodes);
    const uint64_t links = Unsigned(head[2], headWhere, "links", 100000000);
    if (nodes - switches < 2)
    {
        throw ScenarioError(headWhere + ": at least 2 hosts are needed (" + head[0] + " nodes, " +
                            head[1] + " switches)");
    }
    std::vector<bool> isSwitch(nodes, false);
    const std::vector<uint64_t> switchIds = HpccSwitchIds(path, lines, switches, isSwitch);
    const size_t first = switches > 0 ? 2 : 1;
    if (lines.size() - first < links)
    {
        throw ScenarioError(path + ": the header announces " + std::to_string(links) +
                            " links, the file has " + std::to_string(lines.size() - first));
    }
    if (lines.size() - first > links)
    {
        throw ScenarioError(At(path, lines[first + links].first) + ": more link lines than the " +
                            std::to_string(links) + " the header announces: '" +
                            lines[first + links].second + "'");
    }
    TopologyFile t;
    // Our numbering: hosts in increasing id order, then switches in the listed order.
    std::vector<uint32_t> ours(nodes);
    t.m_hostIndexOfFileNode.assign(nodes, -1);
    for (uint64_t id = 0; id < nodes; ++id)
    {
        if (!isSwitch[id])
        {
            t.m_hostIndexOfFileNode[id] = t.m_hosts;
            ours[id] = t.m_hosts++;
        }
    }
    for (size_t i = 0; i < switchIds.size(); ++i)
    {
        ours[switchIds[i]] = t.m_hosts + i;
        t.m_switchKinds.emplace_back("switch");
    }
    std::vector<uint32_t> linkLines;
    for (size_t i = first; i < lines.size(); ++i)
    {
        const std::string where = At(path, lines[i].first);
        t.m_links.push_back(HpccLink(lines[i].second, where, isSwitch, ours));
        linkLines.push_back(lines[i].first);
    }
    t.Check(path, linkLines);
    return t;
}

void
TopologyFile::Check(const std::string& path, const std::vector<uint32_t>& linkLines) const
{
    const uint32_t n = m_hosts + m_switchKinds.size();
    std::vector<std::vector<uint32_t>> adj(n);
    std::vector<int64_t> hostLink(m_hosts, -1);
    for (size_t i = 0; i < m_links.size(); ++i)
    {
        const Link& l = m_links[i];
        for (uint32_t end : {l.a, l.b})
        {
            if (end < m_hosts)
            {
                if (hostLink[end] >= 0)
                {
                    throw ScenarioError(At(path, linkLines[i]) + ": host " + std::to_string(end) +
                                        " already has a link (line " +
                                        std::to_string(linkLines[hostLink[end]]) +
                                        "); a host has one port");
                }
                hostLink[end] = i;
            }
        }
        adj[l.a].push_back(l.b);
        adj[l.b].push_back(l.a);
    }
    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        if (hostLink[h] < 0)
        {
            throw ScenarioError(path + ": host " + std::to_string(h) + " has no link");
        }
    }
    // Every host reaches host 0 through switches.
    std::vector<bool> seen(n, false);
    std::queue<uint32_t> frontier;
    frontier.push(0);
    seen[0] = true;
    while (!frontier.empty())
    {
        const uint32_t u = frontier.front();
        frontier.pop();
        if (u < m_hosts && u != 0)
        {
            continue; // hosts do not forward
        }
        for (uint32_t v : adj[u])
        {
            if (!seen[v])
            {
                seen[v] = true;
                frontier.push(v);
            }
        }
    }
    for (uint32_t h = 1; h < m_hosts; ++h)
    {
        if (!seen[h])
        {
            throw ScenarioError(path + ": host " + std::to_string(h) + " cannot reach host 0");
        }
    }
}

uint32_t
TopologyFile::Hosts() const
{
    return m_hosts;
}

const std::vector<int64_t>&
TopologyFile::HostIndexOfFileNode() const
{
    return m_hostIndexOfFileNode;
}

void
TopologyFile::Build(RdmaTopology& topo) const
{
    std::vector<uint32_t> ids;
    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        ids.push_back(topo.AddHost());
    }
    for (const std::string& kind : m_switchKinds)
    {
        ids.push_back(topo.AddSwitch(kind));
    }
    for (const Link& l : m_links)
    {
        topo.AddLink(ids[l.a], ids[l.b], DataRate(l.bitRate), NanoSeconds(l.delayNs));
    }
}

std::vector<uint32_t>
TopologyFile::HostSwitch() const
{
    std::vector<uint32_t> sw(m_hosts);
    for (const Link& l : m_links)
    {
        if (l.a < m_hosts)
        {
            sw[l.a] = l.b;
        }
        if (l.b < m_hosts)
        {
            sw[l.b] = l.a;
        }
    }
    return sw;
}

std::vector<uint32_t>
TopologyFile::RackOf() const
{
    // Racks numbered in order of first appearance over the hosts, as the runner does.
    const std::vector<uint32_t> hostSwitch = HostSwitch();
    std::vector<uint32_t> rackSwitch;
    std::vector<uint32_t> rack;
    for (uint32_t sw : hostSwitch)
    {
        const auto it = std::find(rackSwitch.begin(), rackSwitch.end(), sw);
        rack.push_back(it - rackSwitch.begin());
        if (it == rackSwitch.end())
        {
            rackSwitch.push_back(sw);
        }
    }
    return rack;
}

std::vector<double>
TopologyFile::RackUplinkBitRate() const
{
    const std::vector<uint32_t> hostSwitch = HostSwitch();
    const std::vector<uint32_t> rack = RackOf();
    std::vector<double> up(*std::max_element(rack.begin(), rack.end()) + 1, 0);
    std::vector<bool> done(up.size(), false);
    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        if (done[rack[h]])
        {
            continue;
        }
        done[rack[h]] = true;
        for (const Link& l : m_links)
        {
            if ((l.a == hostSwitch[h] && l.b >= m_hosts) ||
                (l.b == hostSwitch[h] && l.a >= m_hosts))
            {
                up[rack[h]] += double(l.bitRate);
            }
        }
    }
    return up;
}

std::vector<double>
TopologyFile::HostBitRate() const
{
    std::vector<double> rate(m_hosts, 0);
    for (const Link& l : m_links)
    {
        if (l.a < m_hosts)
        {
            rate[l.a] = double(l.bitRate);
        }
        if (l.b < m_hosts)
        {
            rate[l.b] = double(l.bitRate);
        }
    }
    return rate;
}

} // namespace ns3
