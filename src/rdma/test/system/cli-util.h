/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Run the rdma-run binary as a user does and check that bad input is refused cleanly.
 */
#ifndef RDMA_CLI_UTIL_H
#define RDMA_CLI_UTIL_H

#include "scenario-test-util.h"

#include "ns3/rdma-wire.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace rdmatest
{

/// A small scenario for CLI tests: an incast of 2 QPs per sender on a 4-host star, and a
/// probe.
inline const nlohmann::json kSmall = {
    {"topology", {{"type", "star"}, {"hosts", 4}}},
    {"traffic",
     {{"incast",
       {{"enabled", true}, {"qps_per_sender", 2}, {"message_bytes", 200000}, {"jitter_us", 3}}},
      {"probe", {{"enabled", true}, {"src", 1}, {"dst", 0}}}}},
    {"output", {{"progress", false}}},
};

struct CliResult
{
    int code;
    std::string output;
};

inline CliResult
RunRdmaRun(const std::string& args)
{
    const std::string cmd = std::string(RDMA_RUN_BINARY) + " " + args + " 2>&1";
    FILE* pipe = ::popen(cmd.c_str(), "r");
    std::string out;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    {
        out.append(buf.data(), n);
    }
    const int status = ::pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// Run \p scenarioFile (in \p dir) and expect one error line with exit code 2, every
/// string of \p mentions in it, and no output folder.
inline void
ExpectRefused(const TempDir& dir,
              const std::string& scenarioFile,
              const std::vector<std::string>& mentions)
{
    const std::string out = dir / "out";
    const CliResult r = RunRdmaRun(scenarioFile + " --quiet --out " + out);
    EXPECT_EQ(r.code, 2) << r.output;
    for (const std::string& m : mentions)
    {
        EXPECT_NE(r.output.find(m), std::string::npos) << "missing '" << m << "' in: " << r.output;
    }
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << "one line: " << r.output;
    EXPECT_FALSE(std::filesystem::exists(out)) << "no output folder on bad input";
    for (const auto& e : std::filesystem::directory_iterator(dir / ""))
    {
        EXPECT_EQ(e.path().filename().string().find("out.partial"), std::string::npos);
    }
}

/// The payload a line of \p lineGbps carries in data packets of \p mtu payload bytes
/// (Gb/s).
inline double
LinePayloadGbps(double lineGbps, uint32_t mtu)
{
    return lineGbps * mtu / ns3::rdmawire::WireBytes(ns3::RdmaPacketType::DATA, mtu);
}

/// 90% of LinePayloadGbps.
inline double
NinetyPercentOfLine(double lineGbps, uint32_t mtu)
{
    return 0.9 * LinePayloadGbps(lineGbps, mtu);
}

} // namespace rdmatest

#endif
