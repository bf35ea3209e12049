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

namespace
{
/// Add the imbalance of each leaf's window \p window that carried bytes to \p sum, and
/// count them in \p count.
void
AddWindow(const std::vector<std::vector<uint64_t>>& window, double& sum, uint64_t& count)
{
    for (const std::vector<uint64_t>& delta : window)
    {
        uint64_t total = 0;
        for (uint64_t b : delta)
        {
            total += b;
        }
        if (total > 0)
        {
            sum += UplinkMeter::Imbalance(delta);
            ++count;
        }
    }
}
} // namespace

void
UplinkMeter::Tick()
{
    const auto now = m_topo.GetUplinkTxBytes();
    std::vector<std::vector<uint64_t>> window(now.size());
    for (size_t leaf = 0; leaf < now.size(); ++leaf)
    {
        window[leaf].resize(now[leaf].size());
        for (size_t i = 0; i < window[leaf].size(); ++i)
        {
            window[leaf][i] = now[leaf][i] - m_last[leaf][i];
        }
    }
    AddWindow(window, m_windowSum, m_windowCount);
    if (m_keepWindows)
    {
        m_windows.push_back(std::move(window));
    }
    m_last = now;
    m_event = Simulator::Schedule(m_window, &UplinkMeter::Tick, this);
}

double
UplinkMeter::GetRunImbalanceMax() const
{
    return ImbalanceMax(m_topo.GetUplinkTxBytes());
}

double
UplinkMeter::GetRunImbalanceMean() const
{
    return ImbalanceMean(m_topo.GetUplinkTxBytes());
}

double
UplinkMeter::ImbalanceMax(const std::vector<std::vector<uint64_t>>& perLeaf)
{
    double worst = 0;
    for (const auto& leaf : perLeaf)
    {
        worst = std::max(worst, Imbalance(leaf));
    }
    return worst;
}

double
UplinkMeter::ImbalanceMean(const std::vector<std::vector<uint64_t>>& leaves)
{
    double sum = 0;
    for (const auto& leaf : leaves)
    {
        sum += Imbalance(leaf);
    }
    return leaves.empty() ? 0 : sum / leaves.size();
}

void
UplinkMeter::KeepWindows()
{
    m_keepWindows = true;
}

const UplinkMeter::Windows&
UplinkMeter::GetWindows() const
{
    return m_windows;
}

double
UplinkMeter::WindowImbalanceMean(const Windows& windows)
{
    double sum = 0;
    uint64_t count = 0;
    for (const auto& window : windows)
    {
        AddWindow(window, sum, count);
    }
    return count ? sum / count : 0;
}

double
UplinkMeter::GetWindowImbalanceMean() const
{
    return m_windowCount ? m_windowSum / m_windowCount : 0;
}

} // namespace ns3
