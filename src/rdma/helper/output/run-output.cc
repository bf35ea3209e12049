/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/run-output.h"

#include "ns3/scenario-error.h"

#include <filesystem>
#include <unistd.h>

namespace ns3
{

namespace fs = std::filesystem;

void
RunOutput::CheckTarget(const std::string& dir)
{
    if (dir.empty())
    {
        throw ScenarioError("--out: an output folder is required");
    }
    std::error_code ec;
    const fs::path p(dir);
    if (fs::exists(p, ec))
    {
        if (!fs::is_directory(p, ec))
        {
            throw ScenarioError("--out: '" + dir + "' exists and is not a folder");
        }
        if (!fs::is_empty(p, ec) && !fs::exists(p / "summary.json", ec))
        {
            throw ScenarioError("--out: '" + dir +
                                "' exists and is not a previous run's folder (no summary.json); "
                                "refusing to replace it");
        }
    }
}

RunOutput::RunOutput(const std::string& dir)
    : m_dir(dir),
      m_committed(false)
{
    CheckTarget(dir);
    m_staging = fs::absolute(fs::path(dir)).lexically_normal().string();
    while (!m_staging.empty() && m_staging.back() == '/')
    {
        m_staging.pop_back();
    }
    m_staging += ".partial-" + std::to_string(::getpid());
    std::error_code ec;
    fs::remove_all(m_staging, ec);
    if (!fs::create_directories(m_staging, ec))
    {
        throw ScenarioError("--out: cannot create '" + m_staging + "': " + ec.message());
    }
}

RunOutput::~RunOutput()
{
    if (!m_committed)
    {
        m_streams.clear();
        std::error_code ec;
        fs::remove_all(m_staging, ec);
    }
}

std::ofstream&
RunOutput::Stream(const std::string& name)
{
    auto it = m_streams.find(name);
    if (it == m_streams.end())
    {
        auto s = std::make_unique<std::ofstream>();
        s->open(m_staging + "/" + name);
        if (!*s)
        {
            throw ScenarioError("--out: cannot write '" + m_staging + "/" + name + "'");
        }
        it = m_streams.emplace(name, std::move(s)).first;
    }
    return *it->second;
}

void
RunOutput::WriteFile(const std::string& name, const std::string& content)
{
    std::ofstream f(m_staging + "/" + name);
    f << content;
    if (!f)
    {
        throw ScenarioError("--out: cannot write '" + m_staging + "/" + name + "'");
    }
}

void
RunOutput::Commit()
{
    for (auto& [name, s] : m_streams)
    {
        s->close();
        if (s->fail())
        {
            throw ScenarioError("--out: writing '" + name + "' failed");
        }
    }
    m_streams.clear();
    std::error_code ec;
    if (fs::exists(m_dir, ec))
    {
        fs::remove_all(m_dir, ec);
    }
    fs::rename(m_staging, m_dir, ec);
    if (ec)
    {
        throw ScenarioError("--out: cannot move results to '" + m_dir + "': " + ec.message());
    }
    m_committed = true;
}

const std::string&
RunOutput::GetDir() const
{
    return m_dir;
}

} // namespace ns3
