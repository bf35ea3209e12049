/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/byte-ledger.h"

#include "ns3/rdma-channel.h"
#include "ns3/rdma-sim.h"
#include "ns3/switch-verdict.h"

namespace ns3
{

using json = nlohmann::json;

namespace
{
json
Amount(const FrameTally& t)
{
    return json{{"frames", t.frames}, {"bytes", t.bytes}, {"data_payload_bytes", t.dataPayload}};
}

/// \p a - \p b, or false if some part of \p b is larger.
bool
Minus(const FrameTally& a, const FrameTally& b, FrameTally* out)
{
    if (b.frames > a.frames || b.bytes > a.bytes || b.dataPayload > a.dataPayload)
    {
        return false;
    }
    *out = a;
    out->Sub(b);
    return true;
}
} // namespace

ByteLedger::ByteLedger(RdmaTopology& topo)
    : m_topo(topo)
{
}

json
ByteLedger::Report() const
{
    FrameTally sent;
    FrameTally received;
    FrameTally onWires;
    FrameTally inQueues;
    std::array<FrameTally, kDropReasons> dropped{};
    uint64_t pfcLinkDown = 0;
    uint64_t wireMismatches = 0;
    const bool fifoCounts = RdmaSim::IsFastCore();

    // Each device: what it lost to its link being down, and the wire into it.
    auto device = [&](Ptr<RdmaNetDevice> dev) {
        const RdmaNetDevice::Ledger& l = dev->GetLedger();
        FrameTally& linkDown = dropped[static_cast<std::size_t>(DropReason::LINK_DOWN)];
        linkDown.Add(l.lostArriving);
        linkDown.Add(l.discardedQueued);
        pfcLinkDown += l.pfcLostArriving + l.pfcDiscarded;
        Ptr<RdmaChannel> ch = dev->GetRdmaChannel();
        if (!ch)
        {
            return;
        }
        FrameTally arrived = l.received;
        arrived.Add(l.lostArriving);
        FrameTally wire;
        if (!Minus(ch->GetPeer(dev)->GetLedger().sent, arrived, &wire) ||
            (fifoCounts && wire.frames != ch->GetFramesInFlight(dev)))
        {
            ++wireMismatches;
            return;
        }
        onWires.Add(wire);
    };
    for (uint32_t h : m_topo.GetHosts())
    {
        Ptr<RdmaNetDevice> dev = m_topo.GetNic(h)->GetDevice();
        device(dev);
        const RdmaNetDevice::Ledger& l = dev->GetLedger();
        sent.Add(l.sent);
        sent.Add(l.discardedQueued); // a NIC's frames that never left count as sent, lost
        received.Add(l.received);
    }
    json unaccounted = json::array();
    for (uint32_t s : m_topo.GetSwitches())
    {
        Ptr<RdmaSwitch> sw = m_topo.GetSwitch(s);
        FrameTally in;
        FrameTally out;
        uint64_t queued = 0;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<RdmaNetDevice> dev = sw->GetPort(p);
            device(dev);
            const RdmaNetDevice::Ledger& l = dev->GetLedger();
            in.Add(l.received);
            out.Add(l.dequeued);
            out.Add(l.discardedQueued);
            for (std::size_t r = 0; r < kDropReasons; ++r)
            {
                out.Add(sw->GetPortStats(p).droppedByReason[r]);
                dropped[r].Add(sw->GetPortStats(p).droppedByReason[r]);
            }
            for (uint8_t c = 0; c < kRdmaNumPriorities; ++c)
            {
                queued += dev->GetQueueBytes(c);
            }
        }
        FrameTally held;
        if (!Minus(in, out, &held) || held.raw != queued)
        {
            unaccounted.push_back(json{{"switch", s},
                                       {"ledger_bytes", int64_t(in.raw - out.raw)},
                                       {"queued_bytes", queued}});
            continue;
        }
        inQueues.Add(held);
    }
    FrameTally allDropped;
    json byReason = json::object();
    for (std::size_t r = 0; r < kDropReasons; ++r)
    {
        byReason[DropReasonName(static_cast<DropReason>(r))] = Amount(dropped[r]);
        allDropped.Add(dropped[r]);
    }
    FrameTally accounted = received;
    accounted.Add(allDropped);
    accounted.Add(inQueues);
    accounted.Add(onWires);
    json r;
    r["unit"] = "non-PFC frames NICs sent (every transmission); INT records excluded";
    r["sent"] = Amount(sent);
    r["received"] = Amount(received);
    r["dropped"] = Amount(allDropped);
    r["dropped_by_reason"] = byReason;
    r["in_flight"] = {{"switch_queues", Amount(inQueues)}, {"wires", Amount(onWires)}};
    r["pfc_frames_lost_link_down"] = pfcLinkDown;
    r["wire_order_mismatches"] = wireMismatches;
    r["unaccounted_switches"] = unaccounted;
    r["balanced"] = unaccounted.empty() && wireMismatches == 0 && accounted.frames == sent.frames &&
                    accounted.bytes == sent.bytes && accounted.dataPayload == sent.dataPayload;
    return r;
}

} // namespace ns3
