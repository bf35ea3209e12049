/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/htsim-topology.h"

#include "ns3/input-fields.h"
#include "ns3/log.h"
#include "ns3/scenario-error.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HtsimTopology");

namespace
{

std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/// Largest value of an attribute (18 digits: htsim's fields are counts, Gb/s and ns).
constexpr uint64_t kMaxValue = 999'999'999'999'999'999ULL;

const std::set<std::string> kKnown{"nodes",
                                   "tiers",
                                   "podsize",
                                   "tier",
                                   "downlink_speed_gbps",
                                   "radix_up",
                                   "radix_down",
                                   "downlink_latency_ns",
                                   "switch_latency_ns",
                                   "oversubscribed",
                                   "bundle",
                                   "queue_up",
                                   "queue_down"};

const char* const kAllowed = "tier, downlink_speed_gbps, radix_up, radix_down, "
                             "downlink_latency_ns, switch_latency_ns, oversubscribed, bundle";
} // namespace

HtsimTopology
HtsimTopology::Read(const std::string& path)
{
    std::ifstream in = inputfields::OpenInputFile(path, "htsim topology file");
    HtsimTopology t;
    std::string text;
    int line = 0;
    int current = -1;
    while (std::getline(in, text))
    {
        ++line;
        const std::vector<std::string> f = inputfields::Split(text, " \t\r", true);
        if (f[0].empty() || f[0][0] == '#')
        {
            continue;
        }
        const std::string where = path + ":" + std::to_string(line);
        const std::string key = Lower(f[0]);
        if (!kKnown.count(key))
        {
            throw ScenarioError(where + ": unknown attribute '" + f[0] + "' (allowed: nodes, " +
                                "tiers, podsize, " + kAllowed + ")");
        }
        if (f.size() != 2)
        {
            throw ScenarioError(where + ": expected '<attribute> <value>', got '" + text + "'");
        }
        const uint64_t v = inputfields::Unsigned(f[1], where, f[0], kMaxValue);
        const bool header = key == "nodes" || key == "tiers" || key == "podsize";
        if (header && current >= 0)
        {
            throw ScenarioError(where + ": " + f[0] + " belongs in the header, before 'Tier 0'");
        }
        if (key == "nodes")
        {
            t.m_nodes = v;
        }
        else if (key == "tiers")
        {
            if (v != 2 && v != 3)
            {
                throw ScenarioError(where + ": Tiers has value " + f[1] + ", expected 2 or 3");
            }
            t.m_tiers = v;
        }
        else if (key == "podsize")
        {
            t.m_podsize = v;
        }
        else if (key == "tier")
        {
            if (t.m_tiers == 0 || v >= t.m_tiers)
            {
                throw ScenarioError(where + ": Tier has value " + f[1] +
                                    ", expected below Tiers (" + std::to_string(t.m_tiers) +
                                    ", which the header must give)");
            }
            if (t.m_tier[v].line)
            {
                throw ScenarioError(where + ": Tier " + f[1] + " appears twice");
            }
            current = v;
            t.m_tier[v].line = line;
        }
        else if (current < 0)
        {
            throw ScenarioError(where + ": " + f[0] + " before the first 'Tier' line");
        }
        else
        {
            Tier& tier = t.m_tier[current];
            if (tier.lineOf.count(key))
            {
                throw ScenarioError(where + ": " + f[0] + " given twice for tier " +
                                    std::to_string(current));
            }
            tier.lineOf[key] = line;
            if (key == "downlink_speed_gbps" && v > 0)
            {
                tier.speedGbps = v;
            }
            else if (key == "radix_down" && v > 0)
            {
                tier.radixDown = v;
            }
            else if (key == "radix_up" && v > 0 && current + 1 < int(t.m_tiers))
            {
                tier.radixUp = v;
            }
            else if (key == "radix_up" && v > 0)
            {
                throw ScenarioError(where + ": Radix_Up " + f[1] + " on the top tier (" +
                                    std::to_string(current) + "), which has no uplinks");
            }
            else if (key == "downlink_latency_ns")
            {
                tier.latencyNs = v;
            }
            else if (key == "switch_latency_ns")
            {
                if (v != 0)
                {
                    throw ScenarioError(where + ": Switch_Latency_ns " + f[1] +
                                        " is not supported (the module's switches forward "
                                        "without a latency): use 0");
                }
            }
            else if (key == "oversubscribed" && v > 0)
            {
                tier.oversubscribed = v;
            }
            else if (key == "bundle" && v > 0 && (current > 0 || v == 1))
            {
                tier.bundle = v;
            }
            else if (key == "bundle" && v > 1)
            {
                throw ScenarioError(where + ": Bundle " + f[1] +
                                    " on tier 0 (a host has one link; htsim asserts 1)");
            }
            else if (key == "queue_up" || key == "queue_down")
            {
                throw ScenarioError(where + ": " + f[0] + " " + f[1] +
                                    " is not supported (per-tier queue sizes): give the "
                                    "queue size with switch.buffer.static_kb");
            }
            else if (key == "downlink_speed_gbps" || key == "radix_down" || key == "radix_up" ||
                     key == "oversubscribed" || key == "bundle")
            {
                throw ScenarioError(where + ": " + f[0] + " has value " + f[1] +
                                    ", expected a positive number");
            }
            else
            {
                throw ScenarioError(where + ": unknown attribute '" + f[0] +
                                    "' (allowed: " + kAllowed + ")");
            }
        }
    }
    const std::string head = path + ": header";
    if (t.m_nodes == 0 || t.m_tiers == 0 || t.m_podsize == 0)
    {
        throw ScenarioError(head + ": needs Nodes, Tiers and Podsize (positive)");
    }
    t.Derive(path);
    return t;
}

