/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/size-guard.h"

#include "ns3/flow-size-cdf.h"
#include "ns3/input-fields.h"
#include "ns3/rdma-wire.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-runner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/statvfs.h>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

namespace
{
// Costs per item (bytes), measured on this module's runs (peak RSS against counts, see
// docs/design.md, "Size guards") and rounded up.
constexpr double kBase = 64e6;       ///< the process: ns-3, the module, the scenario
constexpr double kPerHost = 64e3;    ///< a host: node, NIC, device, tables
constexpr double kPerSwitch = 32e3;  ///< a switch: node, MMU, load balancer
constexpr double kPerPort = 8e3;     ///< a switch port or host link: device, channel, queues
constexpr double kPerRoute = 48;     ///< a switch's route to a host (a candidate list)
constexpr double kPerQp = 4e3;       ///< a QP: send and receive sides, controller, limiter
constexpr double kPerFlow = 256;     ///< a flow: its specification and driver state
constexpr double kPerTraceRow = 512; ///< a collective-trace row: flow, dependencies
constexpr double kQueueRow = 40;     ///< queue.csv row
constexpr double kPortRow = 32;      ///< ports.csv row
constexpr double kCcRow = 56;        ///< cc.csv row
constexpr double kFctRow = 96;       ///< fct.csv row
constexpr double kLinkRow = 64;      ///< links.csv row
constexpr double kPcapRecord = 16;   ///< pcap record header

/// Data lines of a CSV-like file (not blank, not '#' comments). The file is opened as
/// its reader would (OpenInputFile: a regular file of bounded size, else ScenarioError).
double
DataLines(const std::string& path, const std::string& what)
{
    std::ifstream in = inputfields::OpenInputFile(path, what);
    std::string line;
    double n = 0;
    while (std::getline(in, line))
    {
        const auto first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos && line[first] != '#')
        {
            ++n;
        }
    }
    return n;
}

/// Hosts in a host-set cell such as "1-7" or "1;4;9".
double
SetSize(const std::string& cell)
{
    double n = 0;
    std::stringstream ss(cell);
    std::string part;
    while (std::getline(ss, part, ';'))
    {
        const auto dash = part.find('-');
        try
        {
            n += dash == std::string::npos ? 1
                                           : std::max(0.0,
                                                      std::stod(part.substr(dash + 1)) -
                                                          std::stod(part.substr(0, dash)) + 1);
        }
        catch (const std::exception&)
        {
            n += 1;
        }
    }
    return n;
}

/// QPs of an incast-groups CSV: senders x qps_per_sender, summed over its rows.
double
IncastGroupQps(const std::string& path)
{
    std::ifstream in = inputfields::OpenInputFile(path, "incast group list");
    std::string line;
    double qps = 0;
    while (std::getline(in, line))
    {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#' || line.find("receiver") == first)
        {
            continue;
        }
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string c;
        while (std::getline(ss, c, ','))
        {
            cells.push_back(c);
        }
        double q = 1;
        try
        {
            q = cells.size() > 2 ? std::stod(cells[2]) : 1;
        }
        catch (const std::exception&)
        {
        }
        qps += (cells.size() > 1 ? SetSize(cells[1]) : 1) * q;
    }
    return qps;
}

double
ListOr(const json& s, const std::string& key, double otherwise)
{
    const json& v = At(s, key);
    return v.is_array() && !v.empty() ? double(v.size()) : otherwise;
}

std::string
Gb(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.2f GB", bytes / 1e9);
    return buf;
}
} // namespace

namespace
{
double
Total(const std::vector<SizeGuard::Part>& parts)
{
    double b = 0;
    for (const SizeGuard::Part& p : parts)
    {
        b += p.bytes;
    }
    return b;
}
} // namespace

double
SizeGuard::Estimate::MemoryBytes() const
{
    return Total(memory);
}

double
SizeGuard::Estimate::OutputBytes() const
{
    return Total(outputs);
}

const SizeGuard::Part&
SizeGuard::Estimate::Largest(const std::vector<Part>& parts)
{
    return *std::max_element(parts.begin(), parts.end(), [](const Part& a, const Part& b) {
        return a.bytes < b.bytes;
    });
}

