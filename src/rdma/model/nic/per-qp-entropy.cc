/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/per-qp-entropy.h"

#include "ns3/hash-constants.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PerQpEntropy");
NS_OBJECT_ENSURE_REGISTERED(PerQpEntropy);

namespace
{
/// The low bits of the multiplicative hash dropped before taking the port.
constexpr uint32_t kEntropyHashShift = 12;
} // namespace

TypeId
PerQpEntropy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PerQpEntropy")
            .SetParent<PathSelector>()
            .SetGroupName("Rdma")
            .AddConstructor<PerQpEntropy>()
            .AddAttribute("ChangePackets",
                          "Host-side spraying: a new UDP source port every N packets of a QP "
                          "(packets); 0 = the QP's own port for every packet.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PerQpEntropy::m_changePackets),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

PerQpEntropy::PerQpEntropy()
    : m_changePackets(0)
{
}

bool
PerQpEntropy::IsPerQp() const
{
    return false;
}

bool
PerQpEntropy::KeepsQpPort() const
{
    return m_changePackets == 0;
}

std::string
PerQpEntropy::GetName() const
{
    return "per_qp";
}

uint16_t
PerQpEntropy::DoNextEntropy(uint16_t basePort, uint32_t psn, Time /* now */)
{
    if (m_changePackets == 0)
    {
        return basePort;
    }
    // The epoch's port is a hash of (QP port, epoch), spread over the dynamic range.
    const uint32_t epoch = psn / m_changePackets;
    const uint32_t mixed = (uint32_t(basePort) * rdmahash::kMix16 + epoch) * rdmahash::kFibonacci32;
    return static_cast<uint16_t>(kPortFirst + (mixed >> kEntropyHashShift) % kPortCount);
}

} // namespace ns3
