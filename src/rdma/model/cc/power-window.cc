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
    m_snapW[0] = m_w;
    m_snapT[0] = nowNs;
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
    if (nowNs - m_snapT[m_head] >= m_tauNs / 4)
    {
        m_head = (m_head + 1) % kSnapshots;
        m_snapW[m_head] = m_w;
        m_snapT[m_head] = nowNs;
        m_count = std::min(m_count + 1, kSnapshots);
    }
    for (uint32_t k = 0; k < m_count; ++k)
    {
        const uint32_t i = (m_head + kSnapshots - k) % kSnapshots;
        if (nowNs - m_snapT[i] >= m_tauNs)
        {
            m_wPrev = m_snapW[i];
            return;
        }
    }
}

} // namespace ns3
