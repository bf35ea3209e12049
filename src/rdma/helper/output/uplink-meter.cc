/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/uplink-meter.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

UplinkMeter::UplinkMeter(const RdmaTopology& topo, Time window)
    : m_topo(topo),
      m_window(window),
      m_windowSum(0),
      m_windowCount(0)
{
}

double
UplinkMeter::Imbalance(const std::vector<uint64_t>& bytes)
{
    if (bytes.empty())
    {
        return 0;
    }
    const auto [lo, hi] = std::minmax_element(bytes.begin(), bytes.end());
    double sum = 0;
    for (uint64_t b : bytes)
    {
        sum += double(b);
    }
    return sum > 0 ? double(*hi - *lo) / (sum / bytes.size()) : 0;
}

void
UplinkMeter::Start()
{
    m_last = m_topo.GetUplinkTxBytes();
    if (!m_last.empty())
    {
        m_event = Simulator::Schedule(m_window, &UplinkMeter::Tick, this);
    }
}

void
UplinkMeter::Stop()
{
    m_event.Cancel();
}

void
UplinkMeter::Tick()
{
    const auto now = m_topo.GetUplinkTxBytes();
    for (size_t leaf = 0; leaf < now.size(); ++leaf)
    {
        std::vector<uint64_t> delta(now[leaf].size());
        uint64_t total = 0;
        for (size_t i = 0; i < delta.size(); ++i)
        {
            delta[i] = now[leaf][i] - m_last[leaf][i];
            total += delta[i];
        }
        if (total > 0)
        {
            m_windowSum += Imbalance(delta);
            ++m_windowCount;
        }
    }
    m_last = now;
    m_event = Simulator::Schedule(m_window, &UplinkMeter::Tick, this);
}

double
UplinkMeter::GetRunImbalanceMax() const
{
    double worst = 0;
    for (const auto& leaf : m_topo.GetUplinkTxBytes())
    {
        worst = std::max(worst, Imbalance(leaf));
    }
    return worst;
}

double
UplinkMeter::GetRunImbalanceMean() const
{
    const auto leaves = m_topo.GetUplinkTxBytes();
    double sum = 0;
    for (const auto& leaf : leaves)
    {
        sum += Imbalance(leaf);
    }
    return leaves.empty() ? 0 : sum / leaves.size();
}

double
UplinkMeter::GetWindowImbalanceMean() const
{
    return m_windowCount ? m_windowSum / m_windowCount : 0;
}

} // namespace ns3
