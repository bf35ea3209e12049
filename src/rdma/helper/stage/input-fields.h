/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INPUT_FIELDS_H
#define RDMA_INPUT_FIELDS_H

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Strict parsing of the fields of line-oriented input files (CSV traces, group lists,
 * topology files). Every function throws ScenarioError with \p where (`file:line`), the
 * column name and the offending text, so that all readers report errors alike.
 */
namespace inputfields
{

/**
 * Open the input file \p path (\p what names it in errors: "flow-size CDF", ...). Throws
 * ScenarioError naming the file when it does not exist, is a directory, is not a regular
 * file (a device such as /dev/zero, a pipe) or cannot be read.
 */
std::ifstream OpenInputFile(const std::string& path, const std::string& what);
/// Largest input file of kind \p what (OpenInputFile's \p what) that is read (bytes):
/// 16 MB for a scenario or a CDF, 1 GB for a list (flows, links, trace rows).
uint64_t MaxInputBytes(const std::string& what);

/// Split \p line at \p separators (each cell trimmed); runs of separators count once
/// when \p compress.
std::vector<std::string> Split(const std::string& line, const char* separators, bool compress);

/// An integer in [0, max].
uint64_t Unsigned(const std::string& text,
                  const std::string& where,
                  const std::string& column,
                  uint64_t max);

/// A finite number in [min, max].
double Number(const std::string& text,
              const std::string& where,
              const std::string& column,
              double min,
              double max);

/// Host indices: `3`, `1-7`, or a list of those separated by ';'. Each in [0, hosts).
std::vector<uint32_t> HostList(const std::string& text,
                               const std::string& where,
                               const std::string& column,
                               uint32_t hosts);

/// A bit rate with its unit: `100Gbps`, `25Gb/s` (bps, Kbps, Mbps, Gbps, Tbps, or the
/// same with b/s), in [1 bps, 1000 Tbps]. Returns bit/s.
uint64_t BitRate(const std::string& text, const std::string& where, const std::string& column);

/// A time with its unit: `1000ns`, `1us`, `0.001ms`, `1e-6s`. Returns nanoseconds (>= 0,
/// a whole number of nanoseconds).
int64_t Nanoseconds(const std::string& text, const std::string& where, const std::string& column);

} // namespace inputfields

} // namespace ns3

#endif /* RDMA_INPUT_FIELDS_H */
