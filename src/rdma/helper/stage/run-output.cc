/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/run-output.h"

#include "ns3/output-file.h"
#include "ns3/run-cleanup.h"
#include "ns3/scenario-error.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <sys/statvfs.h>
#include <unistd.h>

namespace ns3
{

namespace fs = std::filesystem;

namespace
{
/// Why writing into \p folder failed: "no space left on device" when its file system is
/// full (ENOSPC, or no free block left), else the system's message for \p err.
std::string
WriteError(const std::string& folder, int err)
{
    struct statvfs st;
    if (err == ENOSPC || (::statvfs(folder.c_str(), &st) == 0 && st.f_bavail == 0))
    {
        return "no space left on device";
    }
    return err != 0 ? std::strerror(err) : "write error";
}
} // namespace

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
    RunCleanup::RemoveStale(dir);
    std::error_code ec;
    fs::remove_all(m_staging, ec);
    if (!fs::create_directories(m_staging, ec))
    {
        throw ScenarioError("--out: cannot create '" + m_staging + "': " +
                            (ec.value() == ENOSPC ? "no space left on device" : ec.message()));
    }
    RunCleanup::SetStaging(m_staging);
}

RunOutput::~RunOutput()
{
    if (!m_committed)
    {
        m_streams.clear();
        std::error_code ec;
        fs::remove_all(m_staging, ec);
        RunCleanup::SetStaging("");
    }
}

std::ofstream&
RunOutput::Stream(const std::string& name)
{
    auto it = m_streams.find(name);
    if (it == m_streams.end())
    {
        auto s = std::make_unique<std::ofstream>();
        errno = 0;
        s->open(m_staging + "/" + name);
        if (!*s)
        {
            throw ScenarioError("--out: cannot write '" + m_staging + "/" + name +
                                "': " + WriteError(m_staging, errno));
        }
        it = m_streams.emplace(name, std::move(s)).first;
    }
    return *it->second;
}

std::string
RunOutput::Path(const std::string& name)
{
    const fs::path p = fs::path(m_staging) / name;
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    return p.string();
}

void
RunOutput::WriteFile(const std::string& name, const std::string& content)
{
    errno = 0;
    std::ofstream f(m_staging + "/" + name);
    f << content;
    f.close();
    if (!f)
    {
        throw ScenarioError("--out: cannot write '" + m_staging + "/" + name +
                            "': " + WriteError(m_staging, errno));
    }
}

void
RunOutput::Close(const std::string& name, std::ofstream& s) const
{
    errno = 0;
    const bool failedBefore = s.fail();
    s.close();
    if (s.fail() || failedBefore)
    {
        throw ScenarioError("--out: writing '" + m_staging + "/" + name +
                            "' failed: " + WriteError(m_staging, errno));
    }
}

std::vector<std::string>
RunOutput::Files() const
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(m_staging, ec))
    {
        if (entry.is_regular_file(ec))
        {
            names.push_back(entry.path().filename().string());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

bool
RunOutput::Take(const std::string& name, std::string* content)
{
    auto it = m_streams.find(name);
    if (it != m_streams.end())
    {
        Close(name, *it->second);
        m_streams.erase(it);
    }
    const std::string path = m_staging + "/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    *content = text.str();
    in.close();
    std::error_code ec;
    fs::remove(path, ec);
    return true;
}

void
RunOutput::Commit()
{
    const std::vector<std::string> undeclared = OutputFiles::Undeclared(Files());
    if (!undeclared.empty())
    {
        throw std::logic_error("the run wrote " + undeclared.front() +
                               ", which no OutputFile declares: declare it beside its "
                               "writer (OutputFileRegistration, output-file.h)");
    }
    for (auto& [name, s] : m_streams)
    {
        Close(name, *s);
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
    RunCleanup::SetStaging("");
}

const std::string&
RunOutput::GetDir() const
{
    return m_dir;
}

} // namespace ns3
