/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RdmaTopology's derived quantities (switch routes, paths, base RTTs, ideal completion
 * times, the largest base RTT, host indices) against an independent computation from its
 * links.csv: a BFS from every destination host over all nodes, hosts not forwarding,
 * and a walk that takes the first port (in port order) one hop closer. Random fabrics
 * with uneven rates, delays and parallel links, a fat-tree and a leaf-spine, before and
 * after link rate changes and link failures.
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>
#include <queue>
#include <random>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

constexpr uint32_t kFar = std::numeric_limits<uint32_t>::max();

/// The fabric as links.csv describes it, plus the links the test took down.
struct Graph
{
    struct Port
    {
        uint32_t port;
        uint32_t peer;
        uint64_t rate;
        int64_t delayNs;
        uint64_t builtRate; ///< the rate the link was built with (the ideal FCT's)
    };

    std::map<uint32_t, std::vector<Port>> ports; ///< by node id, in port order
    std::set<uint32_t> hosts;
    std::set<std::pair<uint32_t, uint32_t>> down; ///< (node, port) ends of down links

    bool Up(uint32_t node, const Port& p) const
    {
        return !down.count({node, p.port});
    }

    /// Hop distances to host \p dst (hosts other than it do not forward).
    std::map<uint32_t, uint32_t> Distances(uint32_t dst) const
    {
        std::map<uint32_t, uint32_t> dist;
        for (const auto& [n, ps] : ports)
        {
            dist[n] = kFar;
        }
        dist[dst] = 0;
        std::queue<uint32_t> q;
        q.push(dst);
        while (!q.empty())
        {
            const uint32_t u = q.front();
            q.pop();
            if (hosts.count(u) && u != dst)
            {
                continue;
            }
            for (const Port& p : ports.at(u))
            {
                if (Up(u, p) && dist[p.peer] == kFar)
                {
                    dist[p.peer] = dist[u] + 1;
                    q.push(p.peer);
                }
            }
        }
        return dist;
    }

    /// The hops from \p src to \p dst, first shortest port at every node.
    std::vector<Port> Walk(uint32_t src, uint32_t dst) const
    {
        const auto dist = Distances(dst);
        std::vector<Port> path;
        uint32_t u = src;
        while (u != dst)
        {
            bool moved = false;
            for (const Port& p : ports.at(u))
            {
                if (Up(u, p) && dist.at(p.peer) + 1 == dist.at(u) &&
                    (!hosts.count(p.peer) || p.peer == dst))
                {
                    path.push_back(p);
                    u = p.peer;
                    moved = true;
                    break;
                }
            }
            if (!moved)
            {
                return {};
            }
        }
        return path;
    }
};

Graph
ReadGraph(const RdmaTopology& topo)
{
    std::ostringstream os;
    topo.WriteLinks(os);
    std::istringstream in(os.str());
    std::string line;
    std::getline(in, line); // header
    Graph g;
    while (std::getline(in, line))
    {
        std::istringstream row(line);
        std::string f[8];
        for (auto& x : f)
        {
            std::getline(row, x, ',');
        }
        const uint32_t node = std::stoul(f[0]);
        g.ports[node].push_back({uint32_t(std::stoul(f[1])),
                                 uint32_t(std::stoul(f[3])),
                                 std::stoull(f[6]),
                                 std::stoll(f[7]),
                                 std::stoull(f[6])});
        if (f[2] == "host")
        {
            g.hosts.insert(node);
        }
    }
    for (auto& [n, ps] : g.ports)
    {
        std::sort(ps.begin(), ps.end(), [](const Graph::Port& a, const Graph::Port& b) {
            return a.port < b.port;
        });
    }
    return g;
}

/// Serialization time as the simulator's clock has it: exact ps, truncated to ns.
int64_t
WireNs(uint64_t bytes, uint64_t rate)
{
    return int64_t(uint64_t((compat::Uint128)bytes * 8000000000000ULL / rate) / 1000);
}

int64_t
RttNs(const std::vector<Graph::Port>& path, uint32_t mtu)
{
    int64_t ns = 0;
    for (const auto& h : path)
    {
        ns += WireNs(rdmawire::WireBytes(RdmaPacketType::DATA, mtu), h.rate) +
              WireNs(rdmawire::WireBytes(RdmaPacketType::ACK, 0), h.rate) + 2 * h.delayNs;
    }
    return ns;
}

