/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run a scenario (given as JSON) in-process through the same path as rdma-run.
 */
#ifndef RDMA_SCENARIO_TEST_UTIL_H
#define RDMA_SCENARIO_TEST_UTIL_H

#include "ns3/rdma-module.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace rdmatest
{

/// A fresh folder under the system temp dir, removed at destruction.
class TempDir
{
  public:
    TempDir()
    {
        std::string tmpl = (std::filesystem::temp_directory_path() / "rdma-test-XXXXXX").string();
        m_path = ::mkdtemp(tmpl.data());
    }

    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }

    std::string operator/(const std::string& name) const
    {
        return (std::filesystem::path(m_path) / name).string();
    }

  private:
    std::string m_path;
};

inline void
WriteText(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
}

inline std::string
ReadText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Write \p scenario to DIR/name.json, run it into DIR/name and return the summary.
inline nlohmann::json
RunScenario(const TempDir& dir, const std::string& name, const nlohmann::json& scenario)
{
    const std::string file = dir / (name + ".json");
    WriteText(file, scenario.dump(2));
    ns3::ScenarioRunner runner(ns3::ScenarioRunner::Load(file, {}));
    return runner.Run(dir / name, true);
}

/// Rows of a CSV file as maps column -> text.
inline std::vector<std::map<std::string, std::string>>
ReadCsv(const std::string& path)
{
    std::vector<std::map<std::string, std::string>> rows;
    std::istringstream in(ReadText(path));
    std::string line;
    std::vector<std::string> header;
    auto split = [](const std::string& l) {
        std::vector<std::string> cells;
        std::string cell;
        std::istringstream ls(l);
        while (std::getline(ls, cell, ','))
        {
            cells.push_back(cell);
        }
        if (!l.empty() && l.back() == ',')
        {
            cells.emplace_back();
        }
        return cells;
    };
    if (!std::getline(in, line))
    {
        return rows;
    }
    header = split(line);
    while (std::getline(in, line))
    {
        const std::vector<std::string> cells = split(line);
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size() && i < cells.size(); ++i)
        {
            row[header[i]] = cells[i];
        }
        rows.push_back(row);
    }
    return rows;
}

} // namespace rdmatest

#endif
