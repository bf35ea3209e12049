/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_ACCESS_H
#define RDMA_SCENARIO_ACCESS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
/**
 * \ingroup rdma
 * Reading a validated scenario by dotted key ("switch.ecn.kmin_kb"), and the unit
 * conversions its keys use. The schema has checked types and ranges already.
 */
namespace scenario
{

inline nlohmann::json::json_pointer
Pointer(const std::string& path)
{
    std::string p = "/" + path;
    std::replace(p.begin(), p.end(), '.', '/');
    return nlohmann::json::json_pointer(p);
}

inline const nlohmann::json&
At(const nlohmann::json& s, const std::string& path)
{
    return s.at(Pointer(path));
}

inline void
Set(nlohmann::json& s, const std::string& path, const nlohmann::json& v)
{
    s[Pointer(path)] = v;
}

inline double
Num(const nlohmann::json& s, const std::string& path)
{
    return At(s, path).get<double>();
}

inline int64_t
Int(const nlohmann::json& s, const std::string& path)
{
    return At(s, path).get<int64_t>();
}

inline bool
Bool(const nlohmann::json& s, const std::string& path)
{
    return At(s, path).get<bool>();
}

inline std::string
Str(const nlohmann::json& s, const std::string& path)
{
    return At(s, path).get<std::string>();
}

/// Microseconds (scenario unit) to a Time, rounded to the nanosecond.
inline Time
Us(double us)
{
    return NanoSeconds(static_cast<int64_t>(std::llround(us * 1000)));
}

/// Gb/s (scenario unit) to a DataRate.
inline DataRate
Gbps(double g)
{
    return DataRate(static_cast<uint64_t>(std::llround(g * 1e9)));
}

} // namespace scenario
} // namespace ns3

#endif /* RDMA_SCENARIO_ACCESS_H */
