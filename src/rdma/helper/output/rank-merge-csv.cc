/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RankMerge, the CSV side: a declared file's rows of every rank merged by its sort key
 * (OutputFile), and the check that no rank wrote a CSV file without a declaration. The
 * summaries' merge is in rank-merge.cc.
 */
#include "ns3/abort.h"
#include "ns3/rank-merge.h"
#include "ns3/rdma-ranks.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace ns3
{

namespace
{
/// Column \p col of CSV line \p line as an integer (0 if absent or not a number).
int64_t
Column(std::string_view line, int col)
{
    std::size_t at = 0;
    for (int c = 0; c < col; ++c)
    {
        at = line.find(',', at);
        if (at == std::string_view::npos)
        {
            return 0;
        }
        ++at;
    }
    return std::strtoll(std::string(line.substr(at, line.find(',', at) - at)).c_str(), nullptr, 10);
}

/// A row's keys by a rule (at most four; unused ones 0).
using RowKey = std::array<int64_t, 4>;

/// A declaration's sort key and time column as column numbers of its header.
struct Rule
{
    std::string file;      ///< file name in the output folder
    std::vector<int> keys; ///< columns to order rows by, in turn (-1: the sampled QP order)
    int timeColumn;        ///< column of the time in ns (-1: none); rows past the end dropped
    int nodeColumn;        ///< for the sampled QP order: the columns node and qp
    int qpColumn;
};

/// \p file's rule: its names made column numbers (the header is the declaration's).
Rule
Resolve(const OutputFile& file)
{
    Rule r{file.name, {}, -1, -1, -1};
    for (const std::string& key : file.sortKey)
    {
        if (key == OutputFile::kSampledQpOrder)
        {
            r.keys.push_back(-1);
            r.nodeColumn = file.Column("node");
            r.qpColumn = file.Column("qp");
            continue;
        }
        r.keys.push_back(file.Column(key));
    }
    if (!file.timeColumn.empty())
    {
        r.timeColumn = file.Column(file.timeColumn);
    }
    return r;
}

/// One rank's rows of a CSV text, read one at a time.
class RowReader
{
  public:
    /// \p ordered: the rows end with an event_order column (RunRecorder), the last key.
    RowReader(std::string_view text, std::size_t headerSize, bool ordered)
        : m_rest(text.substr(headerSize)),
          m_ordered(ordered)
    {
    }

    /// The next row within the end, and its key; false when there is none.
    bool Next(const Rule& rule,
              int64_t endNs,
              const std::map<std::pair<int64_t, int64_t>, int64_t>& position)
    {
        while (!m_rest.empty())
        {
            const std::size_t eol = m_rest.find('\n');
            line = m_rest.substr(0, eol == std::string_view::npos ? m_rest.size() : eol + 1);
            m_rest.remove_prefix(line.size());
            if (rule.timeColumn >= 0 && Column(line, rule.timeColumn) > endNs)
            {
                continue;
            }
            key = {};
            for (std::size_t i = 0; i < rule.keys.size(); ++i)
            {
                const int k = rule.keys[i];
                if (k >= 0)
                {
                    key[i] = Column(line, k);
                    continue;
                }
                const auto at =
                    position.find({Column(line, rule.nodeColumn), Column(line, rule.qpColumn)});
                if (at == position.end())
                {
                    throw std::runtime_error(rule.file + ": a QP no rank samples");
                }
                key[i] = at->second;
            }
            if (m_ordered)
            {
                const std::size_t comma = line.rfind(',');
                key[rule.keys.size()] =
                    std::strtoll(std::string(line.substr(comma + 1)).c_str(), nullptr, 10);
            }
            return true;
        }
        return false;
    }

    /// Write the row to \p out as the merged file has it (without event_order).
    void Write(std::ostream& out) const
    {
        if (m_ordered)
        {
            out << line.substr(0, line.rfind(',')) << '\n';
            return;
        }
        out << line;
    }

    std::string_view line;
    RowKey key{};

  private:
    std::string_view m_rest;
    bool m_ordered;
};

/// The column a rank adds to order the rows of one instant by (RunRecorder).
constexpr std::string_view kEventOrder = ",event_order\n";
} // namespace

void
RankMerge::MergeCsvTo(std::ostream& out,
                      const std::vector<std::string>& texts,
                      const OutputFile& file,
                      int64_t endNs,
                      const QpOrder& qpOrder)
{
    const Rule rule = Resolve(file);
    NS_ABORT_MSG_IF(rule.keys.size() > std::tuple_size<RowKey>::value,
                    "RankMerge: more keys than a row key holds");
    std::map<std::pair<int64_t, int64_t>, int64_t> position;
    for (std::size_t i = 0; i < qpOrder.size(); ++i)
    {
        position.emplace(qpOrder[i], i);
    }
    std::string_view header;
    bool ordered = false;
    std::vector<RowReader> readers;
    bool sorted = true; // every rank's rows already in key order (as each rank writes them)
    for (const std::string& text : texts)
    {
        const std::string_view all(text);
        const std::size_t eol = all.find('\n');
        const std::string_view head =
            all.substr(0, eol == std::string_view::npos ? all.size() : eol + 1);
        if (&text == &texts.front())
        {
            header = head;
            ordered = head.size() >= kEventOrder.size() &&
                      head.substr(head.size() - kEventOrder.size()) == kEventOrder;
            NS_ABORT_MSG_IF(ordered && rule.keys.size() >= std::tuple_size<RowKey>::value,
                            "RankMerge: no key left for the event order");
            const std::string_view columns =
                ordered ? head.substr(0, head.size() - kEventOrder.size()) : head;
            if (std::string(columns.substr(0, columns.find_last_not_of("\r\n") + 1)) !=
                file.Header())
            {
                throw std::runtime_error(file.name + ": the header '" +
                                         std::string(columns.substr(0, columns.find('\n'))) +
                                         "' is not its declaration's '" + file.Header() + "'");
            }
        }
        else if (head != header)
        {
            throw std::runtime_error(rule.file + ": the ranks wrote different headers");
        }
        RowReader check(all, head.size(), ordered);
        RowKey last{};
        for (bool first = true; sorted && check.Next(rule, endNs, position); first = false)
        {
            sorted = first || !(check.key < last);
            last = check.key;
        }
        readers.emplace_back(all, head.size(), ordered);
    }
    if (ordered)
    {
        out << header.substr(0, header.size() - kEventOrder.size()) << '\n';
    }
    else
    {
        out << header;
    }
    if (!sorted)
    {
        // Not expected: every row at once, in a stable order by key (ties: rank order).
        std::vector<std::pair<RowKey, RowReader>> rows;
        for (RowReader& r : readers)
        {
            while (r.Next(rule, endNs, position))
            {
                rows.emplace_back(r.key, r);
            }
        }
        std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return a.first < b.first;
        });
        for (const auto& row : rows)
        {
            row.second.Write(out);
        }
        return;
    }
    // Each rank's rows in order: take the least next row (ties: the lowest rank), which
    // is the stable order by key, holding no row beyond the ranks' texts.
    std::vector<bool> more;
    for (RowReader& r : readers)
    {
        more.push_back(r.Next(rule, endNs, position));
    }
    while (true)
    {
        std::size_t least = readers.size();
        for (std::size_t k = 0; k < readers.size(); ++k)
        {
            if (more[k] && (least == readers.size() || readers[k].key < readers[least].key))
            {
                least = k;
            }
        }
        if (least == readers.size())
        {
            return;
        }
        readers[least].Write(out);
        more[least] = readers[least].Next(rule, endNs, position);
    }
}

