/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/incast-generator.h"

namespace ns3
{

std::vector<FlowSpec>
IncastGenerator::Generate(Ptr<UniformRandomVariable> rng) const
{
    std::vector<FlowSpec> flows;
    flows.reserve(senders.size() * qpsPerSender);
    const bool unbounded = until.IsStrictlyPositive();
    for (uint32_t s : senders)
    {
        for (uint32_t q = 0; q < qpsPerSender; ++q)
        {
            FlowSpec f;
            f.src = s;
            f.dst = receiver;
            f.priority = priority;
            f.kind = FlowKind::INCAST;
            f.start = start;
            if (jitter.IsStrictlyPositive())
            {
                f.start += NanoSeconds(
                    static_cast<int64_t>(rng->GetValue(0, double(jitter.GetNanoSeconds()))));
            }
            f.bytes = unbounded ? RdmaMessage::kUnbounded : messageBytes;
            f.stop = until;
            flows.push_back(f);
        }
    }
    return flows;
}

} // namespace ns3
