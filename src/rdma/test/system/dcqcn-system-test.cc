/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The long-flow incast experiment itself, with DCQCN (the reference the other
 * algorithms' system tests use the same way).
 */
#include "long-flow-incast.h"

#include <gtest/gtest.h>

using namespace rdmatest;

TEST(LongFlowIncast, DcqcnIsFairAndLossless)
{
    LongFlowIncastOptions o;
    o.cc = "ns3::Dcqcn";
    const LongFlowIncastResult r = RunLongFlowIncast(o);
    EXPECT_TRUE(r.allCompleted);
    EXPECT_EQ(r.bytesSent, r.bytesPosted);
    EXPECT_EQ(r.bytesDelivered, r.bytesPosted);
    EXPECT_EQ(r.drops, 0u);
    // The bottleneck stays busy: goodput over the window near 100G x 1024/1106.
    EXPECT_GT(r.totalGoodputGbps, 0.9 * 100 * 1024 / 1106);
    EXPECT_GE(r.jain, 0.9);
}
