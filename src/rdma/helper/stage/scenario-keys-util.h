/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_KEYS_UTIL_H
#define RDMA_SCENARIO_KEYS_UTIL_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{
namespace scenario
{

/**
 * \ingroup rdma
 * Throw the ScenarioError of an invalid key: "<file>: key '<key>' has invalid value
 * <value> (<why>)".
 */
[[noreturn]] void FailKey(const std::string& file,
                          const nlohmann::json& s,
                          const std::string& key,
                          const std::string& why);

/**
 * \ingroup rdma
 * Make the file key \p key absolute if it is set and relative (it is relative to the
 * scenario \p file); config.json keeps it absolute.
 */
void ResolvePathKey(nlohmann::json& s, const std::string& key, const std::string& file);

/// \ingroup rdma
/// Fail with "no such file" if the file key \p key is set and names no file.
void CheckFileKey(const nlohmann::json& s, const std::string& file, const std::string& key);

/// \ingroup rdma
/// Hosts of an INT_ARRAY key: each in range and listed once. Throws ScenarioError.
void CheckHostArray(const nlohmann::json& s,
                    const std::string& file,
                    const std::string& key,
                    uint32_t hosts);

/// \ingroup rdma
/// Host indices of an INT_ARRAY key, or all \p hosts hosts if it is empty.
std::vector<uint32_t> HostsOrAll(const nlohmann::json& s, const std::string& key, uint32_t hosts);

} // namespace scenario
} // namespace ns3

#endif /* RDMA_SCENARIO_KEYS_UTIL_H */
