/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/output-stage.h"

#include "ns3/cc-registry.h"
#include "ns3/cc-sampler.h"
#include "ns3/output-file.h"
#include "ns3/port-sampler.h"
#include "ns3/rdma-ranks.h"
#include "ns3/rdma-sim.h"
#include "ns3/scenario-access.h"
#include "ns3/switch-verdict.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sys/resource.h>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

namespace
{
/// Nearest-rank percentile \p q of \p v (0 if empty).
double
Percentile(std::vector<int64_t> v, double q)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const double rank = std::ceil(q * double(v.size()));
    const std::size_t i = rank < 1 ? 0 : std::min(v.size(), std::size_t(rank)) - 1;
    return double(v[i]);
}

/// Mean of \p v (0 if empty).
double
Mean(const std::vector<int64_t>& v)
{
    double sum = 0;
    for (int64_t x : v)
    {
        sum += double(x);
    }
    return v.empty() ? 0.0 : sum / double(v.size());
}

/// links.csv: both ends of every link (RdmaTopology::WriteLinks), the whole fabric on
/// every rank: rank 0's is the file.
const OutputFileRegistration g_linksCsv(
    {"links.csv",
     {"node", "port", "node_kind", "peer_node", "peer_port", "peer_kind", "rate_bps", "delay_ns"},
     {},
     "",
     OutputFile::Merge::RANK_ZERO,
     64, // bytes a row: both ends, rate and delay, rounded up
     [](const json&, const SizeGuard::Estimate& e) {
         return OutputFile::Rows{e.links, e.fabricKey};
     },
     nullptr,
     60});

/// Time between uplink-meter windows when output.port_sample_us is 0.
const Time kDefaultUplinkWindow = MicroSeconds(10);

Time
UplinkWindow(const json& s)
{
    return Num(s, "output.port_sample_us") > 0 ? Us(Num(s, "output.port_sample_us"))
                                               : kDefaultUplinkWindow;
}

/// Every switch port's counters added up (the per-frame tallies left empty).
RdmaSwitch::PortStats
SwitchPortTotals(const RdmaTopology& topo)
{
    RdmaSwitch::PortStats t;
    for (uint32_t sw : topo.GetLocalSwitches())
    {
        Ptr<RdmaSwitch> x = topo.GetSwitch(sw);
        for (uint32_t p = 0; p < x->GetNPorts(); ++p)
        {
            const RdmaSwitch::PortStats& ps = x->GetPortStats(p);
            t.drops += ps.drops;
            t.pauseFrames += ps.pauseFrames;
            t.pauseEpisodes += ps.pauseEpisodes;
            t.pausesPerPacketRule += ps.pausesPerPacketRule;
            t.resumeFrames += ps.resumeFrames;
            t.ecnMarked += ps.ecnMarked;
            t.trims += ps.trims;
            for (std::size_t r = 0; r < kDropReasons; ++r)
            {
                t.dropsByReason[r] += ps.dropsByReason[r];
                t.trimsByReason[r] += ps.trimsByReason[r];
            }
            for (std::size_t r = 0; r < kMarkReasons; ++r)
            {
                t.marksByReason[r] += ps.marksByReason[r];
            }
        }
    }
    return t;
}

/// Every NIC's counters added up.
RdmaNic::Stats
NicTotals(const RdmaTopology& topo)
{
    RdmaNic::Stats nic;
    for (uint32_t h : topo.GetLocalHosts())
    {
        const RdmaNic::Stats& st = topo.GetNic(h)->GetStats();
        nic.payloadBytesSent += st.payloadBytesSent;
        nic.payloadBytesDelivered += st.payloadBytesDelivered;
        nic.dataPackets += st.dataPackets;
        nic.retransmittedPackets += st.retransmittedPackets;
        nic.timeouts += st.timeouts;
        nic.cnpsSent += st.cnpsSent;
        nic.nacksSent += st.nacksSent;
        nic.outOfOrderPackets += st.outOfOrderPackets;
        nic.trimmedReceived += st.trimmedReceived;
    }
    return nic;
}

