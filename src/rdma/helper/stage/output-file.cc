/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/output-file.h"

#include "ns3/abort.h"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Built on first use (registrations run from any file's static initialisation); a deque,
/// so that the declarations never move once registered.
std::deque<OutputFile>&
Declared()
{
    static std::deque<OutputFile> files;
    return files;
}
} // namespace

std::string
OutputFile::Header() const
{
    std::string h;
    for (const std::string& c : columns)
    {
        h += (h.empty() ? "" : ",") + c;
    }
    return h;
}

int
OutputFile::Column(const std::string& column) const
{
    const auto at = std::find(columns.begin(), columns.end(), column);
    if (at == columns.end())
    {
        throw std::runtime_error(name + ": no column '" + column + "'");
    }
    return static_cast<int>(at - columns.begin());
}

void
OutputFiles::Add(OutputFile file)
{
    NS_ABORT_MSG_IF(Find(file.name), "OutputFiles: '" << file.name << "' is declared twice");
    for (const std::string& key : file.sortKey)
    {
        NS_ABORT_MSG_IF(
            key != OutputFile::kSampledQpOrder &&
                std::find(file.columns.begin(), file.columns.end(), key) == file.columns.end(),
            "OutputFiles: '" << file.name << "' sorts by '" << key << "', not one of its columns");
    }
    NS_ABORT_MSG_IF(!file.timeColumn.empty() &&
                        std::find(file.columns.begin(), file.columns.end(), file.timeColumn) ==
                            file.columns.end(),
                    "OutputFiles: '" << file.name << "' has no time column '" << file.timeColumn
                                     << "'");
    Declared().push_back(std::move(file));
}

std::vector<const OutputFile*>
OutputFiles::All()
{
    std::vector<const OutputFile*> all;
    for (const OutputFile& f : Declared())
    {
        all.push_back(&f);
    }
    std::sort(all.begin(), all.end(), [](const OutputFile* a, const OutputFile* b) {
        return a->order != b->order ? a->order < b->order : a->name < b->name;
    });
    return all;
}

const OutputFile*
OutputFiles::Find(const std::string& name)
{
    for (const OutputFile& f : Declared())
    {
        if (f.name == name)
        {
            return &f;
        }
    }
    return nullptr;
}

std::vector<std::string>
OutputFiles::Undeclared(const std::vector<std::string>& names)
{
    std::vector<std::string> undeclared;
    for (const std::string& name : names)
    {
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".csv") == 0 && !Find(name))
        {
            undeclared.push_back(name);
        }
    }
    return undeclared;
}

} // namespace ns3
