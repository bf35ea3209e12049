/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/hpcc-pint.h"

#include "ns3/double.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccPint");
NS_OBJECT_ENSURE_REGISTERED(HpccPint);

TypeId
HpccPint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HpccPint")
            .SetParent<Hpcc>()
            .SetGroupName("Rdma")
            .AddConstructor<HpccPint>()
            .AddAttribute("SampleProbability",
                          "PINT's p: the probability that an ACK's value is used (the others "
                          "are ignored), so that only that fraction of ACKs needs a "
                          "computation (probability). Default 1: every ACK, no random draw.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HpccPint::m_sampleProbability),
                          MakeDoubleChecker<double>(1e-6, 1.0));
    return tid;
}

HpccPint::HpccPint()
    : m_sampleProbability(1.0),
      m_rng(nullptr)
{
}

void
HpccPint::DoInit(const CcContext& ctx)
{
    Hpcc::DoInit(ctx);
    m_rng = ctx.rng;
    if (m_rng == nullptr && m_sampleProbability < 1.0)
    {
        m_ownRng = CreateObject<UniformRandomVariable>();
        m_rng = PeekPointer(m_ownRng);
    }
}

std::string
HpccPint::DoGetName() const
{
    return "hpcc-pint";
}

uint16_t
HpccPint::DoImplementedHooks() const
{
    return HOOK_ACK | HOOK_WINDOW | HOOK_PINT;
}

void
HpccPint::DoOnAck(const CcAck& ack)
{
    if (!ack.hasPint)
    {
        return;
    }
    // PINT's p: only a fraction p of the ACKs is looked at (no draw at p = 1).
    if (m_sampleProbability < 1.0 && m_rng->GetValue() >= m_sampleProbability)
    {
        return;
    }
    // U is the value itself: the switches already averaged it over T (PintMeter).
    m_u = ack.pintU;
    ApplyWindowRule(ack);
    NS_LOG_LOGIC("U " << m_u << " W " << m_w << " Wc " << m_wc << " stage " << m_incStage);
}

} // namespace ns3