SizeGuard::Estimate
SizeGuard::Compute(const json& s)
{
    Estimate e;
    const double hosts = ScenarioRunner::HostCount(s);
    e.hosts = hosts;
    // The fabric.
    const std::string type = Str(s, "topology.type");
    std::string fabricKey = "topology.hosts";
    double switches = 1;
    double links = hosts;
    if (type == "leaf_spine")
    {
        const double leaves = Int(s, "topology.leaves");
        const double spines = Int(s, "topology.spines");
        switches = leaves + spines;
        links = hosts + leaves * spines * Int(s, "topology.links_per_spine");
        fabricKey = "topology.leaves";
    }
    else if (type == "fat_tree")
    {
        const double k = Int(s, "topology.fat_tree.k");
        const double pods = k > 0 ? k : Int(s, "topology.fat_tree.pods");
        const double tors = k > 0 ? k / 2 : Int(s, "topology.fat_tree.tors_per_pod");
        const double aggs = k > 0 ? k / 2 : Int(s, "topology.fat_tree.aggs_per_pod");
        const double cores = k > 0 ? k * k / 4 : Int(s, "topology.fat_tree.cores");
        switches = pods * (tors + aggs) + cores;
        links = hosts + pods * tors * aggs + pods * cores;
        fabricKey = k > 0 ? "topology.fat_tree.k" : "topology.fat_tree.pods";
    }
    else if (type == "file" || type == "hpcc_file")
    {
        const double lines = DataLines(Str(s, "topology.file"), "topology file");
        switches = std::max(1.0, lines);
        links = std::max(hosts, lines);
        fabricKey = "topology.file";
    }
    e.switches = switches;
    e.links = links;
    const double ports = 2 * links;
    e.memory.push_back(
        {"fabric", kBase + hosts * kPerHost + switches * kPerSwitch + ports * kPerPort, fabricKey});
    e.memory.push_back({"routes", switches * hosts * kPerRoute, fabricKey});

    // The traffic: QPs (each flow its own unless collectives share them per pair), flows.
    double qps = 0;
    double flows = 0;
    std::string qpKey = "traffic.incast.qps_per_sender";
    auto add = [&](double n, const std::string& key) {
        flows += n;
        qps += n;
        if (n > 0 && n >= qps / 2)
        {
            qpKey = key;
        }
    };
    if (Bool(s, "traffic.incast.enabled"))
    {
        add(ListOr(s, "traffic.incast.senders", hosts - 1) *
                Int(s, "traffic.incast.qps_per_sender"),
            "traffic.incast.qps_per_sender");
    }
    if (Bool(s, "traffic.permutation.enabled"))
    {
        add(hosts, "traffic.permutation.enabled");
    }
    if (Bool(s, "traffic.probe.enabled"))
    {
        add(1, "traffic.probe.enabled");
    }
    if (!Str(s, "traffic.flows_csv").empty())
    {
        add(DataLines(Str(s, "traffic.flows_csv"), "flow list"), "traffic.flows_csv");
    }
    if (!Str(s, "traffic.hpcc_flow_file").empty())
    {
        add(DataLines(Str(s, "traffic.hpcc_flow_file"), "HPCC flow file"),
            "traffic.hpcc_flow_file");
    }
    if (!Str(s, "traffic.incast_groups_csv").empty())
    {
        add(IncastGroupQps(Str(s, "traffic.incast_groups_csv")), "traffic.incast_groups_csv");
    }
    if (Bool(s, "traffic.cdf.enabled"))
    {
        // Poisson arrivals at the target load of each sender's link (an upper bound for
        // tor_uplinks, whose senders share their uplinks).
        const double mean = std::max(1.0, FlowSizeCdf::Load(Str(s, "traffic.cdf.file")).Mean());
        const double senders = ListOr(s, "traffic.cdf.senders", hosts);
        const double bitsPerSender = Num(s, "traffic.cdf.load") *
                                     Num(s, "topology.host_rate_gbps") * 1e9 *
                                     Num(s, "traffic.cdf.duration_us") * 1e-6;
        add(senders * bitsPerSender / (8 * mean) + senders, "traffic.cdf.duration_us");
    }
    double traceRows = 0;
    if (Bool(s, "traffic.moe.enabled"))
    {
        const double ranks = Int(s, "traffic.moe.ranks");
        const double groups =
            2.0 * Int(s, "traffic.moe.layers") * Int(s, "traffic.moe.micro_batches");
        // per_pair: each rank sends to at most every other rank per phase; per_token: a
        // message per token and expert.
        const double n = Str(s, "traffic.moe.granularity") == "per_pair"
                             ? groups * ranks * std::max(1.0, ranks - 1) *
                                   Int(s, "traffic.moe.messages_per_pair")
                             : groups * ranks * Int(s, "traffic.moe.tokens_per_rank") *
                                   Int(s, "traffic.moe.top_k");
        traceRows += n;
        flows += n;
        const bool pairQps = Str(s, "traffic.collective_qps") == "per_pair";
        const double moeQps = pairQps ? ranks * (ranks - 1) : n;
        qps += moeQps;
        if (moeQps >= qps / 2)
        {
            qpKey = "traffic.moe.layers";
        }
    }
    if (!Str(s, "traffic.trace.csv").empty())
    {
        const double n = DataLines(Str(s, "traffic.trace.csv"), "collective trace");
        traceRows += n;
        flows += n;
        qps += n;
    }
    e.qps = qps;
    e.flows = flows;
    e.traceRows = traceRows;
    e.memory.push_back({"QPs", qps * kPerQp, qpKey});
    e.memory.push_back({"flows", flows * kPerFlow + traceRows * kPerTraceRow, qpKey});

    // The outputs, sampled at most until the stop time.
    const double stopUs = Num(s, "stop_time_ms") * 1000;
    const double switchPorts = ports - hosts;
    const double queueSamples = stopUs / Num(s, "output.queue_sample_us");
    // queue.csv has a row per non-empty queue: at most one class per port is assumed busy.
    e.outputs.push_back({"queue.csv",
                         queueSamples * std::min(switchPorts, 2 * qps + hosts) * kQueueRow,
                         "output.queue_sample_us"});
    if (Num(s, "output.port_sample_us") > 0)
    {
        e.outputs.push_back({"ports.csv",
                             stopUs / Num(s, "output.port_sample_us") * ports * kPortRow,
                             "output.port_sample_us"});
    }
    if (Num(s, "output.cc_sample_us") > 0)
    {
        const double sampled = std::min(double(Int(s, "output.cc_sample_qps")), flows);
        e.outputs.push_back({"cc.csv",
                             stopUs / Num(s, "output.cc_sample_us") * sampled * kCcRow,
                             "output.cc_sample_us"});
    }
    double probes = 0;
    if (Bool(s, "traffic.probe.enabled"))
    {
        probes = stopUs / Num(s, "traffic.probe.interval_us");
    }
    if (Bool(s, "output.pcap.enabled"))
    {
        // A file per captured port: every port, or the listed nodes' (each counted with
        // a switch's mean number of ports, the larger kind). Per file at most
        // output.pcap.max_packets frames, else what the port can send and receive in the
        // stop time; each frame a record header and an MTU frame.
        const double listed = double(At(s, "output.pcap.nodes").size());
        const double perSwitch = switches > 0 ? std::max(1.0, switchPorts / switches) : 1.0;
        const double files = listed > 0 ? std::min(ports, listed * perSwitch) : ports;
        const double mtu = double(Int(s, "nic.mtu_bytes"));
        const double frame = kPcapRecord + mtu + rdmawire::HeaderBytes(RdmaPacketType::DATA) +
                             rdmawire::TrailerBytes(RdmaPacketType::DATA);
        const double gbps =
            std::max(Num(s, "topology.host_rate_gbps"), Num(s, "topology.fabric_rate_gbps"));
        const double cap = double(Int(s, "output.pcap.max_packets"));
        const double fill = 2 * stopUs * 1e-6 * gbps * 1e9 / 8 / (frame - kPcapRecord);
        e.outputs.push_back({"pcap/",
                             files * (cap > 0 ? std::min(cap, fill) : fill) * frame,
                             "output.pcap.max_packets"});
    }
    e.outputs.push_back({"fct.csv", (flows + probes) * kFctRow, "stop_time_ms"});
    e.outputs.push_back({"links.csv", links * kLinkRow, fabricKey});
    return e;
}

