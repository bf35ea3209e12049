/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/scenario-keys-util.h"

#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"

#include <filesystem>
#include <set>

namespace ns3
{
namespace scenario
{

using json = nlohmann::json;
namespace fs = std::filesystem;

void
FailKey(const std::string& file, const json& s, const std::string& key, const std::string& why)
{
    throw ScenarioError(file + ": key '" + key + "' has invalid value " + At(s, key).dump() + " (" +
                        why + ")");
}

void
ResolvePathKey(json& s, const std::string& key, const std::string& file)
{
    const std::string path = Str(s, key);
    if (!path.empty() && fs::path(path).is_relative())
    {
        Set(s, key, fs::absolute(fs::path(file).parent_path() / path).lexically_normal().string());
    }
}

void
CheckFileKey(const json& s, const std::string& file, const std::string& key)
{
    const std::string path = Str(s, key);
    if (!path.empty() && !fs::exists(path))
    {
        FailKey(file, s, key, "no such file");
    }
}

void
CheckHostArray(const json& s, const std::string& file, const std::string& key, uint32_t hosts)
{
    std::set<int64_t> seen;
    for (const json& v : At(s, key))
    {
        const int64_t node = v.get<int64_t>();
        const char* problem = node >= hosts               ? " is not a host"
                              : !seen.insert(node).second ? " is listed twice"
                                                          : nullptr;
        if (problem)
        {
            FailKey(file,
                    s,
                    key,
                    "node " + std::to_string(node) + problem +
                        ": each must be a distinct host in 0.." + std::to_string(hosts - 1));
        }
    }
}

std::vector<uint32_t>
HostsOrAll(const json& s, const std::string& key, uint32_t hosts)
{
    std::vector<uint32_t> out;
    for (const json& v : At(s, key))
    {
        out.push_back(v.get<uint32_t>());
    }
    if (out.empty())
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            out.push_back(h);
        }
    }
    return out;
}

} // namespace scenario
} // namespace ns3
