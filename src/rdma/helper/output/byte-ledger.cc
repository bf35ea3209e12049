/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/byte-ledger.h"

#include "ns3/rdma-channel.h"
#include "ns3/rdma-ranks.h"
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

/// The ledger's running sums over the devices, hosts and switches.
struct Totals
{
    FrameTally sent;
    FrameTally received;
    FrameTally onWires;
    FrameTally inQueues;
    std::array<FrameTally, kDropReasons> dropped{};
    FrameTally trimmedAway; ///< bytes switches cut off trimmed frames (frames: 0)
    FrameTally cutSent;     ///< onto links to other MPI ranks
    FrameTally cutArrived;  ///< off links from other MPI ranks
    uint64_t pfcLinkDown = 0;
    uint64_t wireMismatches = 0;
    /// Under the fast core a wire's frames must also match the channel's own count.
    bool fifoCounts = RdmaSim::IsFastCore();
};

/// Device \p dev: what it lost to its link being down, and the wire into it (a wire
/// from another MPI rank is counted at both ends, in cutSent and cutArrived).
void
AddDevice(Totals& t, Ptr<RdmaNetDevice> dev, const RdmaTopology& topo)
{
    const RdmaNetDevice::Ledger& l = dev->GetLedger();
    FrameTally& linkDown = t.dropped[static_cast<std::size_t>(DropReason::LINK_DOWN)];
    linkDown.Add(l.lostArriving);
    linkDown.Add(l.discardedQueued);
    t.pfcLinkDown += l.pfcLostArriving + l.pfcDiscarded;
    Ptr<RdmaChannel> ch = dev->GetRdmaChannel();
    if (!ch)
    {
        return;
    }
    FrameTally arrived = l.received;
    arrived.Add(l.lostArriving);
    if (!topo.IsLocal(ch->GetPeer(dev)->GetNode()->GetId()))
    {
        t.cutSent.Add(l.sent);
        t.cutArrived.Add(arrived);
        return;
    }
    FrameTally wire;
    if (!Minus(ch->GetPeer(dev)->GetLedger().sent, arrived, &wire) ||
        (t.fifoCounts && wire.frames != ch->GetFramesInFlight(dev)))
    {
        ++t.wireMismatches;
        return;
    }
    t.onWires.Add(wire);
}

/// Every host's NIC: its device, and what it sent and received.
void
AddHosts(Totals& t, const RdmaTopology& topo)
{
    for (uint32_t h : topo.GetHosts())
    {
        if (!topo.IsLocal(h))
        {
            continue; // another MPI rank's
        }
        Ptr<RdmaNetDevice> dev = topo.GetNic(h)->GetDevice();
        AddDevice(t, dev, topo);
        const RdmaNetDevice::Ledger& l = dev->GetLedger();
        t.sent.Add(l.sent);
        t.sent.Add(l.discardedQueued); // a NIC's frames that never left count as sent, lost
        t.received.Add(l.received);
    }
}

/// Every switch: its ports' devices and drops, and what it holds in its queues. Returns
/// the switches whose ledger does not match their queues.
json
AddSwitches(Totals& t, const RdmaTopology& topo)
{
    json unaccounted = json::array();
    for (uint32_t s : topo.GetSwitches())
    {
        if (!topo.IsLocal(s))
        {
            continue;
        }
        Ptr<RdmaSwitch> sw = topo.GetSwitch(s);
        FrameTally in;
        FrameTally out;
        uint64_t queued = 0;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<RdmaNetDevice> dev = sw->GetPort(p);
            AddDevice(t, dev, topo);
            const RdmaNetDevice::Ledger& l = dev->GetLedger();
            in.Add(l.received);
            out.Add(l.dequeued);
            out.Add(l.discardedQueued);
            out.Add(sw->GetPortStats(p).trimmedAway);
            t.trimmedAway.Add(sw->GetPortStats(p).trimmedAway);
            for (std::size_t r = 0; r < kDropReasons; ++r)
            {
                out.Add(sw->GetPortStats(p).droppedByReason[r]);
                t.dropped[r].Add(sw->GetPortStats(p).droppedByReason[r]);
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
        t.inQueues.Add(held);
    }
    return unaccounted;
}
} // namespace

ByteLedger::ByteLedger(RdmaTopology& topo)
    : m_topo(topo)
{
}

json
ByteLedger::Report() const
{
    Totals t;
    AddHosts(t, m_topo);
    const json unaccounted = AddSwitches(t, m_topo);
    FrameTally allDropped;
    json byReason = json::object();
    for (std::size_t r = 0; r < kDropReasons; ++r)
    {
        byReason[DropReasonName(static_cast<DropReason>(r))] = Amount(t.dropped[r]);
        allDropped.Add(t.dropped[r]);
    }
    FrameTally accounted = t.received;
    accounted.Add(allDropped);
    accounted.Add(t.inQueues);
    accounted.Add(t.onWires);
    accounted.Add(t.trimmedAway);
    json r;
    r["unit"] = "non-PFC frames NICs sent (every transmission); INT records excluded";
    r["sent"] = Amount(t.sent);
    r["received"] = Amount(t.received);
    r["dropped"] = Amount(allDropped);
    r["dropped_by_reason"] = byReason;
    r["trimmed_away"] = Amount(t.trimmedAway);
    r["in_flight"] = {{"switch_queues", Amount(t.inQueues)}, {"wires", Amount(t.onWires)}};
    r["pfc_frames_lost_link_down"] = t.pfcLinkDown;
    r["wire_order_mismatches"] = t.wireMismatches;
    r["unaccounted_switches"] = unaccounted;
    if (RdmaRanks::Size() > 1)
    {
        // This rank's ends of the links between ranks; the merge turns them into wires.
        r["cut_wires"] = {{"sent", Amount(t.cutSent)}, {"arrived", Amount(t.cutArrived)}};
    }
    r["balanced"] = unaccounted.empty() && t.wireMismatches == 0 &&
                    accounted.frames == t.sent.frames && accounted.bytes == t.sent.bytes &&
                    accounted.dataPayload == t.sent.dataPayload;
    return r;
}

} // namespace ns3