double
SizeGuard::AvailableMemory()
{
    std::ifstream in("/proc/meminfo");
    std::string key;
    double kb = 0;
    std::string unit;
    while (in >> key >> kb >> unit)
    {
        if (key == "MemAvailable:")
        {
            return kb * 1024;
        }
    }
    return 0;
}

void
SizeGuard::Check(const json& s,
                 const std::string& file,
                 double maxMemoryBytes,
                 double maxOutputBytes,
                 const std::string& outDir)
{
    const Estimate e = Compute(s);
    const double available = AvailableMemory();
    const double memLimit = maxMemoryBytes > 0 ? maxMemoryBytes : available;
    const double mem = e.MemoryBytes();
    if (memLimit > 0 && mem > memLimit)
    {
        const Part& big = Estimate::Largest(e.memory);
        std::ostringstream os;
        os << file << ": the scenario needs about " << Gb(mem) << " of memory (" << e.hosts
           << " hosts, " << e.switches << " switches, " << e.links << " links, "
           << std::llround(e.qps) << " QPs, " << std::llround(e.flows) << " flows; most for "
           << big.what << "), above the "
           << (maxMemoryBytes > 0 ? "--max-memory-gb limit of " : "available memory of ")
           << Gb(memLimit) << "; reduce '" << big.key << "'"
           << (maxMemoryBytes > 0 ? " or raise --max-memory-gb" : "");
        throw ScenarioError(os.str());
    }
    double outLimit = maxOutputBytes;
    bool disk = false;
    struct statvfs st;
    std::error_code ec;
    const std::filesystem::path parent =
        std::filesystem::absolute(outDir, ec).lexically_normal().parent_path();
    if (outLimit <= 0 && ::statvfs(parent.c_str(), &st) == 0)
    {
        outLimit = double(st.f_bavail) * double(st.f_frsize);
        disk = true;
    }
    const double out = e.OutputBytes();
    if (outLimit > 0 && out > outLimit)
    {
        const Part& big = Estimate::Largest(e.outputs);
        std::ostringstream os;
        os << file << ": the run would write up to " << Gb(out) << " (" << big.what << " "
           << Gb(big.bytes) << "), above "
           << (disk ? "the free disk space of " : "the --max-output-gb limit of ") << Gb(outLimit)
           << "; change '" << big.key << "' or lower 'stop_time_ms'"
           << (disk ? "" : ", or raise --max-output-gb");
        throw ScenarioError(os.str());
    }
}

} // namespace ns3
