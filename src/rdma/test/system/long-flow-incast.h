/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The shared system experiment of the congestion-control tests: N senders, one long
 * flow each, into one receiver on a single 100G switch (an N:1 incast), with the
 * bottleneck queue sampled every microsecond and each flow's acknowledged bytes
 * measured over a window after convergence.
 */
#ifndef RDMA_LONG_FLOW_INCAST_H
#define RDMA_LONG_FLOW_INCAST_H

#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <map>
#include <string>
#include <vector>

namespace rdmatest
{

struct LongFlowIncastOptions
{
    std::string cc = "ns3::NoCongestionControl";     ///< TypeId name
    std::map<std::string, std::string> ccAttributes; ///< attribute -> value string
    std::map<std::string, std::string> nicAttributes;
    std::string lossRecovery = "ns3::GoBackN"; ///< LossRecovery TypeId name
    uint32_t senders = 8;
    uint64_t flowBytes = 10 * 1000 * 1000;
    double rateGbps = 100;
    ns3::Time linkDelay = ns3::MicroSeconds(1);
    bool pfc = true;
    bool ecn = true;
    uint64_t kminBytes = 100 * 1024; ///< ECN thresholds at 100G (DCQCN)
    uint64_t kmaxBytes = 400 * 1024;
    double pmax = 0.2; ///< marking probability at Kmax (the MMU's default)
    uint64_t bufferBytes = 32 * 1024 * 1024;
    ns3::Time measureFrom = ns3::MilliSeconds(2); ///< fairness window and queue bound start
    ns3::Time measureTo = ns3::MilliSeconds(5);
    ns3::Time stop = ns3::MilliSeconds(200);
};

struct LongFlowIncastResult
{
    bool allCompleted = false;
    uint64_t bytesPosted = 0;
    uint64_t bytesSent = 0;      ///< unique payload bytes sent
    uint64_t bytesDelivered = 0; ///< payload bytes delivered at the receiver
    uint64_t drops = 0;
    uint64_t pauses = 0;
    uint64_t maxQueueAfter = 0;      ///< bottleneck queue max over [measureFrom, end]
    double meanQueueAfter = 0;       ///< and its mean over [measureFrom, measureTo]
    std::vector<double> goodputGbps; ///< per flow, over the measure window
    double jain = 0;                 ///< Jain's fairness index of goodputGbps
    double totalGoodputGbps = 0;
    ns3::Time baseRtt;
    ns3::Time finish; ///< time the last flow completed
};

inline double
JainIndex(const std::vector<double>& x)
{
    double sum = 0;
    double sq = 0;
    for (double v : x)
    {
        sum += v;
        sq += v * v;
    }
    return sq > 0 ? sum * sum / (x.size() * sq) : 0;
}

/// The star of \p o (its senders, the receiver host 0, one switch), finalized.
inline void
BuildLongFlowIncastFabric(const LongFlowIncastOptions& o, ns3::RdmaTopology& topo)
{
    using namespace ns3;
    ObjectFactory cc;
    cc.SetTypeId(o.cc);
    for (const auto& [k, v] : o.ccAttributes)
    {
        cc.Set(k, StringValue(v));
    }
    topo.SetCongestionControl(cc);
    topo.SetLossRecovery(ObjectFactory(o.lossRecovery));
    for (const auto& [k, v] : o.nicAttributes)
    {
        topo.SetNicAttribute(k, StringValue(v));
    }
    topo.SetMmuAttribute("PfcEnabled", BooleanValue(o.pfc));
    topo.SetMmuAttribute("EcnEnabled", BooleanValue(o.ecn));
    topo.SetMmuAttribute("Kmin", UintegerValue(o.kminBytes));
    topo.SetMmuAttribute("Kmax", UintegerValue(o.kmaxBytes));
    topo.SetMmuAttribute("Pmax", DoubleValue(o.pmax));
    topo.SetMmuAttribute("BufferSize", UintegerValue(o.bufferBytes));
    StarHelper star;
    star.hosts = o.senders + 1;
    star.hostRate = DataRate(static_cast<uint64_t>(o.rateGbps * 1e9));
    star.hostDelay = o.linkDelay;
    star.Build(topo);
    topo.Finalize();
    // Its random draws (the NICs' pacing jitter) the same whatever ran before in this
    // process: a seed, a run and streams of its own.
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    const int64_t nicStreams = topo.AssignNicStreams(0);
    const int64_t switchStreams = topo.AssignSwitchStreams(nicStreams);
    topo.AssignPintStreams(nicStreams + switchStreams); // last: the others keep theirs
}

/// The totals of a finished run into \p r: bytes sent and delivered by every NIC, the
/// switch's drops and pause frames, and the base RTT of a sender.
inline void
CountLongFlowIncast(ns3::RdmaTopology& topo, ns3::Ptr<ns3::RdmaSwitch> sw, LongFlowIncastResult& r)
{
    r.baseRtt = topo.GetBaseRtt(topo.GetHosts()[1], topo.GetHosts()[0]);
    for (uint32_t h : topo.GetHosts())
    {
        r.bytesSent += topo.GetNic(h)->GetStats().payloadBytesSent;
        r.bytesDelivered += topo.GetNic(h)->GetStats().payloadBytesDelivered;
    }
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        r.drops += sw->GetPortStats(p).drops;
        r.pauses += sw->GetPortStats(p).pauseFrames;
    }
}

