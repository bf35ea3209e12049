/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/pfc-safety-report.h"

#include "ns3/nstime.h"
#include "ns3/scenario-access.h"

#include <sstream>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

PfcSafetyReport::PfcSafetyReport(const json& s, RdmaTopology& topo)
    : m_topo(topo)
{
    if (!Bool(s, "switch.pfc.enabled") || !Bool(s, "switch.pfc.deadlock_detection.enabled"))
    {
        return;
    }
    m_detector = CreateObject<PfcDeadlockDetector>();
    m_detector->SetAttribute("Window",
                             TimeValue(Us(Num(s, "switch.pfc.deadlock_detection.window_us"))));
    m_detector->SetAttribute("Interval",
                             TimeValue(Us(Num(s, "switch.pfc.deadlock_detection.interval_us"))));
    for (uint32_t sw : topo.GetLocalSwitches())
    {
        Ptr<RdmaSwitch> x = topo.GetSwitch(sw);
        m_detector->AddSwitch(x, x->GetMmu()->GetLosslessMask());
    }
}

void
PfcSafetyReport::Start()
{
    if (m_detector)
    {
        m_detector->Start();
    }
}

std::string
PfcSafetyReport::CycleText(const PfcDeadlockDetector::Deadlock& d)
{
    std::ostringstream os;
    for (std::size_t i = 0; i < d.cycle.size(); ++i)
    {
        os << (i ? " -> " : "") << "node " << d.cycle[i].node << " port " << d.cycle[i].port;
    }
    return os.str();
}

void
PfcSafetyReport::Summarize(json& sum) const
{
    json list = json::array();
    const std::size_t found = m_detector ? m_detector->GetDeadlocks().size() : 0;
    for (std::size_t i = 0; i < found && i < kMaxListed; ++i)
    {
        const PfcDeadlockDetector::Deadlock& d = m_detector->GetDeadlocks()[i];
        json cycle = json::array();
        for (const PfcDeadlockDetector::Hop& h : d.cycle)
        {
            cycle.push_back({{"node", h.node},
                             {"port", h.port},
                             {"peer_node", h.peerNode},
                             {"peer_port", h.peerPort}});
        }
        list.push_back(
            {{"time_ns", d.at.GetNanoSeconds()}, {"prio", d.priority}, {"cycle", cycle}});
    }
    sum["pfc_deadlock_detection"] = m_detector != nullptr;
    sum["pfc_deadlocks_found"] = found;
    sum["pfc_deadlocks"] = list;
    uint64_t detected = 0;
    uint64_t restored = 0;
    bool watched = false;
    for (uint32_t sw : m_topo.GetLocalSwitches())
    {
        if (Ptr<PfcWatchdog> wd = m_topo.GetSwitch(sw)->GetPfcWatchdog())
        {
            watched = true;
            detected += wd->GetStormsDetected();
            restored += wd->GetStormsRestored();
        }
    }
    if (watched)
    {
        sum["pfc_watchdog"] = {{"storms_detected", detected}, {"storms_restored", restored}};
    }
}

std::string
PfcSafetyReport::DeadlockMessage() const
{
    if (!m_detector || m_detector->GetDeadlocks().empty())
    {
        return "";
    }
    const auto& all = m_detector->GetDeadlocks();
    const PfcDeadlockDetector::Deadlock& d = all.front();
    std::ostringstream os;
    os.precision(3);
    os << std::fixed << "PFC deadlock at " << d.at.GetSeconds() * 1e3
       << " ms (simulated): a cycle of " << d.cycle.size() << " paused queues of class "
       << +d.priority << ": " << CycleText(d);
    if (all.size() > 1)
    {
        os << " (and " << all.size() - 1 << " more)";
    }
    os << " (see pfc_deadlocks in summary.json)";
    return os.str();
}

} // namespace ns3