void
HtsimTopology::Derive(const std::string& path)
{
    for (uint32_t i = 0; i < m_tiers; ++i)
    {
        const Tier& tier = m_tier[i];
        const std::string where =
            path + ":" + std::to_string(tier.line) + ": tier " + std::to_string(i);
        if (!tier.line)
        {
            throw ScenarioError(path + ": no 'Tier " + std::to_string(i) + "' section");
        }
        if (!tier.speedGbps || !tier.radixDown || tier.latencyNs < 0 ||
            (i + 1 < m_tiers && !tier.radixUp))
        {
            throw ScenarioError(where + " needs Downlink_speed_Gbps, Radix_Down, " +
                                "Downlink_Latency_ns" + (i + 1 < m_tiers ? " and Radix_Up" : ""));
        }
        if (tier.radixDown % tier.bundle)
        {
            throw ScenarioError(where + ": Radix_Down " + std::to_string(tier.radixDown) +
                                " is not a multiple of Bundle " + std::to_string(tier.bundle));
        }
        if (i + 1 < m_tiers && tier.radixUp % m_tier[i + 1].bundle)
        {
            throw ScenarioError(where + ": Radix_Up " + std::to_string(tier.radixUp) +
                                " is not a multiple of tier " + std::to_string(i + 1) +
                                "'s Bundle " + std::to_string(m_tier[i + 1].bundle));
        }
    }
    if (m_tiers == 3 && m_tier[1].latencyNs != m_tier[2].latencyNs)
    {
        throw ScenarioError(path + ":" + std::to_string(m_tier[2].lineOf["downlink_latency_ns"]) +
                            ": Downlink_Latency_ns " + std::to_string(m_tier[2].latencyNs) +
                            " of tier 2 differs from tier 1's " +
                            std::to_string(m_tier[1].latencyNs) +
                            " (the fat-tree has one delay between switches)");
    }
    auto at = [&](uint32_t i, const std::string& attr) {
        const auto it = m_tier[i].lineOf.find(attr);
        return path + ":" +
               std::to_string(it == m_tier[i].lineOf.end() ? m_tier[i].line : it->second);
    };
    const Tier& tor = m_tier[0];
    const Tier& agg = m_tier[1];
    if (m_nodes % m_podsize || m_podsize % tor.radixDown)
    {
        throw ScenarioError(at(0, "radix_down") + ": Nodes " + std::to_string(m_nodes) +
                            ", Podsize " + std::to_string(m_podsize) + " and tier 0 Radix_Down " +
                            std::to_string(tor.radixDown) +
                            ": Podsize must divide Nodes and Radix_Down Podsize");
    }
    m_pods = m_nodes / m_podsize;
    if (m_tiers == 2 && m_pods != 1)
    {
        throw ScenarioError(path + ": header: Podsize " + std::to_string(m_podsize) +
                            " with 2 tiers: every leaf links to every spine, so Podsize must "
                            "equal Nodes (" +
                            std::to_string(m_nodes) + ")");
    }
    m_torsPerPod = m_podsize / tor.radixDown;
    const uint64_t down = uint64_t(m_nodes) * tor.speedGbps;
    const uint64_t up = agg.speedGbps * tor.oversubscribed;
    if (down % up || tor.radixDown / tor.radixUp != tor.oversubscribed)
    {
        throw ScenarioError(at(0, "radix_up") + ": tier 0 Radix_Down " +
                            std::to_string(tor.radixDown) + " / Radix_Up " +
                            std::to_string(tor.radixUp) + " does not give Oversubscribed " +
                            std::to_string(tor.oversubscribed) + " at its link speeds");
    }
    const uint64_t torUplinks = down / up;
    if (torUplinks % (uint64_t(m_pods) * agg.radixDown) ||
        (torUplinks / (m_pods * agg.radixDown)) * agg.bundle != tor.radixUp)
    {
        throw ScenarioError(
            at(1, "radix_down") + ": tier 1 Radix_Down " + std::to_string(agg.radixDown) +
            " and Bundle " + std::to_string(agg.bundle) + " do not take the " +
            std::to_string(torUplinks) + " ToR uplinks of " + std::to_string(m_pods) +
            " pods (tier 0 Radix_Up " + std::to_string(tor.radixUp) + ")");
    }
    m_aggsPerPod = torUplinks / (m_pods * agg.radixDown);
    if (m_tiers == 3)
    {
        const Tier& core = m_tier[2];
        const uint64_t aggDown = torUplinks * agg.speedGbps;
        const uint64_t aggUp = core.speedGbps * agg.oversubscribed;
        const uint64_t aggUplinks = aggDown / aggUp;
        if (aggDown % aggUp || aggUplinks % core.radixDown ||
            (aggUplinks / core.radixDown) % m_aggsPerPod ||
            (aggUplinks / core.radixDown) * core.bundle / m_aggsPerPod != agg.radixUp)
        {
            throw ScenarioError(
                at(2, "radix_down") + ": tier 2 Radix_Down " + std::to_string(core.radixDown) +
                " and Bundle " + std::to_string(core.bundle) + " do not take the " +
                std::to_string(aggUplinks) + " aggregation uplinks (" +
                std::to_string(m_aggsPerPod) + " aggregation switches per pod, tier 1 Radix_Up " +
                std::to_string(agg.radixUp) + ")");
        }
        m_cores = aggUplinks / core.radixDown;
    }
    NS_LOG_INFO(path << ": " << m_pods << " pods, " << m_torsPerPod << " ToRs and " << m_aggsPerPod
                     << " aggregation switches per pod, " << m_cores << " cores");
}

