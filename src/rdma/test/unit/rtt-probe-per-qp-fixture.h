/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The fake NIC of the RTT probe's per-QP unit tests (rtt-probe-per-qp-test.cc: the rules
 * of a QP with siblings on its NIC and the start budget; rtt-probe-alone-test.cc: a QP
 * alone on its NIC and the older samples): a controller in a peer group and a NIC group
 * whose counts a test sets, on a fake clock.
 *
 * Defaults used: line C = 100 Gb/s, target T = 13 us (Absolute), 1 KB MTU,
 * FlowScaleStep 4 us per halving below one MTU per T (630 Mb/s), MiFactor 0.1 per
 * MiPeriod 500 us, AiRate 2 Gb/s per ms, AiPackets 1, StartShare 1/32, StartBurst 16 KB,
 * IdleRestart 10 us, SurgeGradient 1; PacingJitter 0 (set here, so that every gap is
 * exact).
 */
#ifndef RDMA_RTT_PROBE_PER_QP_FIXTURE_H
#define RDMA_RTT_PROBE_PER_QP_FIXTURE_H

#include "fake-cc-clock.h"

#include "ns3/core-module.h"
#include "ns3/rtt-probe.h"

#include <gtest/gtest.h>

namespace rdmatest
{

using namespace ns3;

inline constexpr double kLine = 100e9;
/// Wire bytes of a 1 KB data packet: what a QP paying by credit pays per packet.
inline const double kWire = rdmawire::WireBytes(RdmaPacketType::DATA, 1024);

/// Seconds one such packet takes at \p rate.
inline double
PacketTime(double rate)
{
    return kWire * 8 / rate;
}

class RttProbePerQpTest : public ::testing::Test
{
  protected:
    /// A per-QP controller of a NIC with \p toDestination active QPs to its destination
    /// and \p onNic in all.
    Ptr<RttProbe> Make(uint32_t toDestination = 1, uint32_t onNic = 1)
    {
        group.activeQps = toDestination;
        nic.activeQps = onNic;
        group.nic = &nic;
        Ptr<RttProbe> c = CreateObject<RttProbe>();
        c->SetAttribute("ShareWithPeers", BooleanValue(false));
        c->SetAttribute("PacingJitter", DoubleValue(0));
        CcContext ctx;
        ctx.lineRate = static_cast<uint64_t>(kLine);
        ctx.baseRtt = NanoSeconds(4200);
        ctx.mtu = 1024;
        ctx.clock = &clock;
        ctx.peers = &group;
        c->Init(ctx);
        return c;
    }

    /// \p c sends a data packet now (its first: OnFirstSend before).
    static void Send(Ptr<RttProbe> c, bool first = false)
    {
        if (first)
        {
            c->OnFirstSend();
        }
        c->GetRate();
        c->OnSend(1024);
    }

    /// The ACK of a packet sent at \p sent arrives after \p rtt.
    void Ack(Ptr<RttProbe> c, Time sent, Time rtt, uint64_t inflight = 1024)
    {
        clock.now = sent + rtt;
        CcAck a;
        a.rtt = rtt;
        a.inflightBytes = inflight;
        c->OnAck(a);
    }

    FakeClock clock;
    CcPeerGroup group;
    CcNicGroup nic;
};

} // namespace rdmatest

#endif /* RDMA_RTT_PROBE_PER_QP_FIXTURE_H */
