/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Flow-size CDFs: the inverse CDF interpolates linearly between points (uniform sizes
 * within a segment), a first point above 0% is a point mass, the mean follows from the
 * points, and every malformed file is refused with file:line.
 */
#include "temp-file.h"

#include "ns3/flow-size-cdf.h"
#include "ns3/scenario-error.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace ns3;

namespace
{
using rdmatest::TempFile;

/// The message of the ScenarioError that loading \p text raises ("" if none).
std::string
LoadError(const std::string& text, std::string* path = nullptr)
{
    TempFile f(text);
    if (path)
    {
        *path = f.Path();
    }
    try
    {
        FlowSizeCdf::Load(f.Path());
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(FlowSizeCdf, InterpolatesBetweenPoints)
{
    // 0..50%: uniform on [100, 300]; 50..100%: uniform on [300, 1000].
    TempFile f("# comment\n100 0\n\n300 50\n1000 100\n");
    const FlowSizeCdf cdf = FlowSizeCdf::Load(f.Path());
    EXPECT_EQ(cdf.Sample(0.0), 100u);
    EXPECT_EQ(cdf.Sample(0.25), 200u);
    EXPECT_EQ(cdf.Sample(0.5), 300u);
    EXPECT_EQ(cdf.Sample(0.75), 650u);
    EXPECT_EQ(cdf.Sample(0.999999), 1000u);
    // Mean: half at mean 200, half at mean 650.
    EXPECT_DOUBLE_EQ(cdf.Mean(), 0.5 * 200 + 0.5 * 650);
    EXPECT_EQ(cdf.Max(), 1000u);
}

TEST(FlowSizeCdf, FirstPointAboveZeroIsAPointMass)
{
    // 40% of the flows are exactly 1000 bytes, the rest uniform on [1000, 2000].
    const FlowSizeCdf cdf = FlowSizeCdf::FromPoints({{1000, 40}, {2000, 100}}, "test");
    EXPECT_EQ(cdf.Sample(0.1), 1000u);
    EXPECT_EQ(cdf.Sample(0.4), 1000u);
    EXPECT_EQ(cdf.Sample(0.7), 1500u);
    EXPECT_DOUBLE_EQ(cdf.Mean(), 0.4 * 1000 + 0.6 * 1500);
    // A single point: every flow has that size.
    const FlowSizeCdf one = FlowSizeCdf::FromPoints({{4096, 100}}, "test");
    EXPECT_EQ(one.Sample(0.3), 4096u);
    EXPECT_DOUBLE_EQ(one.Mean(), 4096);
}

TEST(FlowSizeCdf, SizesAreAtLeastOneByte)
{
    const FlowSizeCdf cdf = FlowSizeCdf::FromPoints({{0, 0}, {10, 100}}, "test");
    EXPECT_EQ(cdf.Sample(0.0), 1u);
    EXPECT_EQ(cdf.Sample(0.01), 1u);
    EXPECT_EQ(cdf.Sample(0.5), 5u);
}

TEST(FlowSizeCdf, MalformedFilesNameTheLine)
{
    std::string path;
    std::string e = LoadError("0 0\n1000 50\n500 100\n", &path);
    EXPECT_NE(e.find(path + ":3"), std::string::npos) << e;
    EXPECT_NE(e.find("500"), std::string::npos) << e;
    EXPECT_NE(e.find("increase"), std::string::npos) << e;

    e = LoadError("0 0\n1000 60\n2000 50\n3000 100\n", &path);
    EXPECT_NE(e.find(path + ":3"), std::string::npos) << e;
    EXPECT_NE(e.find("decreases"), std::string::npos) << e;

    e = LoadError("0 0\n1000 50\n2000 99.5\n", &path);
    EXPECT_NE(e.find(path + ":3"), std::string::npos) << e;
    EXPECT_NE(e.find("100"), std::string::npos) << e;

    // A CDF given as fractions (0..1) is not silently read as percentages.
    e = LoadError("0 0\n1000 0.5\n2000 1.0\n", &path);
    EXPECT_NE(e.find("percentage"), std::string::npos) << e;

    e = LoadError("0 0\n1000 150\n", &path);
    EXPECT_NE(e.find(path + ":2"), std::string::npos) << e;
    EXPECT_NE(e.find("[0, 100]"), std::string::npos) << e;

    e = LoadError("0 0\n1000 50 7\n2000 100\n", &path);
    EXPECT_NE(e.find(path + ":2"), std::string::npos) << e;

    e = LoadError("0 0\n1e3 50\n2000 100\n", &path);
    EXPECT_NE(e.find(path + ":2"), std::string::npos) << e;
    EXPECT_NE(e.find("'1e3'"), std::string::npos) << e;

    e = LoadError("0 0\n-5 50\n2000 100\n", &path);
    EXPECT_NE(e.find(path + ":2"), std::string::npos) << e;

    e = LoadError("0 0\n1000 abc\n2000 100\n", &path);
    EXPECT_NE(e.find(path + ":2"), std::string::npos) << e;

    e = LoadError("0 10\n1000 100\n", &path);
    EXPECT_NE(e.find("0 bytes"), std::string::npos) << e;

    e = LoadError("# nothing\n\n", &path);
    EXPECT_NE(e.find("empty"), std::string::npos) << e;

    EXPECT_THROW(FlowSizeCdf::Load("/nonexistent/x.cdf"), ScenarioError);
    EXPECT_EQ(LoadError("0 0\n1000 50\n2000 100"), "") << "no newline at the end is fine";
}