/// The NICs' counters \p nic into \p sum (goodput over the run ending at \p end).
void
SummarizeNics(json& sum, const RdmaNic::Stats& nic, Time end)
{
    sum["bytes_sent"] = nic.payloadBytesSent;
    sum["bytes_delivered"] = nic.payloadBytesDelivered;
    sum["goodput_gbps"] =
        end.IsStrictlyPositive() ? nic.payloadBytesDelivered * 8 / end.GetSeconds() / 1e9 : 0.0;
    sum["data_packets"] = nic.dataPackets;
    sum["retransmitted_packets"] = nic.retransmittedPackets;
    sum["timeouts"] = nic.timeouts;
    sum["nacks"] = nic.nacksSent;
    sum["out_of_order_packets"] = nic.outOfOrderPackets;
    sum["trimmed_packets_received"] = nic.trimmedReceived;
    sum["cnps"] = nic.cnpsSent;
}

/// The switch ports' counters \p ports into \p sum; drops by link-down are the fabric's
/// \p linkDownDrops.
void
SummarizeSwitchPorts(json& sum, const RdmaSwitch::PortStats& ports, uint64_t linkDownDrops)
{
    std::array<uint64_t, kDropReasons> dropsByReason = ports.dropsByReason;
    const std::array<uint64_t, kMarkReasons>& marksByReason = ports.marksByReason;
    sum["ecn_marked_packets"] = ports.ecnMarked;
    sum["drops"] = ports.drops;
    sum["link_down_drops"] = linkDownDrops;
    dropsByReason[static_cast<std::size_t>(DropReason::LINK_DOWN)] = linkDownDrops;
    for (std::size_t r = 0; r < kDropReasons; ++r)
    {
        sum["drops_by_reason"][DropReasonName(static_cast<DropReason>(r))] = dropsByReason[r];
    }
    for (std::size_t r = 0; r < kMarkReasons; ++r)
    {
        sum["marks_by_reason"][MarkReasonName(static_cast<MarkReason>(r))] = marksByReason[r];
    }
    // Packet trimming: refused DATA frames forwarded as their header, by the reason the
    // whole frame was refused (only the reasons that occurred: 0 trims, an empty object).
    sum["trimmed_packets"] = ports.trims;
    sum["trims_by_reason"] = json::object();
    for (std::size_t r = 0; r < kDropReasons; ++r)
    {
        if (ports.trimsByReason[r] > 0)
        {
            sum["trims_by_reason"][DropReasonName(static_cast<DropReason>(r))] =
                ports.trimsByReason[r];
        }
    }
    sum["pfc_pause_frames"] = ports.pauseFrames;
    sum["pfc_pause_episodes"] = ports.pauseEpisodes;
    sum["pfc_pause_frames_per_packet_rule"] = ports.pausesPerPacketRule;
    sum["pfc_resume_frames"] = ports.resumeFrames;
}

} // namespace

void
OutputStage::SummarizeLatencies(json& sum,
                                const std::vector<int64_t>& probes,
                                const std::vector<int64_t>& small)
{
    sum["probe_latency_mean_ns"] = Mean(probes);
    sum["probe_latency_p50_ns"] = Percentile(probes, 0.5);
    sum["probe_latency_p99_ns"] = Percentile(probes, 0.99);
    // Messages of a few packets (not probes), apart from the transfers around them.
    sum["small_flows_completed"] = small.size();
    sum["small_flow_fct_mean_ns"] = Mean(small);
    sum["small_flow_fct_p99_ns"] = Percentile(small, 0.99);
}

