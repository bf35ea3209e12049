/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rtt-probe-start-window.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// The largest cut of one shrink: the window at least halves per RTT at most, as TCP's.
constexpr double kMaxShrink = 0.5;
} // namespace

RttProbeStartWindow::RttProbeStartWindow(uint64_t max, Time minWait, uint64_t initial)
    : m_max(max),
      m_min(std::min(initial, max)),
      m_window(std::min(initial, max)),
      m_minWait(minWait),
      m_rtt(minWait)
{
}

void
RttProbeStartWindow::NoteRtt(Time now, Time rtt)
{
    m_now = now;
    m_rtt = rtt;
}

Time
RttProbeStartWindow::Wait(uint32_t bytes, bool first) const
{
    // A QP's further start packets yield to QPs waiting to send their first, so that a
    // thousand QPs starting together each send one packet (and learn the path from its
    // sample) before any sends its whole window.
    if (m_inflight == 0 || (m_inflight + bytes <= m_window && (first || m_queued == 0)))
    {
        return Time(0);
    }
    // A full window drains as its ACKs come back, one window per RTT: ask again when the
    // excess should have drained, never sooner than the target at line rate, so that a
    // waiting QP costs an event per RTT, not per packet time.
    const double excess = double(m_inflight + bytes - std::min(m_window, m_inflight)) / m_window;
    return std::max(m_minWait, Seconds(m_rtt.GetSeconds() * excess));
}

void
RttProbeStartWindow::Queued()
{
    ++m_queued;
}

void
RttProbeStartWindow::Sent(uint64_t bytes, bool queued)
{
    m_inflight += bytes;
    if (queued && m_queued > 0)
    {
        --m_queued;
    }
}

void
RttProbeStartWindow::Acked(uint64_t bytes, double growth)
{
    const bool full = m_queued > 0 || m_inflight >= m_window;
    m_inflight -= std::min(bytes, m_inflight);
    if (growth <= 0)
    {
        m_window = std::min(m_max, m_window + bytes);
    }
    else if (full && m_now >= m_lastShrink + m_rtt)
    {
        // Only a window in use shrinks (RFC 7661): a start that fits is not the cause.
        m_lastShrink = m_now;
        const double factor = std::max(kMaxShrink, 1 - growth);
        m_window = std::max<uint64_t>(m_min, static_cast<uint64_t>(m_window * factor));
    }
}

} // namespace ns3
