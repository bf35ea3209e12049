/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What the RTT-probe system tests read from a run of the shipped 7 x 1,000 incast and its
 * variants: the scenario shortened, latencies, fairness, port rates, and the checks every
 * such run shares (no loss, a bounded queue, every byte delivered).
 */
#ifndef RDMA_TEST_RTT_PROBE_INCAST_UTIL_H
#define RDMA_TEST_RTT_PROBE_INCAST_UTIL_H

#include "cli-util.h"

#include "ns3/rdma-wire.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <vector>

namespace rdmatest
{
namespace incast
{

using nlohmann::json;

inline const std::string kScenarios = std::string(RDMA_SOURCE_DIR) + "/scenarios/";

/// A shipped scenario, shortened to \p ms of streaming, and 2 ms more for the packets
/// in flight to arrive (so that sent = delivered can be checked). Its flow list (the
/// small-flow stream), if any, is cut to the flows that start before the streams end,
/// written into \p dir.
inline json
Shipped(const TempDir& dir, const std::string& name, double ms = 10)
{
    json s = json::parse(ReadText(kScenarios + name));
    s["stop_time_ms"] = ms + 2;
    s["traffic"]["incast"]["until_ms"] = ms;
    s["output"]["progress"] = false;
    s["output"]["port_sample_us"] = 10;
    if (s["traffic"].contains("flows_csv"))
    {
        std::istringstream all(ReadText(kScenarios + s["traffic"]["flows_csv"].get<std::string>()));
        std::string line;
        std::getline(all, line);
        std::string kept = line + "\n"; // the header
        while (std::getline(all, line))
        {
            // src,dst,bytes,start_ns: the flows that start before the streams end
            if (!line.empty() && std::stod(line.substr(line.rfind(',') + 1)) < ms * 1e6)
            {
                kept += line + "\n";
            }
        }
        WriteText(dir / "flows.csv", kept);
        s["traffic"]["flows_csv"] = dir / "flows.csv";
    }
    return s;
}

inline double
Num(const std::string& cell)
{
    return std::stod(cell);
}

/// p-quantile (nearest rank) of \p v.
inline double
Quantile(std::vector<double> v, double p)
{
    if (v.empty())
    {
        return NAN;
    }
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(std::ceil(p * v.size())) - (p > 0 ? 1 : 0))];
}

/// Latencies (us) of the messages of kind \p kind (fct.csv) posted at or after \p fromNs,
/// of at most \p maxBytes.
inline std::vector<double>
LatenciesUs(const std::string& out, double fromNs, const std::string& kind, double maxBytes)
{
    std::vector<double> v;
    for (const auto& r : ReadCsv(out + "/fct.csv"))
    {
        if (r.at("kind") == kind && Num(r.at("start_ns")) >= fromNs &&
            Num(r.at("size_bytes")) <= maxBytes)
        {
            v.push_back(Num(r.at("fct_ns")) / 1e3);
        }
    }
    return v;
}

/// Latencies (us) of the probe messages posted at or after \p fromNs.
inline std::vector<double>
ProbeLatenciesUs(const std::string& out, double fromNs)
{
    return LatenciesUs(out, fromNs, "probe", INFINITY);
}

/// Jain's index over the bytes each sampled QP had acknowledged between \p fromNs and
/// the end (cc.csv).
inline double
JainAfter(const std::string& out, double fromNs)
{
    std::map<std::pair<std::string, std::string>, std::pair<double, double>> span;
    for (const auto& r : ReadCsv(out + "/cc.csv"))
    {
        if (Num(r.at("time_ns")) < fromNs)
        {
            continue;
        }
        const double b = Num(r.at("acked_bytes"));
        auto key = std::make_pair(r.at("node"), r.at("qp"));
        auto it = span.find(key);
        if (it == span.end())
        {
            span[key] = {b, b};
        }
        else
        {
            it->second.second = b;
        }
    }
    double sum = 0;
    double sq = 0;
    for (const auto& [k, v] : span)
    {
        const double x = v.second - v.first;
        sum += x;
        sq += x * x;
    }
    return span.empty() || sq == 0 ? 0 : sum * sum / (span.size() * sq);
}

/// Rate (Gb/s) leaving \p node's \p port over [t0, t1) ns (ports.csv, wire bytes).
inline double
PortGbps(const std::string& out, int node, int port, double t0, double t1)
{
    double first = NAN;
    double last = NAN;
    double firstT = 0;
    double lastT = 0;
    for (const auto& r : ReadCsv(out + "/ports.csv"))
    {
        if (std::stoi(r.at("node")) != node || std::stoi(r.at("port")) != port)
        {
            continue;
        }
        const double t = Num(r.at("time_ns"));
        if (t >= t0 && std::isnan(first))
        {
            first = Num(r.at("tx_bytes"));
            firstT = t;
        }
        if (t <= t1)
        {
            last = Num(r.at("tx_bytes"));
            lastT = t;
        }
    }
    return lastT > firstT ? (last - first) * 8 / (lastT - firstT) : 0;
}

/// Queue bound: 1.5 MB at 100G, scaled with the rate.
constexpr double kQueueBound = 1.5e6;

inline void
ExpectNoLossAndBoundedQueue(const json& s, double queueBound = kQueueBound)
{
    EXPECT_EQ(s["drops"], 0u);
    EXPECT_EQ(s["pfc_pause_frames"], 0u); // PFC is off
    EXPECT_EQ(s["timeouts"], 0u);
    EXPECT_EQ(s["nacks"], 0u);
    EXPECT_TRUE(s["all_flows_completed"].get<bool>());
    EXPECT_LE(s["max_queue_bytes"].get<double>(), queueBound);
}

/// Streams that end before the run does: every byte sent has arrived.
inline void
ExpectEveryByteDelivered(const json& s)
{
    EXPECT_EQ(s["bytes_sent"], s["bytes_delivered"]) << "nothing resent, nothing lost";
}

/// Payload (Gb/s) through \p node's \p port over [t0, t1) ns, of data packets of \p mtu
/// payload bytes (ports.csv counts wire bytes).
inline double
PayloadGbps(const std::string& out, int node, int port, double t0, double t1, uint32_t mtu = 1024)
{
    return PortGbps(out, node, port, t0, t1) * mtu /
           ns3::rdmawire::WireBytes(ns3::RdmaPacketType::DATA, mtu);
}

inline double
Mean(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v)
    {
        sum += x;
    }
    return v.empty() ? NAN : sum / v.size();
}

} // namespace incast
} // namespace rdmatest

#endif
