/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/incast-group-reader.h"

#include "ns3/input-fields.h"
#include "ns3/scenario-error.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

namespace ns3
{

namespace
{
Time
FromUs(double us)
{
    return NanoSeconds(static_cast<int64_t>(std::llround(us * 1000)));
}

/// The columns of an incast group list: name -> index.
using ColumnIndex = std::map<std::string, size_t>;

/// One data line: its cells by column name, and where it is (for errors).
struct Row
{
    const std::vector<std::string>& cells;
    const ColumnIndex& column;
    const std::string& where;

    /// The cell of column \p name (which the header must have).
    const std::string& operator()(const std::string& name) const
    {
        return cells[column.at(name)];
    }

    /// Whether the header has the optional column \p name.
    bool Has(const std::string& name) const
    {
        return column.count(name) > 0;
    }
};

/// The header line \p cells as a column index; throws on an unknown, repeated or missing
/// column.
ColumnIndex
ReadHeader(const std::vector<std::string>& cells, const std::string& where)
{
    static const std::set<std::string> required{"receiver",
                                                "senders",
                                                "qps_per_sender",
                                                "join_us",
                                                "leave_us"};
    static const std::set<std::string> optional{"message_bytes", "jitter_us", "priority"};
    ColumnIndex column;
    for (size_t i = 0; i < cells.size(); ++i)
    {
        if (!required.count(cells[i]) && !optional.count(cells[i]))
        {
            throw ScenarioError(where + ": unknown column '" + cells[i] +
                                "' (columns: receiver, senders, qps_per_sender, join_us, "
                                "leave_us, and optionally message_bytes, jitter_us, priority)");
        }
        if (!column.emplace(cells[i], i).second)
        {
            throw ScenarioError(where + ": column '" + cells[i] + "' appears twice");
        }
    }
    for (const std::string& r : required)
    {
        if (!column.count(r))
        {
            throw ScenarioError(where + ": missing column '" + r + "'");
        }
    }
    return column;
}

/// The group's receiver, senders and QPs per sender from \p cell.
void
ReadMembers(const Row& cell, uint32_t hosts, IncastGenerator& g)
{
    using namespace inputfields;
    const std::string& where = cell.where;
    g.receiver = Unsigned(cell("receiver"), where, "receiver", hosts - 1);
    g.senders = HostList(cell("senders"), where, "senders", hosts);
    std::set<uint32_t> seen;
    for (uint32_t s : g.senders)
    {
        if (s == g.receiver || !seen.insert(s).second)
        {
            throw ScenarioError(where + ": column 'senders' has invalid value '" + cell("senders") +
                                "' (each sender must be a distinct host other than the receiver)");
        }
    }
    g.qpsPerSender = Unsigned(cell("qps_per_sender"), where, "qps_per_sender", 1000000);
    if (g.qpsPerSender == 0)
    {
        throw ScenarioError(where +
                            ": column 'qps_per_sender' has invalid value '0' (must be > 0)");
    }
}

/// The group's join and leave times (or, with leave_us 0, its message size) and jitter.
void
ReadTimes(const Row& cell, IncastGenerator& g)
{
    using namespace inputfields;
    const std::string& where = cell.where;
    const double join = Number(cell("join_us"), where, "join_us", 0, 1e9);
    const double leave = Number(cell("leave_us"), where, "leave_us", 0, 1e9);
    g.start = FromUs(join);
    if (leave > 0)
    {
        if (leave <= join)
        {
            throw ScenarioError(where + ": column 'leave_us' has invalid value '" +
                                cell("leave_us") + "' (a group must leave after it joins at " +
                                cell("join_us") + " us; 0 = one message per QP)");
        }
        g.until = FromUs(leave);
    }
    else
    {
        if (!cell.Has("message_bytes"))
        {
            throw ScenarioError(where + ": leave_us is 0, so each QP sends one message: "
                                        "the file needs a 'message_bytes' column");
        }
        g.messageBytes = Unsigned(cell("message_bytes"), where, "message_bytes", uint64_t(1) << 40);
        if (g.messageBytes == 0)
        {
            throw ScenarioError(where +
                                ": column 'message_bytes' has invalid value '0' (must be > 0)");
        }
    }
    if (cell.Has("jitter_us"))
    {
        g.jitter = FromUs(Number(cell("jitter_us"), where, "jitter_us", 0, 1e9));
        if (g.until.IsStrictlyPositive() && g.start + g.jitter >= g.until)
        {
            throw ScenarioError(where + ": join_us + jitter_us must be before leave_us");
        }
    }
}
} // namespace

std::vector<IncastGenerator>
IncastGroupReader::Read(const std::string& path, uint32_t hosts, uint8_t defaultPriority)
{
    using namespace inputfields;
    std::ifstream in = inputfields::OpenInputFile(path, "incast group list");
    ColumnIndex column;
    std::vector<IncastGenerator> groups;
    std::string line;
    uint32_t lineNo = 0;
    size_t columns = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        const std::string where = path + ":" + std::to_string(lineNo);
        const std::vector<std::string> cells = Split(line, ",", false);
        if (cells.size() == 1 && (cells[0].empty() || cells[0][0] == '#'))
        {
            continue;
        }
        if (columns == 0)
        {
            column = ReadHeader(cells, where);
            columns = cells.size();
            continue;
        }
        if (cells.size() != columns)
        {
            throw ScenarioError(where + ": expected " + std::to_string(columns) + " columns, got " +
                                std::to_string(cells.size()) + " in '" + line + "'");
        }
        const Row cell{cells, column, where};
        IncastGenerator g;
        ReadMembers(cell, hosts, g);
        ReadTimes(cell, g);
        g.priority = cell.Has("priority") ? Unsigned(cell("priority"), where, "priority", 7)
                                          : defaultPriority;
        groups.push_back(g);
    }
    if (columns == 0)
    {
        throw ScenarioError(path + ": empty incast group list (no header line)");
    }
    return groups;
}

} // namespace ns3
