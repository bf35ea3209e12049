/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/power-window.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// Γs is at least this when W is computed: a hop that received nothing (Γ = 0) asks for
/// the largest window, which W_max caps, without a division by zero.
constexpr double kMinPower = 1e-6;

/// A time (ns) modulo 2^32, for snapshot ages (unsigned differences undo the wrap).
uint32_t
Stamp(double nowNs)
{
    return static_cast<uint32_t>(static_cast<uint64_t>(nowNs));
}

} // namespace

void
PowerWindow::Init(double tauNs,
                  double gamma,
                  double beta,
                  double wMin,
                  double wMax,
                  double wInit,
                  double nowNs)
{
    m_tauNs = tauNs;
    m_gamma = gamma;
    m_beta = beta;
    m_wMax = wMax;
    m_wMin = std::min(wMin, wMax);
    m_w = std::clamp(wInit, m_wMin, m_wMax);
    m_wPrev = m_w;
    m_power = 1;
    m_head = 0;
    m_count = 1;
    m_snapW[0] = float(m_w);
    m_snapT[0] = Stamp(nowNs);
}

void
PowerWindow::AddPower(double power, double dtNs)
{
    const double dt = std::min(dtNs, m_tauNs);
    m_power = (m_power * (m_tauNs - dt) + power * dt) / m_tauNs;
}

void
PowerWindow::Update(double nowNs)
{
    const double next =
        m_gamma * (m_wPrev / std::max(m_power, kMinPower) + m_beta) + (1 - m_gamma) * m_w;
    m_w = std::clamp(next, m_wMin, m_wMax);
    const uint32_t now = Stamp(nowNs);
    if (double(now - m_snapT[m_head]) >= m_tauNs / 4)
    {
        m_head = (m_head + 1) % kSnapshots;
        m_snapW[m_head] = float(m_w);
        m_snapT[m_head] = now;
        m_count = std::min(m_count + 1, kSnapshots);
    }
    for (uint32_t k = 0; k < m_count; ++k)
    {
        const uint32_t i = (m_head + kSnapshots - k) % kSnapshots;
        if (double(now - m_snapT[i]) >= m_tauNs)
        {
            m_wPrev = m_snapW[i];
            return;
        }
    }
}

} // namespace ns3
