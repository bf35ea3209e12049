/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The byte-conservation identity of summary.json, checked by system tests: every frame a
 * NIC sent was received, dropped for a named reason, or is still in the fabric.
 */
#ifndef RDMA_CONSERVATION_UTIL_H
#define RDMA_CONSERVATION_UTIL_H

#include "scenario-test-util.h"

#include <gtest/gtest.h>

namespace rdmatest
{

/// Check the identity (what switches cut off trimmed frames counted as trimmed away) and that the
/// ledger's drops are the switches' counted drops.
inline void
ExpectConserved(const nlohmann::json& sum)
{
    ASSERT_TRUE(sum.contains("conservation")) << sum.dump(2);
    const nlohmann::json& c = sum["conservation"];
    EXPECT_TRUE(c["balanced"].get<bool>()) << c.dump(2);
    EXPECT_EQ(c["wire_order_mismatches"], 0) << c.dump(2);
    EXPECT_TRUE(c["unaccounted_switches"].empty()) << c.dump(2);
    for (const char* unit : {"frames", "bytes", "data_payload_bytes"})
    {
        const uint64_t sent = c["sent"][unit];
        const uint64_t accounted =
            c["received"][unit].get<uint64_t>() + c["dropped"][unit].get<uint64_t>() +
            c["in_flight"]["switch_queues"][unit].get<uint64_t>() +
            c["in_flight"]["wires"][unit].get<uint64_t>() + c["trimmed_away"][unit].get<uint64_t>();
        EXPECT_EQ(sent, accounted) << unit << ": " << c.dump(2);
    }
    // Every data byte delivered in order was received; no more than was sent first.
    EXPECT_GE(c["received"]["data_payload_bytes"].get<uint64_t>(),
              sum["bytes_delivered"].get<uint64_t>());
    EXPECT_GE(c["sent"]["data_payload_bytes"].get<uint64_t>(), sum["bytes_sent"].get<uint64_t>());
    // The drops seen frame by frame are the drops the switches and devices counted.
    // (The devices' link_down count includes PFC frames lost arriving on a down link.)
    for (auto it = sum["drops_by_reason"].begin(); it != sum["drops_by_reason"].end(); ++it)
    {
        const uint64_t pfc =
            it.key() == "link_down" ? c["pfc_frames_lost_link_down"].get<uint64_t>() : 0;
        EXPECT_EQ(c["dropped_by_reason"][it.key()]["frames"].get<uint64_t>() + pfc,
                  it.value().get<uint64_t>())
            << it.key() << ": " << c.dump(2);
    }
}

} // namespace rdmatest

#endif
