/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/pfc-deadlock-detector.h"

#include "ns3/log.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-sim.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcDeadlockDetector");
NS_OBJECT_ENSURE_REGISTERED(PfcDeadlockDetector);

namespace
{
/**
 * The strongly connected components of a directed graph (Tarjan, iterative), each with
 * more than one node or a self-loop: the parts of the graph that contain a cycle.
 */
std::vector<std::vector<uint32_t>>
CyclicComponents(const std::vector<std::vector<uint32_t>>& next)
{
    const uint32_t n = next.size();
    constexpr uint32_t kUnseen = UINT32_MAX;
    std::vector<uint32_t> order(n, kUnseen);
    std::vector<uint32_t> low(n, 0);
    std::vector<bool> onStack(n, false);
    std::vector<uint32_t> stack;
    std::vector<std::vector<uint32_t>> out;
    uint32_t counter = 0;
    // (node, next edge to follow)
    std::vector<std::pair<uint32_t, uint32_t>> walk;
    for (uint32_t root = 0; root < n; ++root)
    {
        if (order[root] != kUnseen)
        {
            continue;
        }
        walk.emplace_back(root, 0);
        order[root] = low[root] = counter++;
        stack.push_back(root);
        onStack[root] = true;
        while (!walk.empty())
        {
            auto& [v, edge] = walk.back();
            if (edge < next[v].size())
            {
                const uint32_t w = next[v][edge++];
                if (order[w] == kUnseen)
                {
                    order[w] = low[w] = counter++;
                    stack.push_back(w);
                    onStack[w] = true;
                    walk.emplace_back(w, 0);
                }
                else if (onStack[w])
                {
                    low[v] = std::min(low[v], order[w]);
                }
                continue;
            }
            const uint32_t done = v;
            walk.pop_back();
            if (!walk.empty())
            {
                low[walk.back().first] = std::min(low[walk.back().first], low[done]);
            }
            if (low[done] != order[done])
            {
                continue;
            }
            std::vector<uint32_t> component;
            uint32_t w;
            do
            {
                w = stack.back();
                stack.pop_back();
                onStack[w] = false;
                component.push_back(w);
            } while (w != done);
            const bool selfLoop =
                std::find(next[done].begin(), next[done].end(), done) != next[done].end();
            if (component.size() > 1 || selfLoop)
            {
                out.push_back(std::move(component));
            }
        }
    }
    return out;
}

/// One cycle inside \p component: walk its edges from its first node until a repeat.
std::vector<uint32_t>
CycleIn(const std::vector<std::vector<uint32_t>>& next, const std::vector<uint32_t>& component)
{
    std::vector<bool> inComponent(next.size(), false);
    for (uint32_t v : component)
    {
        inComponent[v] = true;
    }
    std::vector<uint32_t> path;
    std::vector<int64_t> at(next.size(), -1);
    uint32_t v = component.front();
    while (at[v] < 0)
    {
        at[v] = path.size();
        path.push_back(v);
        for (uint32_t w : next[v])
        {
            if (inComponent[w])
            {
                v = w;
                break;
            }
        }
    }
    return {path.begin() + at[v], path.end()};
}
} // namespace

TypeId
PfcDeadlockDetector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcDeadlockDetector")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<PfcDeadlockDetector>()
            .AddAttribute("Window",
                          "A queue counts as blocked once its port has been paused without a "
                          "break for this long while it holds frames.",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&PfcDeadlockDetector::m_window),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Interval",
                          "Time between two looks for cycles.",
                          TimeValue(MicroSeconds(250)),
                          MakeTimeAccessor(&PfcDeadlockDetector::m_interval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddTraceSource("Deadlock",
                            "A cycle of mutually paused queues was found.",
                            MakeTraceSourceAccessor(&PfcDeadlockDetector::m_deadlockTrace),
                            "ns3::PfcDeadlockDetector::DeadlockTracedCallback");
    return tid;
}

PfcDeadlockDetector::PfcDeadlockDetector()
    : m_window(MicroSeconds(500)),
      m_interval(MicroSeconds(250))
{
}

void
PfcDeadlockDetector::DoDispose()
{
    m_pollEvent.Cancel();
    m_switches.clear();
    m_portOf.clear();
    Object::DoDispose();
}

void
PfcDeadlockDetector::AddSwitch(Ptr<RdmaSwitch> sw, uint8_t lossless)
{
    const uint32_t index = m_switches.size();
    m_switches.push_back(sw);
    m_lossless.push_back(lossless);
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        m_portOf[PeekPointer(sw->GetPort(p))] = {index, p};
    }
    sw->GetPauseTracker();
}

