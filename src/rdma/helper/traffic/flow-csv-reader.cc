/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/flow-csv-reader.h"

#include "ns3/input-fields.h"
#include "ns3/scenario-error.h"

#include <boost/algorithm/string.hpp>
#include <boost/lexical_cast.hpp>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{
uint64_t
ParseUnsigned(const std::string& text,
              const std::string& where,
              const std::string& column,
              uint64_t max)
{
    uint64_t value = 0;
    const std::string t = boost::algorithm::trim_copy(text);
    if (t.empty() || t[0] == '-' || !boost::conversion::try_lexical_convert(t, value) ||
        value > max)
    {
        throw ScenarioError(where + ": column '" + column + "' has invalid value '" + t +
                            "' (expected an integer in [0, " + std::to_string(max) + "])");
    }
    return value;
}
} // namespace

std::vector<FlowSpec>
FlowCsvReader::Read(const std::string& path, uint32_t hosts, uint8_t defaultPriority)
{
    std::ifstream in = inputfields::OpenInputFile(path, "flow list");
    std::vector<FlowSpec> flows;
    std::string line;
    uint32_t lineNo = 0;
    std::vector<std::string> columns;
    while (std::getline(in, line))
    {
        ++lineNo;
        boost::algorithm::trim(line);
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::vector<std::string> cells;
        boost::algorithm::split(cells, line, boost::is_any_of(","));
        const std::string where = path + ":" + std::to_string(lineNo);
        if (columns.empty())
        {
            for (auto& c : cells)
            {
                columns.push_back(boost::algorithm::trim_copy(c));
            }
            const std::vector<std::string> required{"src", "dst", "bytes", "start_ns"};
            if (columns.size() < 4 || columns.size() > 5 ||
                !std::equal(required.begin(), required.end(), columns.begin()) ||
                (columns.size() == 5 && columns[4] != "priority"))
            {
                throw ScenarioError(where +
                                    ": header must be 'src,dst,bytes,start_ns' "
                                    "with an optional ',priority', got '" +
                                    line + "'");
            }
            continue;
        }
        if (cells.size() != columns.size())
        {
            throw ScenarioError(where + ": expected " + std::to_string(columns.size()) +
                                " columns, got " + std::to_string(cells.size()) + " in '" + line +
                                "'");
        }
        FlowSpec f;
        f.src = ParseUnsigned(cells[0], where, "src", hosts - 1);
        f.dst = ParseUnsigned(cells[1], where, "dst", hosts - 1);
        if (f.src == f.dst)
        {
            throw ScenarioError(where + ": src and dst are the same host (" +
                                std::to_string(f.src) + ")");
        }
        f.bytes = ParseUnsigned(cells[2], where, "bytes", uint64_t(1) << 40);
        if (f.bytes == 0)
        {
            throw ScenarioError(where + ": column 'bytes' has invalid value '0' (must be > 0)");
        }
        f.start = NanoSeconds(ParseUnsigned(cells[3], where, "start_ns", uint64_t(1) << 62));
        f.priority =
            columns.size() == 5 ? ParseUnsigned(cells[4], where, "priority", 7) : defaultPriority;
        f.kind = FlowKind::FLOW;
        flows.push_back(f);
    }
    if (columns.empty())
    {
        throw ScenarioError(path + ": empty flow list (no header line)");
    }
    return flows;
}

} // namespace ns3
