/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/size-guard.h"

#include "ns3/input-fields.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/statvfs.h>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

namespace
{
std::string
Gb(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.2f GB", bytes / 1e9);
    return buf;
}

double
Total(const std::vector<SizeGuard::Part>& parts)
{
    double b = 0;
    for (const SizeGuard::Part& p : parts)
    {
        b += p.bytes;
    }
    return b;
}

/// "'key' (now VALUE)": the key to change, and the value it has.
std::string
KeyAndValue(const json& s, const std::string& key)
{
    const json& v = At(s, key);
    std::string text = v.dump();
    if (text.size() > 60)
    {
        text = text.substr(0, 57) + "...";
    }
    return "'" + key + "' (now " + text + ")";
}

/// The free space of the file system \p outDir will be on (0 if unknown).
double
FreeDiskBytes(const std::string& outDir)
{
    struct statvfs st;
    std::error_code ec;
    const std::filesystem::path parent =
        std::filesystem::absolute(outDir, ec).lexically_normal().parent_path();
    if (::statvfs(parent.c_str(), &st) != 0)
    {
        return 0;
    }
    return double(st.f_bavail) * double(st.f_frsize);
}

void
CheckMemory(const json& s, const std::string& file, const SizeGuard::Estimate& e, double limit)
{
    const bool given = limit > 0;
    const double memLimit = given ? limit : SizeGuard::AvailableMemory();
    const double mem = e.MemoryBytes();
    if (memLimit <= 0 || mem <= memLimit)
    {
        return;
    }
    const SizeGuard::Part& big = SizeGuard::Estimate::Largest(e.memory);
    std::ostringstream os;
    os << file << ": the scenario needs about " << Gb(mem) << " of memory ("
       << std::llround(e.hosts) << " hosts, " << std::llround(e.switches) << " switches, "
       << std::llround(e.links) << " links, " << std::llround(e.qps) << " QPs, "
       << std::llround(e.flows) << " flows; most for " << big.what << "), above the "
       << (given ? "--max-memory-gb limit of " : "available memory of ") << Gb(memLimit)
       << "; reduce " << KeyAndValue(s, big.key)
       << (given ? " or raise --max-memory-gb" : " (or set a limit with --max-memory-gb)");
    throw ScenarioError(os.str());
}

void
CheckOutput(const json& s,
            const std::string& file,
            const SizeGuard::Estimate& e,
            double limit,
            const std::string& outDir)
{
    const bool disk = limit <= 0;
    const double outLimit = disk ? FreeDiskBytes(outDir) : limit;
    const double out = e.OutputBytes();
    if (outLimit <= 0 || out <= outLimit)
    {
        return;
    }
    const SizeGuard::Part& big = SizeGuard::Estimate::Largest(e.outputs);
    std::ostringstream os;
    os << file << ": the run would write up to " << Gb(out) << " (" << big.what << " "
       << Gb(big.bytes) << "), above "
       << (disk ? "the free disk space of " : "the --max-output-gb limit of ") << Gb(outLimit)
       << "; change " << KeyAndValue(s, big.key) << " or lower 'stop_time_ms'"
       << (disk ? "" : ", or raise --max-output-gb");
    throw ScenarioError(os.str());
}
} // namespace

double
SizeGuard::DataLines(const std::string& path)
{
    if (path.empty())
    {
        return 0;
    }
    std::ifstream in;
    try
    {
        in = inputfields::OpenInputFile(path, "input file");
    }
    catch (const ScenarioError&)
    {
        return 0;
    }
    std::string line;
    double n = 0;
    while (std::getline(in, line))
    {
        const auto first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos && line[first] != '#')
        {
            ++n;
        }
    }
    return n;
}

double
SizeGuard::Estimate::MemoryBytes() const
{
    return Total(memory);
}

double
SizeGuard::Estimate::OutputBytes() const
{
    return Total(outputs);
}

double
SizeGuard::Estimate::Ports() const
{
    return 2 * links;
}

void
SizeGuard::Estimate::AddFabric(double h, double sw, double l, const std::string& key)
{
    hosts = h;
    switches = sw;
    links = l;
    fabricKey = key;
    memory.push_back(
        {"fabric",
         Cost::kBase + h * Cost::kPerHost + sw * Cost::kPerSwitch + Ports() * Cost::kPerPort,
         key});
    memory.push_back({"routes", sw * h * Cost::kPerRoute, key});
}

void
SizeGuard::Estimate::AddFlows(double n, double q, const std::string& key, double rows)
{
    flows += n;
    qps += q;
    traceRows += rows;
    // The key to name is that of the source holding at least half of the QPs so far
    // (the sources are asked in the order they add their flows).
    if (q > 0 && q >= qps / 2)
    {
        qpKey = key;
    }
}

const SizeGuard::Part&
SizeGuard::Estimate::Largest(const std::vector<Part>& parts)
{
    return *std::max_element(parts.begin(), parts.end(), [](const Part& a, const Part& b) {
        return a.bytes < b.bytes;
    });
}

double
SizeGuard::AvailableMemory()
{
    std::ifstream in("/proc/meminfo");
    std::string key;
    double kb = 0;
    std::string unit;
    while (in >> key >> kb >> unit)
    {
        if (key == "MemAvailable:")
        {
            return kb * 1024;
        }
    }
    return 0;
}

void
SizeGuard::Check(const json& s, const std::string& file, const Estimate& e, const Limits& limits)
{
    CheckMemory(s, file, e, limits.maxMemoryBytes);
    CheckOutput(s, file, e, limits.maxOutputBytes, limits.outDir);
}

} // namespace ns3
