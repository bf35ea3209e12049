/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/byte-ledger.h"

#include "ns3/rdma-channel.h"
#include "ns3/rdma-header.h"

#include <unordered_map>

namespace ns3
{

using json = nlohmann::json;

void
ByteLedger::Amount::Add(const Amount& a)
{
    frames += a.frames;
    bytes += a.bytes;
    dataPayload += a.dataPayload;
    raw += a.raw;
}

void
ByteLedger::Amount::Sub(const Amount& a)
{
    frames -= a.frames;
    bytes -= a.bytes;
    dataPayload -= a.dataPayload;
    raw -= a.raw;
}

ByteLedger::ByteLedger(RdmaTopology& topo)
{
    std::unordered_map<const RdmaNetDevice*, uint32_t> index;
    auto add = [&](Ptr<RdmaNetDevice> dev, int64_t sw) {
        index[PeekPointer(dev)] = m_devices.size();
        Device d;
        d.dev = dev;
        d.sw = sw;
        m_devices.push_back(std::move(d));
    };
    for (uint32_t h : topo.GetHosts())
    {
        add(topo.GetNic(h)->GetDevice(), -1);
    }
    for (uint32_t s : topo.GetSwitches())
    {
        Ptr<RdmaSwitch> x = topo.GetSwitch(s);
        const int64_t sw = m_switchNodes.size();
        m_switchNodes.push_back(s);
        for (uint32_t p = 0; p < x->GetNPorts(); ++p)
        {
            add(x->GetPort(p), sw);
        }
        x->TraceConnectWithoutContext("Drop",
                                      MakeCallback(&ByteLedger::OnSwitchDrop, this, uint32_t(sw)));
    }
    m_inSwitch.resize(m_switchNodes.size());
    for (uint32_t i = 0; i < m_devices.size(); ++i)
    {
        Ptr<RdmaNetDevice> dev = m_devices[i].dev;
        Ptr<RdmaChannel> ch = dev->GetRdmaChannel();
        if (ch)
        {
            auto it = index.find(PeekPointer(ch->GetPeer(dev)));
            m_devices[i].peer = it != index.end() ? it->second : i;
        }
        dev->TraceConnectWithoutContext("MacTx", MakeCallback(&ByteLedger::OnTx, this, i));
        dev->TraceConnectWithoutContext("MacRx", MakeCallback(&ByteLedger::OnRx, this, i));
        dev->TraceConnectWithoutContext("LinkDownDrop",
                                        MakeCallback(&ByteLedger::OnLinkDownDrop, this, i));
    }
}

ByteLedger::Facts
ByteLedger::Facts::Of(Ptr<const Packet> p)
{
    // RdmaHeader::Serialize: type, priority, ecn, flags (1 byte each), src, dst (4), sport,
    // dport (2), dstQpn, psn, payload (4), quanta (2), timestamp (8), sackPsn (4), intHops
    // (1); little-endian, as Buffer::Iterator::WriteU32 writes.
    uint8_t b[43] = {};
    p->CopyData(b, sizeof(b));
    auto u32 = [&b](int at) {
        return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
               uint32_t(b[at + 3]) << 24;
    };
    Facts f;
    f.type = static_cast<RdmaPacketType>(b[0]);
    f.flags = b[3];
    f.dstQpn = u32(16);
    f.psn = u32(20);
    f.payload = u32(24);
    f.intHops = b[42];
    return f;
}

ByteLedger::Amount
ByteLedger::Measure(Ptr<const Packet> p, bool leavingSwitch, bool* pfc)
{
    const Facts h = Facts::Of(p);
    Amount a;
    *pfc = h.type == RdmaPacketType::PFC;
    if (*pfc)
    {
        return a;
    }
    a.frames = 1;
    a.bytes = p->GetSize();
    a.raw = a.bytes;
    if (h.flags & RdmaHeader::FLAG_INT)
    {
        // A frame counts without its INT records, which grow on the way. A switch stamps
        // a data frame as it leaves the queue: as queued, it was one record shorter.
        a.bytes -= uint64_t(h.intHops) * rdmawire::kIntHop;
        if (leavingSwitch && h.type == RdmaPacketType::DATA && h.intHops > 0)
        {
            a.raw -= rdmawire::kIntHop;
        }
    }
    if (h.type == RdmaPacketType::DATA)
    {
        a.dataPayload = h.payload;
    }
    return a;
}

void
ByteLedger::OnTx(uint32_t dev, Ptr<const Packet> p)
{
    Device& d = m_devices[dev];
    bool pfc;
    Amount a = Measure(p, d.sw >= 0, &pfc);
    if (pfc)
    {
        return;
    }
    if (d.sw < 0)
    {
        m_injected.Add(a);
    }
    else
    {
        m_inSwitch[d.sw].Sub(a);
        a.raw = p->GetSize();
    }
    d.wire.emplace_back(p->GetUid(), a);
}

bool
ByteLedger::Arrive(uint32_t dev, Ptr<const Packet> p, Amount* a)
{
    std::deque<std::pair<uint64_t, Amount>>& wire = m_devices[m_devices[dev].peer].wire;
    const uint64_t uid = p->GetUid();
    if (!wire.empty() && wire.front().first == uid)
    {
        *a = wire.front().second;
        wire.pop_front();
        return true;
    }
    for (auto it = wire.begin(); it != wire.end(); ++it)
    {
        if (it->first == uid)
        {
            ++m_wireMismatches;
            *a = it->second;
            wire.erase(it);
            return true;
        }
    }
    return false;
}

void
ByteLedger::OnRx(uint32_t dev, Ptr<const Packet> p)
{
    // MacRx is not fired for PFC frames, which are not on the wires' lists either.
    Amount a;
    if (!Arrive(dev, p, &a))
    {
        ++m_wireMismatches;
        bool pfc;
        a = Measure(p, false, &pfc);
    }
    const Device& d = m_devices[dev];
    if (d.sw < 0)
    {
        m_received.Add(a);
    }
    else
    {
        m_inSwitch[d.sw].Add(a);
    }
}

void
ByteLedger::OnLinkDownDrop(uint32_t dev, Ptr<const Packet> p)
{
    bool pfc;
    const Amount a = Measure(p, false, &pfc);
    if (pfc)
    {
        ++m_pfcLinkDown; // counted by the device too; PFC frames are not in the ledger
        return;
    }
    m_dropped[DropReasonName(DropReason::LINK_DOWN)].Add(a);
    Amount onWire;
    if (Arrive(dev, p, &onWire))
    {
        return; // lost arriving on a link that is down
    }
    // Discarded from the device's queue as its link went down.
    const Device& d = m_devices[dev];
    if (d.sw < 0)
    {
        m_injected.Add(a); // a NIC's frame that never left
    }
    else
    {
        m_inSwitch[d.sw].Sub(a);
    }
}

void
ByteLedger::OnSwitchDrop(uint32_t sw,
                         Ptr<const Packet> p,
                         uint32_t /* inPort */,
                         uint32_t /* outPort */,
                         const char* reason)
{
    bool pfc;
    const Amount a = Measure(p, false, &pfc);
    if (pfc)
    {
        return;
    }
    m_inSwitch[sw].Sub(a);
    m_dropped[reason].Add(a);
}

json
ByteLedger::Report() const
{
    auto amount = [](const Amount& a) {
        return json{{"frames", a.frames},
                    {"bytes", a.bytes},
                    {"data_payload_bytes", a.dataPayload}};
    };
    Amount dropped;
    json byReason = json::object();
    for (std::size_t r = 0; r < kDropReasons; ++r)
    {
        byReason[DropReasonName(static_cast<DropReason>(r))] = amount(Amount());
    }
    for (const auto& [reason, a] : m_dropped)
    {
        byReason[reason] = amount(a);
        dropped.Add(a);
    }
    Amount onWires;
    for (const Device& d : m_devices)
    {
        for (const auto& [uid, a] : d.wire)
        {
            onWires.Add(a);
        }
    }
    // Each switch's ledger against what its queues hold: a difference is an uncounted
    // drop (or a frame created inside the switch).
    Amount inQueues;
    json unaccounted = json::array();
    std::vector<uint64_t> queued(m_switchNodes.size(), 0);
    for (const Device& d : m_devices)
    {
        if (d.sw >= 0)
        {
            for (uint8_t c = 0; c < kRdmaNumPriorities; ++c)
            {
                queued[d.sw] += d.dev->GetQueueBytes(c);
            }
        }
    }
    for (std::size_t s = 0; s < m_switchNodes.size(); ++s)
    {
        inQueues.Add(m_inSwitch[s]);
        if (m_inSwitch[s].raw != queued[s])
        {
            unaccounted.push_back(json{{"switch", m_switchNodes[s]},
                                       {"ledger_bytes", int64_t(m_inSwitch[s].raw)},
                                       {"queued_bytes", queued[s]}});
        }
    }
    Amount accounted = m_received;
    accounted.Add(dropped);
    accounted.Add(inQueues);
    accounted.Add(onWires);
    json r;
    r["unit"] = "non-PFC frames NICs sent (every transmission); INT records excluded";
    r["sent"] = amount(m_injected);
    r["received"] = amount(m_received);
    r["dropped"] = amount(dropped);
    r["dropped_by_reason"] = byReason;
    r["in_flight"] = {{"switch_queues", amount(inQueues)}, {"wires", amount(onWires)}};
    r["pfc_frames_lost_link_down"] = m_pfcLinkDown;
    r["wire_order_mismatches"] = m_wireMismatches;
    r["unaccounted_switches"] = unaccounted;
    r["balanced"] = unaccounted.empty() && m_wireMismatches == 0 &&
                    accounted.frames == m_injected.frames && accounted.bytes == m_injected.bytes &&
                    accounted.dataPayload == m_injected.dataPayload;
    return r;
}

} // namespace ns3