HtsimTopology
HtsimTopology::Default(uint32_t nodes,
                       uint32_t tiers,
                       uint64_t speedGbps,
                       int64_t latencyNs,
                       const std::string& where)
{
    uint32_t k = 2;
    auto count = [&](uint64_t kk) { return tiers == 3 ? kk * kk * kk / 4 : kk * kk / 2; };
    while (count(k) < nodes)
    {
        k += 2;
    }
    if (count(k) != nodes || (tiers != 2 && tiers != 3))
    {
        throw ScenarioError(where + " has value " + std::to_string(nodes) + ": htsim's default " +
                            std::to_string(tiers) + "-tier fat-tree has k^" +
                            (tiers == 3 ? "3 / 4" : "2 / 2") +
                            " hosts for an even k (the nearest: " + std::to_string(count(k)) + ")");
    }
    HtsimTopology t;
    t.m_nodes = nodes;
    t.m_tiers = tiers;
    t.m_pods = tiers == 3 ? k : 1;
    t.m_podsize = nodes / t.m_pods;
    t.m_torsPerPod = tiers == 3 ? k / 2 : k;
    t.m_aggsPerPod = k / 2;
    t.m_cores = tiers == 3 ? k * k / 4 : 0;
    for (uint32_t i = 0; i < tiers; ++i)
    {
        t.m_tier[i].speedGbps = speedGbps;
        t.m_tier[i].latencyNs = latencyNs;
        t.m_tier[i].radixDown = (i == 0 || (i == 1 && tiers == 3)) ? k / 2 : k;
        t.m_tier[i].radixUp = i + 1 < tiers ? k / 2 : 0;
    }
    return t;
}

