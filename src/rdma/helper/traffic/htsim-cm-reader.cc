/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/htsim-cm-reader.h"

#include "ns3/input-fields.h"
#include "ns3/scenario-error.h"

#include <cmath>
#include <fstream>
#include <set>

namespace ns3
{

using namespace inputfields;

namespace
{

/// The header's counts, each -1 until its line is read.
struct CmHeader
{
    int64_t nodes = -1;
    int64_t connections = -1;
    int64_t triggers = -1;
    int64_t failures = -1;
};

/// Reads one `Name count` header line into \p h; false if \p f is not one.
bool
ReadHeaderLine(const std::vector<std::string>& f, const std::string& where, CmHeader& h)
{
    int64_t* slot = f[0] == "Nodes"         ? &h.nodes
                    : f[0] == "Connections" ? &h.connections
                    : f[0] == "Triggers"    ? &h.triggers
                    : f[0] == "Failures"    ? &h.failures
                                            : nullptr;
    if (slot == nullptr)
    {
        return false;
    }
    if (f.size() != 2)
    {
        throw ScenarioError(where + ": expected '" + f[0] + " <count>'");
    }
    if (*slot >= 0)
    {
        throw ScenarioError(where + ": a second '" + f[0] + "' line");
    }
    *slot = int64_t(Unsigned(f[1], where, f[0].c_str(), 100000000));
    return true;
}

/// One connection line `a->b key value ...` as a flow; \p ids collects the flow ids.
FlowSpec
ReadConnection(const std::vector<std::string>& f,
               const std::string& where,
               uint64_t nodes,
               std::set<uint64_t>& ids)
{
    const std::string& pair = f[0];
    const std::size_t arrow = pair.find("->");
    FlowSpec s;
    s.src = uint32_t(Unsigned(pair.substr(0, arrow), where, "src", nodes - 1));
    s.dst = uint32_t(Unsigned(pair.substr(arrow + 2), where, "dst", nodes - 1));
    if (s.src == s.dst)
    {
        throw ScenarioError(where + ": src and dst are the same host (" + pair + ")");
    }
    bool haveStart = false;
    bool haveSize = false;
    for (std::size_t i = 1; i < f.size(); ++i)
    {
        const std::string& key = f[i];
        if (key == "trigger" || key == "send_done_trigger" || key == "recv_done_trigger" ||
            key == "msg" || key == "prio")
        {
            throw ScenarioError(where + ": connection token '" + key +
                                "' is not supported (this module runs connections with a "
                                "start time and a size, and an optional id)");
        }
        if (key != "start" && key != "size" && key != "id")
        {
            throw ScenarioError(where + ": unknown connection token '" + key + "'");
        }
        if (i + 1 >= f.size())
        {
            throw ScenarioError(where + ": token '" + key + "' has no value");
        }
        const std::string& value = f[++i];
        if (key == "start")
        {
            // A decimal number of microseconds, of which htsim's main_uec keeps the
            // whole microseconds (timeFromUs((uint32_t)start)): so does this reader.
            const double us = Number(value, where, "start", 0, 4e9);
            s.start = MicroSeconds(static_cast<int64_t>(std::floor(us)));
            haveStart = true;
        }
        else if (key == "size")
        {
            s.bytes = Unsigned(value, where, "size", uint64_t(1) << 40);
            if (s.bytes == 0)
            {
                throw ScenarioError(where + ": token 'size' has invalid value '0' (must be > 0)");
            }
            haveSize = true;
        }
        else
        {
            const uint64_t id = Unsigned(value, where, "id", UINT32_MAX);
            if (id == 0 || !ids.insert(id).second)
            {
                throw ScenarioError(where + ": token 'id' has invalid value '" + value +
                                    (id == 0 ? "' (ids start at 1)" : "' (used before)"));
            }
        }
    }
    if (!haveStart || !haveSize)
    {
        throw ScenarioError(where + ": connection " + pair + " lacks '" +
                            (haveStart ? "size" : "start") + "'");
    }
    s.kind = FlowKind::FLOW;
    return s;
}

} // namespace

std::vector<FlowSpec>
HtsimCmReader::Read(const std::string& path, uint32_t hosts)
{
    std::ifstream in = OpenInputFile(path, "htsim connection matrix");
    CmHeader h;
    std::vector<FlowSpec> flows;
    std::set<uint64_t> ids;
    std::string line;
    uint32_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        const std::string where = path + ":" + std::to_string(lineNo);
        const std::vector<std::string> f = Split(line, " \t\r", true);
        if ((f.size() == 1 && f[0].empty()) || f[0][0] == '#')
        {
            continue;
        }
        if (f[0].find("->") != std::string::npos)
        {
            if (h.nodes < 0 || h.connections < 0)
            {
                throw ScenarioError(where + ": a connection before the 'Nodes' and "
                                            "'Connections' lines");
            }
            flows.push_back(ReadConnection(f, where, uint64_t(h.nodes), ids));
            continue;
        }
        if (f[0] == "trigger" || f[0] == "failure")
        {
            throw ScenarioError(where + ": '" + f[0] + "' lines are not supported");
        }
        if (!flows.empty() || !ReadHeaderLine(f, where, h))
        {
            throw ScenarioError(where +
                                ": expected a connection 'a->b start <us> size "
                                "<bytes>', got '" +
                                line + "'");
        }
        if (h.nodes == 0 || uint64_t(h.nodes) > hosts)
        {
            if (f[0] == "Nodes")
            {
                throw ScenarioError(where + ": 'Nodes' has invalid value '" + f[1] +
                                    "' (the topology has " + std::to_string(hosts) + " hosts)");
            }
        }
    }
    if (h.nodes < 0 || h.connections < 0)
    {
        throw ScenarioError(path + ": no '" + std::string(h.nodes < 0 ? "Nodes" : "Connections") +
                            "' line");
    }
    if (uint64_t(h.connections) != flows.size())
    {
        throw ScenarioError(path + ": 'Connections' announces " + std::to_string(h.connections) +
                            ", the file has " + std::to_string(flows.size()));
    }
    if (h.triggers > 0 || h.failures > 0)
    {
        throw ScenarioError(path + ": '" + std::string(h.triggers > 0 ? "Triggers" : "Failures") +
                            "' announces " +
                            std::to_string(h.triggers > 0 ? h.triggers : h.failures) +
                            "; triggers and failures are not supported");
    }
    return flows;
}

} // namespace ns3