void
PfcDeadlockDetector::Start()
{
    m_pollEvent = Simulator::Schedule(m_interval, &PfcDeadlockDetector::Poll, this);
}

void
PfcDeadlockDetector::Poll()
{
    Check();
    m_pollEvent = Simulator::Schedule(m_interval, &PfcDeadlockDetector::Poll, this);
}

uint64_t
PfcDeadlockDetector::Key(uint32_t sw, uint32_t port, uint8_t priority)
{
    return (uint64_t(sw) << 32) | (uint64_t(port) << 3) | priority;
}

std::vector<uint32_t>
PfcDeadlockDetector::WaitsFor(const std::unordered_map<uint64_t, uint32_t>& index,
                              const Queue& q) const
{
    std::vector<uint32_t> out;
    Ptr<RdmaNetDevice> dev = m_switches[q.sw]->GetPort(q.port);
    Ptr<RdmaChannel> ch = dev->GetRdmaChannel();
    if (!ch)
    {
        return out;
    }
    const auto peer = m_portOf.find(PeekPointer(ch->GetPeer(dev)));
    if (peer == m_portOf.end())
    {
        return out; // paused by a host: not part of a cycle of switches
    }
    const auto [d, inPort] = peer->second;
    Ptr<RdmaSwitch> down = m_switches[d];
    for (uint32_t p = 0; p < down->GetNPorts(); ++p)
    {
        const auto it = index.find(Key(d, p, q.priority));
        if (it != index.end() && down->HoldsFramesFrom(p, q.priority, inPort))
        {
            out.push_back(it->second);
        }
    }
    return out;
}

std::vector<PfcDeadlockDetector::Deadlock>
PfcDeadlockDetector::Check()
{
    // The blocked queues.
    std::vector<Queue> blocked;
    std::unordered_map<uint64_t, uint32_t> index;
    for (uint32_t i = 0; i < m_switches.size(); ++i)
    {
        Ptr<RdmaSwitch> sw = m_switches[i];
        Ptr<PfcPauseTracker> pauses = sw->GetPauseTracker();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<RdmaNetDevice> dev = sw->GetPort(p);
            if (dev->GetPausedMask() == 0)
            {
                continue;
            }
            for (uint8_t c = 0; c < kRdmaNumPriorities; ++c)
            {
                if ((m_lossless[i] & (1u << c)) && dev->IsHeldByPfc(c) &&
                    dev->GetQueueBytes(c) > 0 && pauses->PausedFor(p, c) >= m_window)
                {
                    index[Key(i, p, c)] = blocked.size();
                    blocked.push_back({i, p, c});
                }
            }
        }
    }
    std::vector<Deadlock> fresh;
    std::set<std::vector<uint64_t>> active;
    if (!blocked.empty())
    {
        std::vector<std::vector<uint32_t>> next(blocked.size());
        for (uint32_t v = 0; v < blocked.size(); ++v)
        {
            next[v] = WaitsFor(index, blocked[v]);
        }
        for (const std::vector<uint32_t>& component : CyclicComponents(next))
        {
            std::vector<uint64_t> members;
            for (uint32_t v : component)
            {
                const Queue& q = blocked[v];
                members.push_back(Key(q.sw, q.port, q.priority));
            }
            std::sort(members.begin(), members.end());
            active.insert(members);
            if (m_active.count(members))
            {
                continue; // known: reported when it formed
            }
            Deadlock dl;
            dl.at = RdmaSim::Now();
            dl.priority = blocked[component.front()].priority;
            for (uint32_t v : CycleIn(next, component))
            {
                const Queue& q = blocked[v];
                Ptr<RdmaNetDevice> dev = m_switches[q.sw]->GetPort(q.port);
                const auto& [d, inPort] =
                    m_portOf.at(PeekPointer(dev->GetRdmaChannel()->GetPeer(dev)));
                dl.cycle.push_back(
                    {m_switches[q.sw]->GetNodeId(), q.port, m_switches[d]->GetNodeId(), inPort});
            }
            NS_LOG_INFO("PFC deadlock of " << dl.cycle.size() << " queues at " << dl.at);
            m_found.push_back(dl);
            m_deadlockTrace(dl);
            fresh.push_back(std::move(dl));
        }
    }
    m_active = std::move(active);
    return fresh;
}

const std::vector<PfcDeadlockDetector::Deadlock>&
PfcDeadlockDetector::GetDeadlocks() const
{
    return m_found;
}

} // namespace ns3