inline LongFlowIncastResult
RunLongFlowIncast(const LongFlowIncastOptions& o)
{
    using namespace ns3;
    RdmaTopology topo;
    BuildLongFlowIncastFabric(o, topo);

    TrafficDriver driver(topo);
    std::vector<std::pair<uint32_t, uint32_t>> qps;
    for (uint32_t s = 1; s <= o.senders; ++s)
    {
        FlowSpec f;
        f.src = s;
        f.dst = 0;
        f.bytes = o.flowBytes;
        qps.push_back(driver.GetFlowQp(driver.AddFlow(f)));
    }
    LongFlowIncastResult r;
    r.bytesPosted = o.flowBytes * o.senders;
    driver.SetRecordCallback(Callback<void, const TrafficDriver::Record&>(
        [&r](const TrafficDriver::Record& rec) { r.finish = std::max(r.finish, rec.end); }));
    driver.SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    driver.Start();

    // Bottleneck: the switch port towards host 0 (the receiver), data class 3.
    Ptr<RdmaSwitch> sw = topo.GetSwitch(topo.GetSwitches()[0]);
    const uint32_t port = sw->GetRoute(topo.GetHosts()[0])[0];
    double queueSum = 0;
    uint64_t queueSamples = 0;
    std::vector<uint64_t> ackedAtStart(qps.size());
    std::vector<uint64_t> ackedAtEnd(qps.size());
    std::function<void()> sample;
    sample = [&]() {
        const Time now = Simulator::Now();
        const uint64_t q = sw->GetMmu()->GetEgressBytes(port, 3);
        if (now >= o.measureFrom)
        {
            r.maxQueueAfter = std::max(r.maxQueueAfter, q);
            if (now <= o.measureTo)
            {
                queueSum += double(q);
                ++queueSamples;
            }
        }
        Simulator::Schedule(MicroSeconds(1), sample);
    };
    Simulator::Schedule(MicroSeconds(1), sample);
    auto snapshot = [&](std::vector<uint64_t>* out) {
        for (size_t i = 0; i < qps.size(); ++i)
        {
            (*out)[i] = topo.GetNic(qps[i].first)->GetAckedBytes(qps[i].second);
        }
    };
    Simulator::Schedule(o.measureFrom, [&]() { snapshot(&ackedAtStart); });
    Simulator::Schedule(o.measureTo, [&]() { snapshot(&ackedAtEnd); });
    Simulator::Stop(o.stop);
    Simulator::Run();

    r.allCompleted = driver.IsDone();
    CountLongFlowIncast(topo, sw, r);
    const double window = (o.measureTo - o.measureFrom).GetSeconds();
    for (size_t i = 0; i < qps.size(); ++i)
    {
        const double g = 8.0 * (ackedAtEnd[i] - ackedAtStart[i]) / window / 1e9;
        r.goodputGbps.push_back(g);
        r.totalGoodputGbps += g;
    }
    r.jain = JainIndex(r.goodputGbps);
    r.meanQueueAfter = queueSamples ? queueSum / queueSamples : 0;
    Simulator::Destroy();
    return r;
}

} // namespace rdmatest

#endif
