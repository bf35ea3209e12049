/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/path-selector.h"

#include "ns3/hash-constants.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathSelector");
NS_OBJECT_ENSURE_REGISTERED(PathSelector);

namespace
{
/// The low bits of the multiplicative hash dropped before taking the space's offset.
constexpr uint32_t kOffsetHashShift = 12;
/// htsim's default number of entropies per connection (main_uec.cpp, path_entropy_size).
constexpr uint32_t kHtsimPaths = 64;
} // namespace

TypeId
PathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PathSelector")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddAttribute("Paths",
                          "Entropies (UDP source ports) in a QP's space, 1 to 16384 (htsim's "
                          "default: 64, main_uec.cpp -paths).",
                          UintegerValue(kHtsimPaths),
                          MakeUintegerAccessor(&PathSelector::m_paths),
                          MakeUintegerChecker<uint32_t>(1, kPortCount))
            .AddTraceSource("Choice",
                            "The entropy chosen for a data packet (QP's own port, PSN, "
                            "entropy); not fired by a policy that keeps every packet on "
                            "its QP's port (KeepsQpPort).",
                            MakeTraceSourceAccessor(&PathSelector::m_choiceTrace),
                            "ns3::PathSelector::ChoiceTracedCallback");
    return tid;
}

PathSelector::PathSelector()
    : m_paths(kHtsimPaths),
      m_basePort(0),
      m_rng(0)
{
}

void
PathSelector::Init(uint16_t basePort, uint64_t seed)
{
    m_basePort = basePort;
    m_rng = seed;
    DoInit();
}

uint16_t
PathSelector::NextEntropy(uint16_t basePort, uint32_t psn, Time now)
{
    const uint16_t entropy = DoNextEntropy(basePort, psn, now);
    m_choiceTrace(basePort, psn, entropy);
    return entropy;
}

void
PathSelector::OnAck(uint16_t entropy, bool ecnEcho, Time now)
{
    DoOnAck(entropy, ecnEcho, now);
}

void
PathSelector::OnNack(uint16_t entropy, Time now)
{
    DoOnNack(entropy, now);
}

void
PathSelector::OnTimeout(uint16_t entropy, Time now)
{
    DoOnTimeout(entropy, now);
}

bool
PathSelector::IsPerQp() const
{
    return true;
}

bool
PathSelector::UsesFeedback() const
{
    return false;
}

bool
PathSelector::KeepsQpPort() const
{
    return false;
}

uint32_t
PathSelector::GetPaths() const
{
    return m_paths;
}

uint16_t
PathSelector::GetBasePort() const
{
    return m_basePort;
}

namespace
{
/// Where a QP's space starts in the dynamic range: a hash of its own port, so that two
/// QPs' spaces are unrelated.
uint32_t
SpaceOffset(uint16_t basePort)
{
    return ((uint32_t(basePort) * rdmahash::kMix16) * rdmahash::kFibonacci32 >> kOffsetHashShift) %
           PathSelector::kPortCount;
}
} // namespace

uint16_t
PathSelector::SpacePort(uint16_t basePort, uint32_t index)
{
    return static_cast<uint16_t>(kPortFirst + (SpaceOffset(basePort) + index) % kPortCount);
}

uint32_t
PathSelector::SpaceIndex(uint16_t basePort, uint16_t port, uint32_t paths)
{
    if (port < kPortFirst)
    {
        return kNoIndex;
    }
    const uint32_t index = (port - kPortFirst + kPortCount - SpaceOffset(basePort)) % kPortCount;
    return index < paths ? index : kNoIndex;
}

uint32_t
PathSelector::Draw(uint32_t n)
{
    // splitmix64: a full-period sequence from any seed, so the QP needs no ns-3 stream.
    m_rng += rdmahash::kGolden64;
    return static_cast<uint32_t>((rdmahash::SplitMix64(m_rng) >> 32) * n >> 32);
}

void
PathSelector::DoOnAck(uint16_t /* entropy */, bool /* ecnEcho */, Time /* now */)
{
}

void
PathSelector::DoOnNack(uint16_t /* entropy */, Time /* now */)
{
}

void
PathSelector::DoOnTimeout(uint16_t /* entropy */, Time /* now */)
{
}

void
PathSelector::DoInit()
{
}

} // namespace ns3