OutputStage::OutputStage(const json& s, RdmaTopology& topo, TrafficDriver& driver, RunOutput& out)
    : m_scenario(s),
      m_topo(topo),
      m_driver(driver),
      // Over ranks ordered by node, rows carry their event's place (RankMerge drops it).
      m_recorder(out.Stream("fct.csv"),
                 out.Stream("pfc.csv"),
                 RdmaRanks::Size() > 1 && RdmaSim::OrdersByNode()),
      m_queues(nullptr),
      m_uplinks(topo, UplinkWindow(s)),
      m_ledger(topo),
      m_stall(topo, driver),
      m_pfcSafety(s, topo),
      m_pcap(s, topo, out)
{
    driver.SetRecordCallback(MakeCallback(&RunRecorder::OnRecord, &m_recorder));
    for (uint32_t sw : topo.GetLocalSwitches())
    {
        topo.GetSwitch(sw)->TraceConnectWithoutContext(
            "Pfc",
            MakeCallback(&RunRecorder::OnPfc, &m_recorder, sw));
        if (Ptr<PfcWatchdog> wd = topo.GetSwitch(sw)->GetPfcWatchdog())
        {
            wd->TraceConnectWithoutContext("Storm",
                                           MakeCallback(&RunRecorder::OnStorm, &m_recorder, sw));
        }
    }
    topo.WriteLinks(out.Stream("links.csv"));
    auto queues = std::make_unique<QueueSampler>(topo,
                                                 out.Stream("queue.csv"),
                                                 Us(Num(s, "output.queue_sample_us")));
    m_queues = queues.get();
    m_samplers.push_back(std::move(queues));
    if (Num(s, "output.port_sample_us") > 0)
    {
        m_samplers.push_back(std::make_unique<PortSampler>(topo,
                                                           out.Stream("ports.csv"),
                                                           Us(Num(s, "output.port_sample_us"))));
    }
    const uint64_t ccQps =
        std::min<uint64_t>(Int(s, "output.cc_sample_qps"), driver.GetFlowsTotal());
    if (Num(s, "output.cc_sample_us") > 0 && ccQps > 0)
    {
        std::vector<uint64_t> ids;
        for (uint64_t i = 0; i < ccQps; ++i)
        {
            ids.push_back(i * driver.GetFlowsTotal() / ccQps);
        }
        if (Str(s, "output.cc_sample_flows") == "largest")
        {
            // The largest flows (ties by id): their CC state is what a figure shows.
            std::vector<uint64_t> all(driver.GetFlowsTotal());
            for (uint64_t i = 0; i < all.size(); ++i)
            {
                all[i] = i;
            }
            std::stable_sort(all.begin(), all.end(), [&driver](uint64_t a, uint64_t b) {
                return driver.GetFlowBytes(a) > driver.GetFlowBytes(b);
            });
            ids.assign(all.begin(), all.begin() + ccQps);
        }
        for (uint64_t id : ids)
        {
            m_ccQps.push_back(driver.GetFlowQp(id));
        }
        m_samplers.push_back(std::make_unique<CcSampler>(topo,
                                                         m_ccQps,
                                                         out.Stream("cc.csv"),
                                                         Us(Num(s, "output.cc_sample_us"))));
    }
    for (const OutputFile* file : OutputFiles::All())
    {
        if (file->make)
        {
            if (std::unique_ptr<OutputWriter> writer = file->make(s, topo, out))
            {
                m_writers.push_back(std::move(writer));
            }
        }
    }
}

void
OutputStage::Start()
{
    for (auto& sampler : m_samplers)
    {
        sampler->Start();
    }
    m_uplinks.Start();
    m_pfcSafety.Start();
    for (auto& writer : m_writers)
    {
        writer->Start();
    }
}

void
OutputStage::Stop()
{
    for (auto& sampler : m_samplers)
    {
        sampler->Stop();
    }
    m_uplinks.Stop();
    m_stall.ReadDeliveries();
    m_pcap.Stop();
}