std::string
RankMerge::MergeCsv(const std::vector<std::string>& texts,
                    const OutputFile& file,
                    int64_t endNs,
                    const QpOrder& qpOrder)
{
    std::ostringstream out;
    MergeCsvTo(out, texts, file, endNs, qpOrder);
    return out.str();
}

void
RankMerge::CheckDeclared(const RunOutput& out)
{
    std::string undeclared;
    for (const std::string& name : OutputFiles::Undeclared(out.Files()))
    {
        undeclared += (undeclared.empty() ? "" : ", ") + name;
    }
    // Every rank learns whether any rank wrote one (no rank may stop alone: the others
    // would wait for it in the next collective).
    std::vector<int64_t> any = {undeclared.empty() ? 0 : 1};
    RdmaRanks::AllReduce(any, RdmaRanks::Reduce::MAX);
    const std::vector<std::string> names = RdmaRanks::Gather(undeclared);
    if (any[0] == 0)
    {
        return;
    }
    std::string all;
    for (std::size_t k = 0; k < names.size(); ++k)
    {
        if (!names[k].empty())
        {
            all += (all.empty() ? "" : "; ") + std::string("rank ") + std::to_string(k) + ": " +
                   names[k];
        }
    }
    throw std::runtime_error("a run over ranks wrote CSV files no OutputFile declares, whose "
                             "rows it cannot merge (" +
                             (all.empty() ? std::string("on another rank") : all) +
                             "): declare each beside its writer (output-file.h)");
}

} // namespace ns3
