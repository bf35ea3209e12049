/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/reps-path-selector.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RepsPathSelector");
NS_OBJECT_ENSURE_REGISTERED(RepsPathSelector);

TypeId
RepsPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RepsPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("Rdma")
            .AddConstructor<RepsPathSelector>()
            .AddAttribute("BufferSize",
                          "Slots of the ring of good entropies (entropies; htsim "
                          "repsBufferSize: 8).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RepsPathSelector::m_bufferSize),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("FreezeTime",
                          "How long a QP stays frozen on the ring's entropies after a timeout "
                          "(htsim exit_freeze_after: 10 ms).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&RepsPathSelector::m_freezeTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ExploreAfterFreeze",
                          "Packets sent on random entropies once a freeze ends (packets; "
                          "htsim: 16).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RepsPathSelector::m_exploreAfterFreeze),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

RepsPathSelector::RepsPathSelector()
    : m_bufferSize(8),
      m_freezeTime(MilliSeconds(10)),
      m_exploreAfterFreeze(16),
      m_next(0),
      m_filled(0),
      m_fresh(0),
      m_frozenNext(0),
      m_exploreLeft(0),
      m_frozen(false)
{
}

bool
RepsPathSelector::UsesFeedback() const
{
    return true;
}

std::string
RepsPathSelector::GetName() const
{
    return "reps";
}

bool
RepsPathSelector::IsFrozen() const
{
    return m_frozen;
}

uint32_t
RepsPathSelector::FreshCount() const
{
    return m_fresh;
}

void
RepsPathSelector::DoInit()
{
    m_ring.assign(m_bufferSize, Slot{});
    Clear();
    m_exploreLeft = 0;
    m_frozen = false;
}

void
RepsPathSelector::Clear()
{
    std::fill(m_ring.begin(), m_ring.end(), Slot{});
    m_next = 0;
    m_filled = 0;
    m_fresh = 0;
    m_frozenNext = 0;
}

uint16_t
RepsPathSelector::Explore(uint16_t basePort)
{
    return SpacePort(basePort, Draw(GetPaths()));
}

void
RepsPathSelector::Remember(uint16_t entropy)
{
    Slot& slot = m_ring[m_next];
    if (!slot.fresh)
    {
        ++m_fresh; // else the newest overwrites the oldest fresh one: as many fresh
    }
    slot = Slot{entropy, true};
    m_next = (m_next + 1) % m_ring.size();
    m_filled = std::min<uint32_t>(m_filled + 1, m_ring.size());
}

void
RepsPathSelector::MaybeThaw(Time now)
{
    if (m_frozen && now > m_thawAt)
    {
        m_frozen = false;
        Clear();
        m_exploreLeft = m_exploreAfterFreeze;
    }
}

uint16_t
RepsPathSelector::DoNextEntropy(uint16_t basePort, uint32_t /* psn */, Time /* now */)
{
    if (m_exploreLeft > 0)
    {
        --m_exploreLeft;
        return Explore(basePort);
    }
    if (m_frozen)
    {
        if (m_filled == 0)
        {
            return Explore(basePort);
        }
        // Cycle through every entropy known to have worked, reused or not.
        Slot& slot = m_ring[m_frozenNext];
        if (slot.fresh)
        {
            slot.fresh = false;
            --m_fresh;
        }
        m_frozenNext = (m_frozenNext + 1) % m_filled;
        return slot.entropy;
    }
    if (m_fresh == 0)
    {
        return Explore(basePort);
    }
    // The fresh slots are the m_fresh ones before m_next: reuse the earliest of them.
    const uint32_t size = m_ring.size();
    Slot& slot = m_ring[(m_next + size - m_fresh) % size];
    slot.fresh = false;
    --m_fresh;
    return slot.entropy;
}

void
RepsPathSelector::DoOnAck(uint16_t entropy, bool ecnEcho, Time now)
{
    MaybeThaw(now);
    if (!ecnEcho)
    {
        Remember(entropy);
    }
}

void
RepsPathSelector::DoOnNack(uint16_t /* entropy */, Time now)
{
    MaybeThaw(now);
}

void
RepsPathSelector::DoOnTimeout(uint16_t /* entropy */, Time now)
{
    if (!m_frozen && m_exploreLeft == 0)
    {
        m_frozen = true;
        m_thawAt = now + m_freezeTime;
    }
    MaybeThaw(now);
}

} // namespace ns3
