/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RankMerge, the summaries' side and the collective merge of a run's outputs; the CSV
 * files' merge is in rank-merge-csv.cc.
 */
#include "ns3/rank-merge.h"

#include "ns3/abort.h"
#include "ns3/output-file.h"
#include "ns3/output-stage.h"
#include "ns3/rdma-ranks.h"
#include "ns3/stall-report.h"
#include "ns3/uplink-meter.h"

#include <algorithm>

namespace ns3
{

using json = nlohmann::json;

namespace
{
/// Summary counters: the run's is the sum of the ranks' (objects: member by member).
const char* const kSummed[] = {"events",
                               "packets_forwarded",
                               "flows_completed",
                               "bytes_sent",
                               "bytes_delivered",
                               "data_packets",
                               "retransmitted_packets",
                               "timeouts",
                               "nacks",
                               "out_of_order_packets",
                               "cnps",
                               "ecn_marked_packets",
                               "drops",
                               "link_down_drops",
                               "drops_by_reason",
                               "trimmed_packets",
                               "trims_by_reason",
                               "trimmed_packets_received",
                               "marks_by_reason",
                               "pfc_pause_frames",
                               "pfc_pause_episodes",
                               "pfc_pause_frames_per_packet_rule",
                               "pfc_resume_frames",
                               "probes_completed",
                               "pfc_deadlocks_found",
                               "pfc_deadlocks",
                               "pfc_watchdog",
                               "cpu_s"};

/// Summary extremes: the run's is the largest of the ranks'.
const char* const kLargest[] = {"wall_s", "peak_rss_mb", "max_queue_bytes", "last_delivery_ns"};

/// \p a + \p b: numbers added, objects member by member, arrays joined; null is
/// nothing; anything else (a string, a flag) is \p a's.
json
Add(const json& a, const json& b)
{
    if (a.is_null() || b.is_null())
    {
        return a.is_null() ? b : a;
    }
    if (a.is_object())
    {
        json r = a;
        for (auto it = b.begin(); it != b.end(); ++it)
        {
            r[it.key()] = Add(r.value(it.key(), json()), it.value());
        }
        return r;
    }
    if (a.is_array())
    {
        json r = a;
        r.insert(r.end(), b.begin(), b.end());
        return r;
    }
    if (a.is_number_float() || b.is_number_float())
    {
        return a.get<double>() + b.get<double>();
    }
    if (a.is_number_unsigned() && b.is_number_unsigned())
    {
        return a.get<uint64_t>() + b.get<uint64_t>();
    }
    if (a.is_number())
    {
        return a.get<int64_t>() + b.get<int64_t>();
    }
    return a;
}

/// The larger of \p a and \p b (null is nothing).
json
Larger(const json& a, const json& b)
{
    if (a.is_null() || b.is_null())
    {
        return a.is_null() ? b : a;
    }
    return b.get<double>() > a.get<double>() ? b : a;
}

/// The merged ledger: the ranks' sums, each rank's ends of the links between ranks made
/// wires again, and the balance checked on the whole.
json
MergeConservation(const std::vector<json>& ranks)
{
    json c;
    for (const json& r : ranks)
    {
        c = Add(c, r["summary"]["conservation"]);
    }
    bool wiresMatch = true;
    if (c.contains("cut_wires"))
    {
        json& wires = c["in_flight"]["wires"];
        for (const char* field : {"frames", "bytes", "data_payload_bytes"})
        {
            const uint64_t sent = c["cut_wires"]["sent"][field].get<uint64_t>();
            const uint64_t arrived = c["cut_wires"]["arrived"][field].get<uint64_t>();
            wiresMatch = wiresMatch && arrived <= sent;
            wires[field] = wires[field].get<uint64_t>() + (arrived <= sent ? sent - arrived : 0);
        }
        c.erase("cut_wires");
    }
    bool balanced = wiresMatch && c["unaccounted_switches"].empty() &&
                    c["wire_order_mismatches"].get<uint64_t>() == 0;
    for (const char* field : {"frames", "bytes", "data_payload_bytes"})
    {
        const uint64_t accounted = c["received"][field].get<uint64_t>() +
                                   c["dropped"][field].get<uint64_t>() +
                                   c["in_flight"]["switch_queues"][field].get<uint64_t>() +
                                   c["in_flight"]["wires"][field].get<uint64_t>();
        balanced = balanced && accounted == c["sent"][field].get<uint64_t>();
    }
    c["balanced"] = balanced;
    return c;
}

/// mean_queue_bytes: per sample (up to \p end) the largest queue of any rank, averaged.
double
MeanLargestQueue(const std::vector<json>& ranks, Time end)
{
    std::vector<uint64_t> largest;
    for (const json& r : ranks)
    {
        const auto mine = r["state"]["queue_largest"].get<std::vector<uint64_t>>();
        largest.resize(std::max(largest.size(), mine.size()), 0);
        for (std::size_t i = 0; i < mine.size(); ++i)
        {
            largest[i] = std::max(largest[i], mine[i]);
        }
    }
    const int64_t interval = ranks[0]["state"]["queue_sample_ns"].get<int64_t>();
    const std::size_t samples =
        std::min<std::size_t>(largest.size(), end.GetNanoSeconds() / interval + 1);
    double sum = 0;
    for (std::size_t i = 0; i < samples; ++i)
    {
        sum += double(largest[i]);
    }
    return samples ? sum / double(samples) : 0.0;
}

/// The uplink meter's windows ending by \p end, the ranks' bytes added up.
UplinkMeter::Windows
UplinkWindows(const std::vector<json>& ranks, Time end)
{
    const int64_t window = ranks[0]["state"]["uplink_window_ns"].get<int64_t>();
    const std::size_t count = static_cast<std::size_t>(end.GetNanoSeconds() / window);
    UplinkMeter::Windows all;
    for (const json& r : ranks)
    {
        const auto mine = r["state"]["uplink_windows"].get<UplinkMeter::Windows>();
        all.resize(std::max(all.size(), std::min(count, mine.size())));
        for (std::size_t k = 0; k < all.size() && k < mine.size(); ++k)
        {
            all[k].resize(mine[k].size());
            for (std::size_t leaf = 0; leaf < mine[k].size(); ++leaf)
            {
                all[k][leaf].resize(mine[k][leaf].size(), 0);
                for (std::size_t i = 0; i < mine[k][leaf].size(); ++i)
                {
                    all[k][leaf][i] += mine[k][leaf][i];
                }
            }
        }
    }
    return all;
}

/// The figures computed again from all ranks' data, into \p sum.
void
Recompute(json& sum, const std::vector<json>& ranks, Time end)
{
    const double seconds = end.GetSeconds();
    sum["sim_time_s"] = seconds;
    const double wall = sum["wall_s"].get<double>();
    sum["events_per_s"] = wall > 0 ? sum["events"].get<double>() / wall : 0.0;
    sum["goodput_gbps"] =
        seconds > 0 ? sum["bytes_delivered"].get<double>() * 8 / seconds / 1e9 : 0.0;
    const uint64_t unfinished =
        sum["flows_total"].get<uint64_t>() - sum["flows_completed"].get<uint64_t>();
    sum["flows_unfinished"] = unfinished;
    sum["all_flows_completed"] = unfinished == 0;
    const json& last = sum["last_delivery_ns"];
    const Time threshold =
        StallReport::StallThreshold(MicroSeconds(sum["base_rtt_us"].get<double>()));
    sum["stalled_since_ns"] =
        unfinished > 0 && !last.is_null() && end - NanoSeconds(last.get<int64_t>()) >= threshold
            ? last
            : json();
    sum["mean_queue_bytes"] = MeanLargestQueue(ranks, end);
    std::vector<int64_t> probes;
    std::vector<int64_t> small;
    int64_t hostRxDelay = 0;
    std::vector<std::vector<uint64_t>> uplinks;
    for (const json& r : ranks)
    {
        const json& st = r["state"];
        const auto p = st["probe_fct_ns"].get<std::vector<int64_t>>();
        const auto s = st["small_fct_ns"].get<std::vector<int64_t>>();
        probes.insert(probes.end(), p.begin(), p.end());
        small.insert(small.end(), s.begin(), s.end());
        hostRxDelay += st["host_rx_delay_ns"].get<int64_t>();
        const auto u = st["uplink_tx_bytes"].get<std::vector<std::vector<uint64_t>>>();
        uplinks.resize(u.size());
        for (std::size_t leaf = 0; leaf < u.size(); ++leaf)
        {
            uplinks[leaf].resize(u[leaf].size(), 0);
            for (std::size_t i = 0; i < u[leaf].size(); ++i)
            {
                uplinks[leaf][i] += u[leaf][i];
            }
        }
    }
    OutputStage::SummarizeLatencies(sum, probes, small);
    if (sum.contains("uplink_imbalance_max"))
    {
        sum["uplink_imbalance_max"] = UplinkMeter::ImbalanceMax(uplinks);
        sum["uplink_imbalance_mean"] = UplinkMeter::ImbalanceMean(uplinks);
        sum["uplink_imbalance_window_mean"] =
            UplinkMeter::WindowImbalanceMean(UplinkWindows(ranks, end));
    }
    if (sum.contains("host_rx"))
    {
        const uint64_t packets = sum["host_rx"]["packets"].get<uint64_t>();
        sum["host_rx"]["mean_delay_us"] =
            packets ? double(hostRxDelay) / 1e3 / double(packets) : 0.0;
    }
    sum["conservation"] = MergeConservation(ranks);
}
} // namespace

json
RankMerge::MergeSummaries(const std::vector<json>& ranks, Time end)
{
    json sum = ranks[0]["summary"];
    json perRank = json::array();
    for (std::size_t k = 0; k < ranks.size(); ++k)
    {
        const json& mine = ranks[k]["summary"];
        perRank.push_back(ranks[k]["rank"]);
        if (k == 0)
        {
            continue;
        }
        for (const char* key : kSummed)
        {
            if (mine.contains(key))
            {
                sum[key] = Add(sum[key], mine[key]);
            }
        }
        for (const char* key : kLargest)
        {
            if (mine.contains(key))
            {
                sum[key] = Larger(sum[key], mine[key]);
            }
        }
        if (mine.contains("host_rx"))
        {
            sum["host_rx"]["packets"] = Add(sum["host_rx"]["packets"], mine["host_rx"]["packets"]);
            sum["host_rx"]["max_delay_us"] =
                Larger(sum["host_rx"]["max_delay_us"], mine["host_rx"]["max_delay_us"]);
        }
    }
    sum["ranks"]["count"] = ranks.size();
    sum["ranks"]["per_rank"] = perRank;
    Recompute(sum, ranks, end);
    return sum;
}

json
RankMerge::Merge(RunOutput& out, const json& summary, const json& state, const json& rank, Time end)
{
    const bool root = RdmaRanks::Rank() == 0;
    for (const OutputFile* file : OutputFiles::All())
    {
        if (file->merge != OutputFile::Merge::ROWS)
        {
            continue; // rank 0's copy is the file (the others' stay in their scratch)
        }
        std::string text;
        const bool written = out.Take(file->name, &text);
        std::vector<std::string> texts = RdmaRanks::Gather(written ? text : std::string());
        // The ranks that wrote the file (each text a header at least).
        texts.erase(std::remove(texts.begin(), texts.end(), std::string()), texts.end());
        if (root && !texts.empty())
        {
            // Streamed to the file: the merge holds nothing beyond the ranks' texts.
            MergeCsvTo(out.Stream(file->name),
                       texts,
                       *file,
                       end.GetNanoSeconds(),
                       state.value("cc_qps", QpOrder()));
        }
    }
    CheckDeclared(out);
    const json mine = {{"summary", summary}, {"state", state}, {"rank", rank}};
    const std::vector<std::string> texts = RdmaRanks::Gather(mine.dump());
    if (!root)
    {
        return summary;
    }
    std::vector<json> ranks;
    for (const std::string& t : texts)
    {
        ranks.push_back(json::parse(t));
    }
    return MergeSummaries(ranks, end);
}

} // namespace ns3
