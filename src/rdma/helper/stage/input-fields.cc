/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/input-fields.h"

#include "ns3/scenario-error.h"

#include <boost/algorithm/string.hpp>
#include <boost/lexical_cast.hpp>
#include <cmath>
#include <filesystem>
#include <sstream>

namespace ns3
{
namespace inputfields
{

namespace
{
[[noreturn]] void
Fail(const std::string& where,
     const std::string& column,
     const std::string& text,
     const std::string& why)
{
    throw ScenarioError(where + ": column '" + column + "' has invalid value '" + text + "' (" +
                        why + ")");
}

/// Split "<number><unit>" and return the number; \p unit receives the rest.
double
NumberWithUnit(const std::string& text,
               std::string& unit,
               const std::string& where,
               const std::string& column,
               const std::string& expected)
{
    size_t i = 0;
    while (i < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' || text[i] == 'e' ||
            text[i] == 'E' || text[i] == '+' || text[i] == '-'))
    {
        // An 'e' is an exponent only if a digit or sign follows ("1e-6s"), not a unit.
        if ((text[i] == 'e' || text[i] == 'E') &&
            (i + 1 >= text.size() || !(std::isdigit(static_cast<unsigned char>(text[i + 1])) ||
                                       text[i + 1] == '-' || text[i + 1] == '+')))
        {
            break;
        }
        ++i;
    }
    double value = 0;
    unit = text.substr(i);
    if (i == 0 || !boost::conversion::try_lexical_convert(text.substr(0, i), value) ||
        !std::isfinite(value) || value < 0)
    {
        Fail(where, column, text, "expected a non-negative number with a unit, " + expected);
    }
    return value;
}
} // namespace

uint64_t
MaxInputBytes(const std::string& what)
{
    // A scenario or a CDF is a few kB; a list of flows, links or trace rows a few tens of
    // bytes per row: 1 GB is some 20 M rows, more than fits in memory once built.
    if (what == "scenario file" || what == "flow-size CDF")
    {
        return 16'000'000;
    }
    return 1'000'000'000;
}

std::ifstream
OpenInputFile(const std::string& path, const std::string& what)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
    {
        throw ScenarioError(path + ": cannot open " + what + " (no such file)");
    }
    if (std::filesystem::is_directory(status))
    {
        throw ScenarioError(path + ": cannot open " + what + " (a directory, not a file)");
    }
    if (!std::filesystem::is_regular_file(status))
    {
        throw ScenarioError(path + ": cannot open " + what +
                            " (not a regular file: a device or a pipe)");
    }
    const uint64_t size = std::filesystem::file_size(path, ec);
    const uint64_t bound = MaxInputBytes(what);
    if (!ec && size > bound)
    {
        std::ostringstream os;
        os << path << ": " << what << " of " << size / 1e6 << " MB is larger than the "
           << bound / 1e6 << " MB an input of this kind may have";
        throw ScenarioError(os.str());
    }
    std::ifstream in(path);
    if (!in)
    {
        throw ScenarioError(path + ": cannot open " + what);
    }
    return in;
}

std::vector<std::string>
Split(const std::string& line, const char* separators, bool compress)
{
    std::vector<std::string> cells;
    const std::string trimmed = boost::algorithm::trim_copy(line);
    boost::algorithm::split(cells,
                            trimmed,
                            boost::is_any_of(separators),
                            compress ? boost::token_compress_on : boost::token_compress_off);
    for (auto& c : cells)
    {
        boost::algorithm::trim(c);
    }
    return cells;
}

uint64_t
Unsigned(const std::string& text, const std::string& where, const std::string& column, uint64_t max)
{
    uint64_t value = 0;
    const std::string t = boost::algorithm::trim_copy(text);
    if (t.empty() || t[0] == '-' || t[0] == '+' ||
        !boost::conversion::try_lexical_convert(t, value) || value > max)
    {
        Fail(where, column, t, "expected an integer in [0, " + std::to_string(max) + "]");
    }
    return value;
}

double
Number(const std::string& text,
       const std::string& where,
       const std::string& column,
       double min,
       double max)
{
    double value = 0;
    const std::string t = boost::algorithm::trim_copy(text);
    if (t.empty() || !boost::conversion::try_lexical_convert(t, value) || !std::isfinite(value) ||
        value < min || value > max)
    {
        std::ostringstream range;
        range << "expected a number in [" << min << ", " << max << "]";
        Fail(where, column, t, range.str());
    }
    return value;
}

std::vector<uint32_t>
HostList(const std::string& text,
         const std::string& where,
         const std::string& column,
         uint32_t hosts)
{
    std::vector<uint32_t> out;
    const std::string t = boost::algorithm::trim_copy(text);
    if (t.empty())
    {
        Fail(where, column, t, "expected hosts such as 3, 1-7 or 1;4;9-12");
    }
    for (const std::string& part : Split(t, ";", false))
    {
        const auto dash = part.find('-', 1);
        if (dash == std::string::npos)
        {
            out.push_back(Unsigned(part, where, column, hosts - 1));
            continue;
        }
        const uint64_t a = Unsigned(part.substr(0, dash), where, column, hosts - 1);
        const uint64_t b = Unsigned(part.substr(dash + 1), where, column, hosts - 1);
        if (b < a)
        {
            Fail(where, column, t, "a range must not decrease");
        }
        for (uint64_t h = a; h <= b; ++h)
        {
            out.push_back(h);
        }
    }
    return out;
}

uint64_t
BitRate(const std::string& text, const std::string& where, const std::string& column)
{
    const std::string t = boost::algorithm::trim_copy(text);
    const std::string expected = "e.g. 100Gbps (bps, Kbps, Mbps, Gbps, Tbps)";
    std::string unit;
    const double value = NumberWithUnit(t, unit, where, column, expected);
    static const std::pair<const char*, double> units[] = {
        {"bps", 1},
        {"b/s", 1},
        {"Kbps", 1e3},
        {"Kb/s", 1e3},
        {"Mbps", 1e6},
        {"Mb/s", 1e6},
        {"Gbps", 1e9},
        {"Gb/s", 1e9},
        {"Tbps", 1e12},
        {"Tb/s", 1e12},
    };
    for (const auto& [name, factor] : units)
    {
        if (unit == name)
        {
            const double bps = value * factor;
            if (bps < 1 || bps > 1e15)
            {
                Fail(where, column, t, "a link rate must be in [1 bps, 1000 Tbps]");
            }
            return static_cast<uint64_t>(std::llround(bps));
        }
    }
    Fail(where, column, t, "unknown rate unit '" + unit + "', " + expected);
}

int64_t
Nanoseconds(const std::string& text, const std::string& where, const std::string& column)
{
    const std::string t = boost::algorithm::trim_copy(text);
    const std::string expected = "e.g. 1us (ns, us, ms, s)";
    std::string unit;
    const double value = NumberWithUnit(t, unit, where, column, expected);
    static const std::pair<const char*, double> units[] = {
        {"ns", 1},
        {"us", 1e3},
        {"ms", 1e6},
        {"s", 1e9},
    };
    for (const auto& [name, factor] : units)
    {
        if (unit == name)
        {
            const double ns = value * factor;
            if (ns > 1e15 || std::abs(ns - std::round(ns)) > 1e-6 * std::max(1.0, ns))
            {
                Fail(where, column, t, "must be a whole number of nanoseconds up to 1e15 ns");
            }
            return static_cast<int64_t>(std::llround(ns));
        }
    }
    Fail(where, column, t, "unknown time unit '" + unit + "', " + expected);
}

} // namespace inputfields
} // namespace ns3