int64_t
IdealNs(const std::vector<Graph::Port>& path, uint32_t mtu, uint64_t bytes)
{
    const uint64_t rest = bytes % mtu;
    const uint64_t mtuWire = rdmawire::WireBytes(RdmaPacketType::DATA, mtu);
    const uint64_t lastWire = rest ? rdmawire::WireBytes(RdmaPacketType::DATA, rest) : mtuWire;
    const uint64_t total = bytes / mtu * mtuWire + (rest ? lastWire : 0);
    size_t b = 0;
    for (size_t i = 1; i < path.size(); ++i)
    {
        b = path[i].builtRate < path[b].builtRate ? i : b;
    }
    int64_t ns = WireNs(total, path[b].builtRate);
    for (size_t i = 0; i < path.size(); ++i)
    {
        ns += (i == b ? 0 : WireNs(lastWire, path[i].builtRate)) + 2 * path[i].delayNs +
              WireNs(rdmawire::WireBytes(RdmaPacketType::ACK, 0), path[i].builtRate);
    }
    return ns;
}

/// Every derived quantity of \p topo equals the reference; returns the pairs compared.
uint32_t
CheckAgainstReference(const RdmaTopology& topo, const Graph& g, std::mt19937& rng)
{
    const auto& hosts = topo.GetHosts();
    const uint32_t mtu = topo.GetMtu();
    uint32_t pairs = 0;
    for (uint32_t d : hosts)
    {
        const auto dist = g.Distances(d);
        // Routes of every switch towards d.
        for (uint32_t sw : topo.GetSwitches())
        {
            std::vector<uint32_t> expected;
            for (const auto& p : g.ports.at(sw))
            {
                if (dist.at(sw) != kFar && g.Up(sw, p) && dist.at(p.peer) + 1 == dist.at(sw) &&
                    (!g.hosts.count(p.peer) || p.peer == d))
                {
                    expected.push_back(p.port);
                }
            }
            EXPECT_EQ(topo.GetSwitch(sw)->GetRoute(d), expected) << "switch " << sw << " to " << d;
        }
        for (uint32_t s : hosts)
        {
            if (s == d || dist.at(s) == kFar)
            {
                continue;
            }
            const auto path = g.Walk(s, d);
            const auto got = topo.GetPath(s, d);
            EXPECT_EQ(topo.GetPathLength(s, d), path.size());
            EXPECT_EQ(got.size(), path.size()) << s << "->" << d;
            if (got.size() != path.size())
            {
                continue;
            }
            for (size_t i = 0; i < path.size(); ++i)
            {
                EXPECT_EQ(got[i].bitRate, path[i].rate);
                EXPECT_EQ(got[i].delay.GetNanoSeconds(), path[i].delayNs);
            }
            EXPECT_EQ(topo.GetBaseRtt(s, d).GetNanoSeconds(), RttNs(path, mtu)) << s << "->" << d;
            for (uint64_t bytes :
                 {uint64_t(1),
                  uint64_t(mtu),
                  uint64_t(mtu + 1),
                  uint64_t(std::uniform_int_distribution<uint64_t>(1, 3000000)(rng))})
            {
                EXPECT_EQ(topo.GetIdealFct(s, d, bytes).GetNanoSeconds(), IdealNs(path, mtu, bytes))
                    << s << "->" << d << " " << bytes << " B";
            }
            ++pairs;
        }
    }
    return pairs;
}

int64_t
MaxRttNs(const RdmaTopology& topo, const Graph& g)
{
    int64_t best = 0;
    for (uint32_t s : topo.GetHosts())
    {
        for (uint32_t d : topo.GetHosts())
        {
            if (s != d)
            {
                best = std::max(best, RttNs(g.Walk(s, d), topo.GetMtu()));
            }
        }
    }
    return best;
}

DataRate
RandomRate(std::mt19937& rng)
{
    static const uint64_t gbps[] = {10, 25, 40, 100, 200, 400};
    return DataRate(gbps[rng() % 6] * 1000000000ULL);
}

Time
RandomDelay(std::mt19937& rng)
{
    return NanoSeconds(std::uniform_int_distribution<int64_t>(10, 3000)(rng));
}

} // namespace

