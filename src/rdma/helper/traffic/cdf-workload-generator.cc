/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/cdf-workload-generator.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CdfWorkloadGenerator");

std::vector<uint32_t>
CdfWorkloadGenerator::Candidates(uint32_t sender) const
{
    std::vector<uint32_t> out;
    for (uint32_t r : receivers)
    {
        if (r == sender)
        {
            continue;
        }
        if (destination == Destination::OTHER_RACK && rackOf.at(r) == rackOf.at(sender))
        {
            continue;
        }
        out.push_back(r);
    }
    return out;
}

void
CdfWorkloadGenerator::LoadOnHostLinks(double load, const std::vector<double>& hostBitRate)
{
    NS_ABORT_MSG_IF(hostBitRate.size() != senders.size(), "one host rate per sender");
    senderBitRate.clear();
    for (double r : hostBitRate)
    {
        senderBitRate.push_back(load * r);
    }
}

bool
CdfWorkloadGenerator::LoadOnUplinks(double load, const std::vector<double>& uplinkBitRate)
{
    // Per rack: the sum over its senders of the share of their flows that leave it. The
    // counts come from a tally of the receivers per rack (each receiver is listed once),
    // not from each sender's candidate list: that would take senders x receivers steps,
    // minutes for a fabric of 50,000 hosts, before the scenario is even checked.
    std::map<uint32_t, uint64_t> receiversInRack;
    std::vector<bool> isReceiver(rackOf.size(), false);
    for (uint32_t r : receivers)
    {
        ++receiversInRack[rackOf.at(r)];
        isReceiver.at(r) = true;
    }
    std::map<uint32_t, double> leaving;
    std::vector<double> share;
    for (uint32_t s : senders)
    {
        const uint64_t out = receivers.size() - receiversInRack[rackOf.at(s)];
        // Candidates(s): every receiver but s, or (OTHER_RACK) those outside s's rack.
        const uint64_t candidates = destination == Destination::OTHER_RACK
                                        ? out
                                        : receivers.size() - (isReceiver.at(s) ? 1 : 0);
        share.push_back(candidates == 0 ? 0.0 : double(out) / double(candidates));
        leaving[rackOf.at(s)] += share.back();
    }
    std::vector<double> rates;
    for (uint32_t i = 0; i < senders.size(); ++i)
    {
        const uint32_t rack = rackOf.at(senders[i]);
        if (leaving[rack] <= 0)
        {
            return false;
        }
        rates.push_back(load * uplinkBitRate.at(rack) / leaving[rack]);
    }
    senderBitRate = rates;
    return true;
}

std::vector<FlowSpec>
CdfWorkloadGenerator::Generate(Ptr<UniformRandomVariable> rng) const
{
    NS_ABORT_MSG_IF(!cdf, "CdfWorkloadGenerator: no flow-size CDF");
    NS_ABORT_MSG_IF(senderBitRate.size() != senders.size(),
                    "CdfWorkloadGenerator: one rate per sender");
    const double mean = cdf->Mean();
    const double begin = start.GetSeconds();
    const double end = stop.GetSeconds();
    std::vector<FlowSpec> flows;
    for (uint32_t i = 0; i < senders.size(); ++i)
    {
        const std::vector<uint32_t> candidates = Candidates(senders[i]);
        const double lambda = senderBitRate[i] / 8 / mean; // flows per second
        if (candidates.empty() || lambda <= 0)
        {
            continue;
        }
        // Time is kept in double seconds and cut to nanoseconds per flow, so that the
        // rounding never accumulates over a long sequence.
        double t = begin;
        while (true)
        {
            t += -std::log(1 - rng->GetValue()) / lambda;
            if (t >= end)
            {
                break;
            }
            FlowSpec f;
            f.src = senders[i];
            f.bytes = cdf->Sample(rng->GetValue());
            const auto pick = static_cast<size_t>(rng->GetValue() * double(candidates.size()));
            f.dst = candidates[std::min(pick, candidates.size() - 1)];
            // Truncated, so that start <= time < stop holds in whole nanoseconds too.
            f.start = NanoSeconds(static_cast<int64_t>(std::floor(t * 1e9)));
            f.priority = priority;
            f.kind = FlowKind::CDF;
            flows.push_back(f);
        }
    }
    std::stable_sort(flows.begin(), flows.end(), [](const FlowSpec& a, const FlowSpec& b) {
        return a.start < b.start;
    });
    NS_LOG_INFO("generated " << flows.size() << " flows");
    return flows;
}

} // namespace ns3
