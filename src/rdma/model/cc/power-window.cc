/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/power-window.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// Γs is at least this when W is computed: a hop that received nothing (Γ = 0), or noisy
/// samples averaging below 0 (they are folded in raw, unbiased), ask for the
/// largest window, which W_max caps, without a division by zero.
constexpr double kMinPower = 1e-6;

} // namespace

void
PowerWindow::Init(double tauNs, double gamma, double beta, double wMin, double wMax, double wInit)
{
    m_tauNs = tauNs;
    m_gamma = gamma;
    m_beta = beta;
    m_wMax = wMax;
    m_wMin = std::min(wMin, wMax);
    m_w = std::clamp(wInit, m_wMin, m_wMax);
    m_wPrev = m_w;
    m_power = 1;
    m_lastUpdateSeq = 0;
}

void
PowerWindow::AddPower(double power, double dtNs)
{
    const double dt = std::min(dtNs, m_tauNs);
    m_power = (m_power * (m_tauNs - dt) + power * dt) / m_tauNs;
}

void
PowerWindow::StartRtt(uint32_t sndNxt)
{
    m_lastUpdateSeq = sndNxt;
}

bool
PowerWindow::Update(uint32_t ackPsn, uint32_t sndNxt)
{
    const double next =
        m_gamma * (m_wPrev / std::max(m_power, kMinPower) + m_beta) + (1 - m_gamma) * m_w;
    m_w = std::clamp(next, m_wMin, m_wMax);
    if (ackPsn > m_lastUpdateSeq)
    {
        m_wPrev = m_w;
        m_lastUpdateSeq = std::max(m_lastUpdateSeq, sndNxt);
        return true;
    }
    return false;
}

} // namespace ns3