uint32_t
HtsimTopology::MatrixNodes(const std::string& path)
{
    // Only the header's `Nodes` line (HtsimCmReader reads the whole matrix, with the same
    // input helpers, once the fabric exists).
    std::ifstream in = inputfields::OpenInputFile(path, "htsim connection matrix");
    std::string text;
    int line = 0;
    while (std::getline(in, text))
    {
        ++line;
        const std::vector<std::string> f = inputfields::Split(text, " \t\r", true);
        if (f.size() == 2 && f[0] == "Nodes")
        {
            const std::string where = path + ":" + std::to_string(line);
            const uint64_t nodes = inputfields::Unsigned(f[1], where, "Nodes", 100000000);
            if (nodes == 0)
            {
                throw ScenarioError(where + ": 'Nodes' has invalid value '0'");
            }
            return nodes;
        }
    }
    throw ScenarioError(path + ": no 'Nodes' line");
}

uint32_t
HtsimTopology::Hosts() const
{
    return m_nodes;
}

uint32_t
HtsimTopology::Tiers() const
{
    return m_tiers;
}

uint32_t
HtsimTopology::HostsPerTor() const
{
    return m_tier[0].radixDown;
}

uint32_t
HtsimTopology::Switches() const
{
    return m_pods * (m_torsPerPod + m_aggsPerPod) + m_cores;
}

uint32_t
HtsimTopology::Links() const
{
    const uint32_t tors = m_pods * m_torsPerPod;
    const uint32_t aggs = m_pods * m_aggsPerPod;
    return m_nodes + tors * m_tier[0].radixUp + (m_tiers == 3 ? aggs * m_tier[1].radixUp : 0);
}

double
HtsimTopology::HostBitRate() const
{
    return double(m_tier[0].speedGbps) * 1e9;
}

double
HtsimTopology::TorUplinkBitRate() const
{
    return double(m_tier[0].radixUp) * double(m_tier[1].speedGbps) * 1e9;
}

int64_t
HtsimTopology::DiameterLatencyNs() const
{
    int64_t sum = 0;
    for (uint32_t i = 0; i < m_tiers; ++i)
    {
        sum += m_tier[i].latencyNs;
    }
    return 2 * sum;
}

FatTreeHelper
HtsimTopology::AsFatTree() const
{
    FatTreeHelper ft;
    ft.pods = m_pods;
    ft.torsPerPod = m_torsPerPod;
    ft.aggsPerPod = m_aggsPerPod;
    ft.hostsPerTor = m_tier[0].radixDown;
    ft.cores = m_cores;
    ft.torAggLinks = m_tier[1].bundle;
    ft.aggCoreLinks = m_tier[2].bundle;
    ft.hostRate = DataRate(m_tier[0].speedGbps * 1000000000ULL);
    ft.torAggRate = DataRate(m_tier[1].speedGbps * 1000000000ULL);
    ft.aggCoreRate = DataRate(m_tier[2].speedGbps * 1000000000ULL);
    ft.hostDelay = NanoSeconds(m_tier[0].latencyNs);
    ft.fabricDelay = NanoSeconds(m_tier[1].latencyNs);
    return ft;
}

LeafSpineHelper
HtsimTopology::AsLeafSpine() const
{
    LeafSpineHelper ls;
    ls.leaves = m_pods * m_torsPerPod;
    ls.spines = m_pods * m_aggsPerPod;
    ls.hostsPerLeaf = m_tier[0].radixDown;
    ls.linksPerSpine = m_tier[1].bundle;
    ls.hostRate = DataRate(m_tier[0].speedGbps * 1000000000ULL);
    ls.fabricRate = DataRate(m_tier[1].speedGbps * 1000000000ULL);
    ls.hostDelay = NanoSeconds(m_tier[0].latencyNs);
    ls.fabricDelay = NanoSeconds(m_tier[1].latencyNs);
    return ls;
}

void
HtsimTopology::Build(RdmaTopology& topo) const
{
    if (m_tiers == 3)
    {
        AsFatTree().Build(topo);
    }
    else
    {
        AsLeafSpine().Build(topo);
    }
}

} // namespace ns3
