/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/hpcc-flow-reader.h"

#include "ns3/input-fields.h"
#include "ns3/scenario-error.h"

#include <cmath>
#include <fstream>

namespace ns3
{

using namespace inputfields;

std::vector<FlowSpec>
HpccFlowReader::Read(const std::string& path,
                     uint32_t hosts,
                     const std::vector<int64_t>& hostOfNode)
{
    std::ifstream in = inputfields::OpenInputFile(path, "HPCC flow file");
    const uint64_t nodes = hostOfNode.empty() ? hosts : hostOfNode.size();
    auto host = [&](const std::string& text, const std::string& where, const char* column) {
        const uint64_t node = Unsigned(text, where, column, nodes - 1);
        const int64_t h = hostOfNode.empty() ? int64_t(node) : hostOfNode[node];
        if (h < 0)
        {
            throw ScenarioError(where + ": column '" + column + "' has invalid value '" + text +
                                "' (node " + text + " is a switch)");
        }
        return uint32_t(h);
    };
    std::vector<FlowSpec> flows;
    std::string line;
    uint32_t lineNo = 0;
    uint64_t expected = 0;
    bool haveCount = false;
    while ((!haveCount || flows.size() < expected) && std::getline(in, line))
    {
        ++lineNo;
        const std::string where = path + ":" + std::to_string(lineNo);
        const std::vector<std::string> f = Split(line, " \t\r", true);
        if (f.size() == 1 && f[0].empty())
        {
            continue;
        }
        if (!haveCount)
        {
            if (f.size() != 1)
            {
                throw ScenarioError(where + ": expected the number of flows, got '" + line + "'");
            }
            expected = Unsigned(f[0], where, "flows", 100000000);
            haveCount = true;
            continue;
        }
        if (f.size() != 6)
        {
            throw ScenarioError(where +
                                ": expected 'src dst priority dport bytes start_s' (e.g. '2 1 3 "
                                "100 200000000 2'), got '" +
                                line + "'");
        }
        FlowSpec s;
        s.src = host(f[0], where, "src");
        s.dst = host(f[1], where, "dst");
        if (s.src == s.dst)
        {
            throw ScenarioError(where + ": src and dst are the same host");
        }
        s.priority = Unsigned(f[2], where, "priority", 7);
        Unsigned(f[3], where, "dport", 65535);
        s.bytes = Unsigned(f[4], where, "bytes", uint64_t(1) << 40);
        if (s.bytes == 0)
        {
            throw ScenarioError(where + ": column 'bytes' has invalid value '0' (must be > 0)");
        }
        const double start = Number(f[5], where, "start_s", 0, 1e6);
        s.start = NanoSeconds(static_cast<int64_t>(std::llround(start * 1e9)));
        s.kind = FlowKind::FLOW;
        flows.push_back(s);
    }
    if (!haveCount)
    {
        throw ScenarioError(path + ": empty HPCC flow file");
    }
    if (flows.size() < expected)
    {
        throw ScenarioError(path + ":" + std::to_string(lineNo + 1) +
                            ": the first line announces " + std::to_string(expected) +
                            " flows, the file ends after " + std::to_string(flows.size()));
    }
    return flows;
}

} // namespace ns3
