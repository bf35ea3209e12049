/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/oblivious-path-selector.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ObliviousPathSelector");
NS_OBJECT_ENSURE_REGISTERED(ObliviousPathSelector);

TypeId
ObliviousPathSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ObliviousPathSelector")
                            .SetParent<PathSelector>()
                            .SetGroupName("Rdma")
                            .AddConstructor<ObliviousPathSelector>();
    return tid;
}

ObliviousPathSelector::ObliviousPathSelector()
    : m_step(0),
      m_offset(0)
{
}

std::string
ObliviousPathSelector::GetName() const
{
    return "oblivious";
}

void
ObliviousPathSelector::DoInit()
{
    m_step = 0;
    m_offset = Draw(GetPaths());
}

uint32_t
ObliviousPathSelector::NextIndex()
{
    const uint32_t index = (m_offset + m_step) % GetPaths();
    if (++m_step == GetPaths())
    {
        m_step = 0;
        m_offset = Draw(GetPaths());
    }
    return index;
}

uint16_t
ObliviousPathSelector::DoNextEntropy(uint16_t basePort, uint32_t /* psn */, Time /* now */)
{
    return SpacePort(basePort, NextIndex());
}

} // namespace ns3
