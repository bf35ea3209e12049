/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * pfc_time.csv: per port and priority class, how long the port's egress was paused by
 * PFC from its peer, and how many pauses began. The file's declaration (OutputFile) and
 * its writer, in one file: OutputStage runs the writer, the size guard and the merge of a
 * run over ranks read the declaration.
 */
#include "ns3/output-file.h"
#include "ns3/rdma-sim.h"
#include "ns3/rdma-topology.h"
#include "ns3/rdma-wire.h"
#include "ns3/run-output.h"
#include "ns3/scenario-access.h"
#include "ns3/serialization-clock.h"

#include <algorithm>
#include <array>
#include <ostream>
#include <vector>

namespace ns3
{

namespace
{

/**
 * The pauses every local port receives (hosts' NIC ports, port 0, and switch ports), from
 * their "PfcRx" trace source: a pause began when a PAUSE frame (quanta > 0) arrived at a
 * port whose class was not paused; it lasts, through refreshes, until a resume (quanta 0)
 * or the expiry of the last PAUSE (quanta x 512 bit times at the port's rate), as the port
 * itself does (RdmaNetDevice::HandlePfc). A port that a PFC watchdog lets send anyway
 * still counts as paused (the paused state of 802.1Qbb). Listening changes nothing.
 *
 * Rows: the (port, class) pairs paused at least once by the end, by node, port, class;
 * paused_ns is the paused time up to the end, pauses the pauses that began by then.
 */
class PfcTimeReport : public OutputWriter
{
  public:
    PfcTimeReport(RdmaTopology& topo, std::ostream& out);
    void Finish(Time end) override;

  private:
    /// One pause: from its start to its resume or expiry.
    struct Pause
    {
        Time began;
        Time ended;
    };

    /// One class of one port.
    struct Class
    {
        std::vector<Pause> closed; ///< pauses that ended
        bool open = false;         ///< a pause is on (or expired unseen: see until)
        Time began;                ///< of the open pause
        Time until;                ///< when the open pause expires without a refresh
    };

    struct Port
    {
        uint32_t node;
        uint32_t port;
        Ptr<RdmaNetDevice> device;
        std::array<Class, kRdmaNumPriorities> classes;
    };

    /// A PFC frame arrives at port \p i (before the port applies it).
    void OnPfcRx(std::size_t i, uint8_t priority, uint16_t quanta);

    std::ostream& m_out;
    std::vector<Port> m_ports;
};

PfcTimeReport::PfcTimeReport(RdmaTopology& topo, std::ostream& out)
    : m_out(out)
{
    for (uint32_t h : topo.GetLocalHosts())
    {
        m_ports.push_back(Port{h, 0, topo.GetNic(h)->GetDevice(), {}});
    }
    for (uint32_t s : topo.GetLocalSwitches())
    {
        Ptr<RdmaSwitch> sw = topo.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            m_ports.push_back(Port{s, p, sw->GetPort(p), {}});
        }
    }
    std::sort(m_ports.begin(), m_ports.end(), [](const Port& a, const Port& b) {
        return a.node != b.node ? a.node < b.node : a.port < b.port;
    });
    for (std::size_t i = 0; i < m_ports.size(); ++i)
    {
        m_ports[i].device->TraceConnectWithoutContext(
            "PfcRx",
            Callback<void, uint8_t, uint16_t>(
                [this, i](uint8_t priority, uint16_t quanta) { OnPfcRx(i, priority, quanta); }));
    }
}

void
PfcTimeReport::OnPfcRx(std::size_t i, uint8_t priority, uint16_t quanta)
{
    Port& port = m_ports[i];
    Class& c = port.classes[priority];
    const Time now = RdmaSim::Now();
    if (quanta == 0)
    {
        if (c.open)
        {
            c.closed.push_back({c.began, std::min(c.until, now)});
            c.open = false;
        }
        return;
    }
    if (!port.device->IsPaused(priority))
    {
        if (c.open) // the last pause expired without a resume
        {
            c.closed.push_back({c.began, c.until});
        }
        c.open = true;
        c.began = now;
    }
    // The port's own expiry: the quanta at its rate, from now.
    c.until =
        now +
        PicoSeconds(SerializationClock::Picoseconds(uint64_t(quanta) * rdmawire::kPfcQuantumBytes,
                                                    port.device->GetBitRate()));
}

/// The columns of pfc_time.csv.
OutputFile PfcTimeCsv();

void
PfcTimeReport::Finish(Time end)
{
    m_out << PfcTimeCsv().Header() << '\n';
    for (const Port& port : m_ports)
    {
        for (uint8_t prio = 0; prio < kRdmaNumPriorities; ++prio)
        {
            const Class& c = port.classes[prio];
            std::vector<Pause> pauses = c.closed;
            if (c.open)
            {
                pauses.push_back({c.began, c.until});
            }
            Time paused;
            uint64_t count = 0;
            for (const Pause& p : pauses)
            {
                if (p.began > end)
                {
                    continue; // over ranks, a rank may run a little past the end
                }
                ++count;
                paused += std::min(p.ended, end) - p.began;
            }
            if (count > 0)
            {
                m_out << port.node << ',' << port.port << ',' << +prio << ','
                      << paused.GetNanoSeconds() << ',' << count << '\n';
            }
        }
    }
}

OutputFile
PfcTimeCsv()
{
    return {"pfc_time.csv",
            {"node", "port", "prio", "paused_ns", "pauses"},
            {"node", "port", "prio"},
            "",
            OutputFile::Merge::ROWS,
            40,
            // At most every class of every port (both ends of every link), with PFC on.
            [](const nlohmann::json& s, const SizeGuard::Estimate& e) {
                return OutputFile::Rows{
                    scenario::Bool(s, "switch.pfc.enabled") ? e.Ports() * kRdmaNumPriorities : 0,
                    e.fabricKey};
            },
            [](const nlohmann::json&, RdmaTopology& topo, RunOutput& out) {
                return std::unique_ptr<OutputWriter>(
                    std::make_unique<PfcTimeReport>(topo, out.Stream("pfc_time.csv")));
            },
            65};
}

const OutputFileRegistration g_pfcTimeCsv(PfcTimeCsv());

} // namespace

} // namespace ns3
