/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/flow-size-cdf.h"

#include "ns3/input-fields.h"
#include "ns3/scenario-error.h"

#include <algorithm>
#include <boost/algorithm/string.hpp>
#include <boost/lexical_cast.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{
std::string
Text(double v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

/// One point against its predecessor (none for the first); throws ScenarioError.
void
CheckPoint(const FlowSizeCdf::Point* prev, const FlowSizeCdf::Point& p, const std::string& where)
{
    if (!(p.percent >= 0 && p.percent <= 100))
    {
        throw ScenarioError(where + ": cdf " + Text(p.percent) +
                            " is outside [0, 100] (the second column is a percentage)");
    }
    if (prev && p.bytes <= prev->bytes)
    {
        throw ScenarioError(where + ": size " + std::to_string(p.bytes) +
                            " does not increase (previous " + std::to_string(prev->bytes) + ")");
    }
    if (prev && p.percent < prev->percent)
    {
        throw ScenarioError(where + ": cdf " + Text(p.percent) + " decreases (previous " +
                            Text(prev->percent) + ")");
    }
    if (!prev && p.bytes == 0 && p.percent > 0)
    {
        throw ScenarioError(where + ": " + Text(p.percent) + "% of the flows would have 0 bytes");
    }
}
} // namespace

FlowSizeCdf
FlowSizeCdf::Load(const std::string& path)
{
    std::ifstream in = inputfields::OpenInputFile(path, "flow-size CDF");
    std::vector<Point> points;
    uint32_t lastLine = 0;
    std::string line;
    uint32_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        boost::algorithm::trim(line);
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        std::vector<std::string> cells;
        boost::algorithm::split(cells, line, boost::is_any_of(" \t"), boost::token_compress_on);
        const std::string where = path + ":" + std::to_string(lineNo);
        if (cells.size() != 2)
        {
            throw ScenarioError(where + ": expected 'size_bytes cdf_percent', got '" + line + "'");
        }
        Point p;
        if (cells[0][0] == '-' || !boost::conversion::try_lexical_convert(cells[0], p.bytes))
        {
            throw ScenarioError(where + ": size '" + cells[0] + "' is not a whole number of bytes");
        }
        if (!boost::conversion::try_lexical_convert(cells[1], p.percent) ||
            !std::isfinite(p.percent))
        {
            throw ScenarioError(where + ": cdf '" + cells[1] + "' is not a number");
        }
        CheckPoint(points.empty() ? nullptr : &points.back(), p, where);
        points.push_back(p);
        lastLine = lineNo;
    }
    if (points.empty())
    {
        throw ScenarioError(path + ": empty flow-size CDF (no 'size_bytes cdf_percent' line)");
    }
    return FromPoints(points, path + ":" + std::to_string(lastLine));
}

FlowSizeCdf
FlowSizeCdf::FromPoints(std::vector<Point> points, const std::string& origin)
{
    if (points.empty())
    {
        throw ScenarioError(origin + ": a flow-size CDF needs at least one point");
    }
    for (size_t i = 0; i < points.size(); ++i)
    {
        CheckPoint(i > 0 ? &points[i - 1] : nullptr, points[i], origin);
    }
    if (points.back().percent != 100)
    {
        throw ScenarioError(origin + ": the last cdf is " + Text(points.back().percent) +
                            ", it must be 100 (the second column is a percentage)");
    }
    FlowSizeCdf cdf;
    cdf.m_points = std::move(points);
    return cdf;
}

uint64_t
FlowSizeCdf::Sample(double u) const
{
    const double y = u * 100;
    // First point at or above y: y lies on the segment that ends there.
    const auto it =
        std::lower_bound(m_points.begin(), m_points.end(), y, [](const Point& p, double v) {
            return p.percent < v;
        });
    double x;
    if (it == m_points.begin())
    {
        x = double(m_points.front().bytes); // point mass at the first size
    }
    else if (it == m_points.end())
    {
        x = double(m_points.back().bytes);
    }
    else
    {
        const Point& a = *(it - 1);
        const Point& b = *it;
        x = double(a.bytes) +
            (double(b.bytes) - double(a.bytes)) * (y - a.percent) / (b.percent - a.percent);
    }
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(x)));
}

double
FlowSizeCdf::Mean() const
{
    double sum = double(m_points.front().bytes) * m_points.front().percent;
    for (size_t i = 1; i < m_points.size(); ++i)
    {
        const Point& a = m_points[i - 1];
        const Point& b = m_points[i];
        sum += (double(a.bytes) + double(b.bytes)) / 2 * (b.percent - a.percent);
    }
    return sum / 100;
}

uint64_t
FlowSizeCdf::Max() const
{
    return m_points.back().bytes;
}

const std::vector<FlowSizeCdf::Point>&
FlowSizeCdf::Points() const
{
    return m_points;
}

} // namespace ns3
