/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/bitmap-path-selector.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BitmapPathSelector");
NS_OBJECT_ENSURE_REGISTERED(BitmapPathSelector);

TypeId
BitmapPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BitmapPathSelector")
            .SetParent<ObliviousPathSelector>()
            .SetGroupName("Rdma")
            .AddConstructor<BitmapPathSelector>()
            .AddAttribute("EcnPenalty",
                          "Penalty (rounds skipped) added by an ACK with an ECN echo (htsim "
                          "UecMpBitmap: 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&BitmapPathSelector::m_ecnPenalty),
                          MakeUintegerChecker<uint32_t>(0, 255))
            .AddAttribute("NackPenalty",
                          "Penalty (rounds skipped) added by a NACK of a trimmed packet "
                          "(htsim UecMpBitmap: 4).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&BitmapPathSelector::m_nackPenalty),
                          MakeUintegerChecker<uint32_t>(0, 255))
            .AddAttribute("MaxPenalty",
                          "Largest penalty (rounds skipped), set by a timeout (htsim "
                          "UecMpBitmap: 15).",
                          UintegerValue(15),
                          MakeUintegerAccessor(&BitmapPathSelector::m_maxPenalty),
                          MakeUintegerChecker<uint32_t>(1, 255));
    return tid;
}

BitmapPathSelector::BitmapPathSelector()
    : m_ecnPenalty(1),
      m_nackPenalty(4),
      m_maxPenalty(15)
{
}

bool
BitmapPathSelector::UsesFeedback() const
{
    return true;
}

std::string
BitmapPathSelector::GetName() const
{
    return "bitmap";
}

uint8_t
BitmapPathSelector::GetPenalty(uint32_t index) const
{
    return index < m_penalty.size() ? m_penalty[index] : 0;
}

void
BitmapPathSelector::DoInit()
{
    ObliviousPathSelector::DoInit();
    m_penalty.assign(GetPaths(), 0);
}

uint16_t
BitmapPathSelector::DoNextEntropy(uint16_t basePort, uint32_t /* psn */, Time /* now */)
{
    uint32_t index = NextIndex();
    bool decayed = false;
    // At most one round of skips: with every entropy penalized the packet must still go.
    for (uint32_t skipped = 0; m_penalty[index] > 0 && skipped < GetPaths(); ++skipped)
    {
        if (!decayed)
        {
            --m_penalty[index];
            decayed = true;
        }
        index = NextIndex();
    }
    return SpacePort(basePort, index);
}

void
BitmapPathSelector::Penalize(uint16_t entropy, uint32_t penalty)
{
    const uint32_t index = SpaceIndex(GetBasePort(), entropy, GetPaths());
    if (index == kNoIndex)
    {
        return; // not of this space (sent before a change of policy): no path to blame
    }
    m_penalty[index] =
        static_cast<uint8_t>(std::min<uint32_t>(m_penalty[index] + penalty, m_maxPenalty));
}

void
BitmapPathSelector::DoOnAck(uint16_t entropy, bool ecnEcho, Time /* now */)
{
    if (ecnEcho)
    {
        Penalize(entropy, m_ecnPenalty);
    }
}

void
BitmapPathSelector::DoOnNack(uint16_t entropy, Time /* now */)
{
    Penalize(entropy, m_nackPenalty);
}

void
BitmapPathSelector::DoOnTimeout(uint16_t entropy, Time /* now */)
{
    Penalize(entropy, m_maxPenalty);
}

} // namespace ns3