json
OutputStage::Summarize(Time end, const Timing& timing) const
{
    const json& s = m_scenario;
    const RdmaNic::Stats nic = NicTotals(m_topo);
    uint64_t forwarded = 0, maxQueue = 0;
    for (uint32_t sw : m_topo.GetLocalSwitches())
    {
        Ptr<RdmaSwitch> x = m_topo.GetSwitch(sw);
        forwarded += x->GetForwardedFrames();
        maxQueue = std::max(maxQueue, x->GetMmu()->GetMaxEgressBytes());
    }
    const RdmaSwitch::PortStats ports = SwitchPortTotals(m_topo);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);

    json sum;
    sum["scenario"] = Str(s, "name");
    sum["sim_time_s"] = end.GetSeconds();
    sum["wall_s"] = timing.wallSeconds;
    sum["cpu_s"] = timing.cpuSeconds;
    sum["events"] = timing.events;
    sum["events_per_s"] = timing.wallSeconds > 0 ? timing.events / timing.wallSeconds : 0.0;
    sum["packets_forwarded"] = forwarded;
    sum["peak_rss_mb"] = ru.ru_maxrss / 1024.0;
    sum["flows_total"] = m_driver.GetFlowsTotal();
    sum["flows_completed"] = m_driver.GetFlowsCompleted();
    sum["all_flows_completed"] = m_driver.GetFlowsCompleted() == m_driver.GetFlowsTotal();
    SummarizeNics(sum, nic, end);
    // Marks and CNPs happen whenever ECN is on; whether anyone acts on them depends on
    // the controller (analysis notes it, with no list of algorithms of its own).
    sum["cc_reacts_to_cnp"] = CcRegistry::ReactsToCnp(Str(s, "cc.algorithm"));
    SummarizeSwitchPorts(sum, ports, m_topo.GetLinkDownDrops());
    sum["max_queue_bytes"] = maxQueue;
    sum["mean_queue_bytes"] = m_queues->GetMeanLargestQueue();
    if (!m_topo.GetUplinkTxBytes().empty())
    {
        sum["uplink_imbalance_max"] = m_uplinks.GetRunImbalanceMax();
        sum["uplink_imbalance_mean"] = m_uplinks.GetRunImbalanceMean();
        sum["uplink_imbalance_window_mean"] = m_uplinks.GetWindowImbalanceMean();
    }
    sum["base_rtt_us"] = m_topo.GetMaxBaseRtt().GetSeconds() * 1e6;
    sum["probes_completed"] = m_driver.GetProbesCompleted();
    SummarizeLatencies(sum, m_recorder.GetProbeFcts(), m_recorder.GetSmallFlowFcts());
    SummarizeHostRx(sum);
    m_stall.Summarize(sum, end);
    m_pfcSafety.Summarize(sum);
    sum["conservation"] = m_ledger.Report();
    return sum;
}

void
OutputStage::SummarizeHostRx(nlohmann::json& sum) const
{
    uint64_t packets = 0;
    Time total;
    Time longest;
    bool modelled = false;
    for (uint32_t h : m_topo.GetLocalHosts())
    {
        if (Ptr<HostRxModel> host = m_topo.GetNic(h)->GetHostRx())
        {
            modelled = true;
            packets += host->GetPackets();
            total += host->GetTotalDelay();
            longest = std::max(longest, host->GetMaxDelay());
        }
    }
    if (modelled)
    {
        sum["host_rx"] = {
            {"packets", packets},
            {"mean_delay_us", packets ? total.GetSeconds() * 1e6 / double(packets) : 0.0},
            {"max_delay_us", longest.GetSeconds() * 1e6}};
    }
}

void
OutputStage::KeepRankState()
{
    m_queues->KeepLargestPerSample();
    m_uplinks.KeepWindows();
}

json
OutputStage::RankState() const
{
    int64_t hostRxDelayNs = 0;
    for (uint32_t h : m_topo.GetLocalHosts())
    {
        if (Ptr<HostRxModel> host = m_topo.GetNic(h)->GetHostRx())
        {
            hostRxDelayNs += host->GetTotalDelay().GetNanoSeconds();
        }
    }
    return json{{"cc_qps", m_ccQps},
                {"queue_largest", m_queues->GetLargestPerSample()},
                {"queue_sample_ns", Us(Num(m_scenario, "output.queue_sample_us")).GetNanoSeconds()},
                {"uplink_tx_bytes", m_topo.GetUplinkTxBytes()},
                {"uplink_windows", m_uplinks.GetWindows()},
                {"uplink_window_ns", UplinkWindow(m_scenario).GetNanoSeconds()},
                {"probe_fct_ns", m_recorder.GetProbeFcts()},
                {"small_fct_ns", m_recorder.GetSmallFlowFcts()},
                {"host_rx_delay_ns", hostRxDelayNs}};
}

std::string
OutputStage::WriteEndFiles(RunOutput& out, Time end)
{
    m_stall.WriteUnfinished(out.Stream("unfinished.csv"));
    for (auto& writer : m_writers)
    {
        writer->Finish(end);
    }
    return m_stall.StallMessage(end);
}

std::string
OutputStage::DeadlockMessage() const
{
    return m_pfcSafety.DeadlockMessage();
}

} // namespace ns3