TEST(TopologyPathsTest, RandomFabricsMatchAnIndependentBfs)
{
    for (uint32_t seed = 1; seed <= 6; ++seed)
    {
        std::mt19937 rng(seed);
        RdmaTopology topo;
        const uint32_t nHosts = 6 + rng() % 10;
        const uint32_t nSw = 3 + rng() % 8;
        std::vector<uint32_t> hosts;
        std::vector<uint32_t> sws;
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            hosts.push_back(topo.AddHost());
        }
        for (uint32_t i = 0; i < nSw; ++i)
        {
            sws.push_back(topo.AddSwitch());
        }
        // A random spanning tree of switches, random extra (also parallel) links, and
        // each host under a random switch.
        for (uint32_t i = 1; i < nSw; ++i)
        {
            topo.AddLink(sws[i], sws[rng() % i], RandomRate(rng), RandomDelay(rng));
        }
        for (uint32_t i = 0; i < 2 * nSw; ++i)
        {
            const uint32_t a = rng() % nSw;
            const uint32_t b = rng() % nSw;
            if (a != b)
            {
                topo.AddLink(sws[a], sws[b], RandomRate(rng), RandomDelay(rng));
            }
        }
        for (uint32_t h : hosts)
        {
            topo.AddLink(h, sws[rng() % nSw], RandomRate(rng), RandomDelay(rng));
        }
        topo.Finalize();
        Graph g = ReadGraph(topo);
        EXPECT_EQ(topo.GetMaxBaseRtt().GetNanoSeconds(), MaxRttNs(topo, g)) << "seed " << seed;
        EXPECT_EQ(CheckAgainstReference(topo, g, rng), nHosts * (nHosts - 1));

        // A slower link, then a failed link: routes and paths follow (the ideal FCT
        // keeps the rates the links were built with).
        topo.SetLinkRate(rng() % topo.GetNLinks(), DataRate("5Gb/s"));
        const Graph built = g;
        g = ReadGraph(topo);
        for (auto& [node, ports] : g.ports)
        {
            for (size_t i = 0; i < ports.size(); ++i)
            {
                ports[i].builtRate = built.ports.at(node)[i].builtRate;
            }
        }
        CheckAgainstReference(topo, g, rng);
        const uint32_t cut = rng() % topo.GetNLinks();
        topo.SetLinkUp(cut, false);
        std::ostringstream os;
        topo.WriteLinks(os);
        // The two ends of link `cut` are its rows 2 * cut + 1 and 2 * cut + 2.
        std::istringstream in(os.str());
        std::string line;
        for (uint32_t row = 0; std::getline(in, line); ++row)
        {
            if (row == 2 * cut + 1 || row == 2 * cut + 2)
            {
                std::istringstream r(line);
                std::string node;
                std::string port;
                std::getline(r, node, ',');
                std::getline(r, port, ',');
                g.down.insert({uint32_t(std::stoul(node)), uint32_t(std::stoul(port))});
            }
        }
        CheckAgainstReference(topo, g, rng);
    }
    Simulator::Destroy();
}

TEST(TopologyPathsTest, FatTreeAndLeafSpineMatchAnIndependentBfs)
{
    std::mt19937 rng(42);
    {
        RdmaTopology topo;
        FatTreeHelper ft;
        ft.SetK(4);
        ft.hostDelay = NanoSeconds(700);
        ft.fabricDelay = NanoSeconds(1300);
        ft.Build(topo);
        topo.Finalize();
        const Graph g = ReadGraph(topo);
        EXPECT_EQ(topo.GetMaxBaseRtt().GetNanoSeconds(), MaxRttNs(topo, g));
        EXPECT_EQ(CheckAgainstReference(topo, g, rng), 16u * 15u);
    }
    {
        RdmaTopology topo;
        LeafSpineHelper ls;
        ls.leaves = 3;
        ls.spines = 2;
        ls.hostsPerLeaf = 3;
        ls.linksPerSpine = 2;
        ls.fabricRate = DataRate("400Gb/s");
        ls.Build(topo);
        topo.Finalize();
        const Graph g = ReadGraph(topo);
        EXPECT_EQ(topo.GetMaxBaseRtt().GetNanoSeconds(), MaxRttNs(topo, g));
        EXPECT_EQ(CheckAgainstReference(topo, g, rng), 9u * 8u);
    }
    Simulator::Destroy();
}

TEST(TopologyPathsTest, HostIndexIsThePositionInGetHosts)
{
    RdmaTopology topo;
    LeafSpineHelper ls;
    ls.Build(topo);
    topo.Finalize();
    const auto& hosts = topo.GetHosts();
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        EXPECT_EQ(topo.GetHostIndex(hosts[i]), i);
    }
    for (uint32_t sw : topo.GetSwitches())
    {
        EXPECT_EQ(topo.GetHostIndex(sw), RdmaTopology::kNotAHost);
    }
    EXPECT_EQ(topo.GetHostIndex(topo.GetSwitches().back() + 1), RdmaTopology::kNotAHost);
    if (hosts[0] > 0)
    {
        EXPECT_EQ(topo.GetHostIndex(hosts[0] - 1), RdmaTopology::kNotAHost);
    }
    Simulator::Destroy();
}

TEST(TopologyPathsTest, TwoHostsBackToBack)
{
    RdmaTopology topo;
    const uint32_t a = topo.AddHost();
    const uint32_t b = topo.AddHost();
    topo.AddLink(a, b, DataRate("100Gb/s"), NanoSeconds(500));
    topo.Finalize();
    const Graph g = ReadGraph(topo);
    EXPECT_EQ(topo.GetPathLength(a, b), 1u);
    EXPECT_EQ(topo.GetBaseRtt(a, b).GetNanoSeconds(), RttNs(g.Walk(a, b), topo.GetMtu()));
    EXPECT_EQ(topo.GetMaxBaseRtt(), topo.GetBaseRtt(b, a));
    Simulator::Destroy();
}
