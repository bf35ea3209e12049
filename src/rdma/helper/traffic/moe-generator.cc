/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/moe-generator.h"

#include "ns3/log.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoeGenerator");

namespace
{
/// std::upper_bound's answer: the index of the first element of \p a (not empty) greater
/// than \p x. No branch per step: the draws are random, so a branching search would
/// mispredict every other step.
size_t
UpperBound(const std::vector<double>& a, double x)
{
    const double* base = a.data();
    size_t n = a.size();
    while (n > 1)
    {
        const size_t half = n / 2;
        base = base[half] <= x ? base + half : base;
        n -= half;
    }
    return static_cast<size_t>(base - a.data()) + (*base <= x ? 1 : 0);
}

/**
 * Draw \p count distinct indices from weights given as the cumulative sums \p cum
 * (cum[i] = w[0] + ... + w[i]) by successive sampling: each draw picks index i with
 * probability w[i] over the weight not yet drawn. Drawing from all weights and
 * rejecting repeats is exactly that; after many rejections (most of the weight already
 * drawn) the remaining indices are scanned instead.
 */
void
DrawDistinct(const std::vector<double>& cum,
             uint32_t count,
             UniformRandomVariable& u,
             std::vector<uint32_t>& out)
{
    out.clear();
    const double total = cum.back();
    uint32_t rejected = 0;
    while (out.size() < count && rejected < 64)
    {
        const double x = u.GetValue() * total;
        const uint32_t i = std::min<size_t>(UpperBound(cum, x), cum.size() - 1);
        if (std::find(out.begin(), out.end(), i) != out.end())
        {
            ++rejected;
            continue;
        }
        out.push_back(i);
    }
    while (out.size() < count)
    {
        double remaining = 0;
        uint32_t candidates = 0;
        for (uint32_t i = 0; i < cum.size(); ++i)
        {
            if (std::find(out.begin(), out.end(), i) == out.end())
            {
                remaining += cum[i] - (i ? cum[i - 1] : 0.0);
                ++candidates;
            }
        }
        // With no weight left (a Dirichlet draw can put all of it on a few experts), the
        // rest are equally likely.
        double x = u.GetValue() * (remaining > 0 ? remaining : candidates);
        for (uint32_t i = 0; i < cum.size(); ++i)
        {
            if (std::find(out.begin(), out.end(), i) != out.end())
            {
                continue;
            }
            x -= remaining > 0 ? cum[i] - (i ? cum[i - 1] : 0.0) : 1.0;
            if (x < 0 || --candidates == 0)
            {
                out.push_back(i);
                break;
            }
        }
    }
}

std::vector<double>
Cumulative(const std::vector<double>& w)
{
    std::vector<double> c(w.size());
    std::partial_sum(w.begin(), w.end(), c.begin());
    return c;
}

/**
 * Node-limited routing of one stage: a token first draws its nodes (by their experts'
 * total weight), then its experts among those nodes' experts.
 */
class NodeLimitedChoice
{
  public:
    /// \p p: the experts' popularity; \p nodeCum: the nodes' cumulative weights;
    /// \p cache: keep the candidates' weights per set of nodes (at most 64 nodes).
    NodeLimitedChoice(const std::vector<double>& p,
                      std::vector<double> nodeCum,
                      uint32_t perNode,
                      bool cache)
        : m_p(p),
          m_nodeCum(std::move(nodeCum)),
          m_perNode(perNode),
          m_cache(cache)
    {
    }

    /// Draw \p maxNodes nodes, then \p topK distinct experts on them into \p chosen.
    void Draw(uint32_t maxNodes,
              uint32_t topK,
              UniformRandomVariable& uniform,
              std::vector<uint32_t>& chosen)
    {
        DrawDistinct(m_nodeCum, maxNodes, uniform, m_chosenNodes);
        std::sort(m_chosenNodes.begin(), m_chosenNodes.end());
        const std::vector<double>* cum = &m_candidateCum;
        if (m_cache)
        {
            uint64_t set = 0;
            for (uint32_t n : m_chosenNodes)
            {
                set |= uint64_t(1) << n;
            }
            const auto [it, added] = m_cumOfNodeSet.try_emplace(set);
            if (added)
            {
                Fill(it->second);
            }
            cum = &it->second;
        }
        else
        {
            Fill(m_candidateCum);
        }
        DrawDistinct(*cum, topK, uniform, chosen);
        for (uint32_t& c : chosen)
        {
            c = m_chosenNodes[c / m_perNode] * m_perNode + c % m_perNode;
        }
    }

  private:
    /// Cumulative weights of the experts on the chosen nodes (sorted, node by node),
    /// summed in the order Cumulative() would.
    void Fill(std::vector<double>& out) const
    {
        out.clear();
        double sum = 0;
        for (uint32_t n : m_chosenNodes)
        {
            for (uint32_t e = n * m_perNode; e < (n + 1) * m_perNode; ++e)
            {
                sum += m_p[e];
                out.push_back(sum);
            }
        }
    }

    const std::vector<double>& m_p;
    const std::vector<double> m_nodeCum;
    const uint32_t m_perNode;
    // With up to 64 nodes the candidates' weights are kept per set of nodes for the stage
    // (DeepSeek-V3 on 8 nodes: 70 sets, against 128 additions per token); else made per
    // token in one reused array.
    const bool m_cache;
    std::vector<uint32_t> m_chosenNodes;
    std::vector<double> m_candidateCum;
    std::unordered_map<uint64_t, std::vector<double>> m_cumOfNodeSet;
};
} // namespace

bool
MoeGenerator::SetPreset(const std::string& name)
{
    MoeGenerator g;
    if (name == "deepseek_v3")
    {
        g.ranks = 64;
        g.gpusPerNode = 8;
        g.tokensPerRank = 4096;
        g.hidden = 7168;
        g.topK = 8;
        g.experts = 256;
        g.maxNodes = 4;
        g.exchange = Exchange::HIERARCHICAL;
    }
    else if (name == "mixtral")
    {
        g.ranks = 8;
        g.gpusPerNode = 1;
        g.tokensPerRank = 4096;
        g.hidden = 4096;
        g.topK = 2;
        g.experts = 8;
        g.exchange = Exchange::FLAT;
    }
    else if (name == "decode")
    {
        g.ranks = 64;
        g.gpusPerNode = 8;
        g.tokensPerRank = 128;
        g.hidden = 7168;
        g.topK = 8;
        g.experts = 256;
        g.exchange = Exchange::FLAT;
        g.granularity = Granularity::PER_TOKEN;
    }
    else
    {
        return false;
    }
    *this = g;
    return true;
}

std::vector<std::string>
MoeGenerator::PresetNames()
{
    return {"deepseek_v3", "mixtral", "decode"};
}

uint64_t
MoeGenerator::DispatchBytes() const
{
    return dispatchBytesPerToken ? dispatchBytesPerToken : hidden + 4 * ((hidden + 127) / 128);
}

uint64_t
MoeGenerator::CombineBytes() const
{
    return combineBytesPerToken ? combineBytesPerToken : 2 * uint64_t(hidden);
}

std::string
MoeGenerator::Validate() const
{
    if (ranks < 2)
    {
        return "the EP group needs at least 2 ranks";
    }
    if (gpusPerNode == 0 || ranks % gpusPerNode)
    {
        return "ranks (" + std::to_string(ranks) + ") must be a multiple of gpus_per_node (" +
               std::to_string(gpusPerNode) + ")";
    }
    if (experts == 0 || experts % ranks)
    {
        return "experts (" + std::to_string(experts) + ") must be a multiple of ranks (" +
               std::to_string(ranks) + ")";
    }
    if (topK == 0 || topK > experts)
    {
        return "top_k must be in [1, experts]";
    }
    const uint32_t nodes = ranks / gpusPerNode;
    if (maxNodes > nodes)
    {
        return "max_nodes (" + std::to_string(maxNodes) + ") exceeds the " + std::to_string(nodes) +
               " nodes";
    }
    if (maxNodes > 0 && topK > maxNodes * (experts / nodes))
    {
        return "top_k (" + std::to_string(topK) + ") exceeds max_nodes x experts per node (" +
               std::to_string(maxNodes * (experts / nodes)) + ")";
    }
    if (exchange == Exchange::HIERARCHICAL && nodes < 2)
    {
        return "a hierarchical exchange needs at least 2 nodes";
    }
    if (tokensPerRank == 0 || hidden == 0 || layers == 0 || microBatches == 0 ||
        messagesPerPair == 0)
    {
        return "tokens, hidden size, layers, micro-batches and messages per pair must be positive";
    }
    return "";
}

std::vector<std::vector<double>>
MoeGenerator::Popularity(GammaRandomVariable& gamma) const
{
    std::vector<std::vector<double>> popularity(layers, std::vector<double>(experts, 1.0));
    if (dirichletAlpha > 0)
    {
        for (auto& p : popularity)
        {
            double sum = 0;
            for (double& x : p)
            {
                x = gamma.GetValue(dirichletAlpha, 1.0);
                sum += x;
            }
            for (double& x : p)
            {
                x = sum > 0 ? x / sum : 1.0 / experts;
            }
        }
    }
    return popularity;
}

void
MoeGenerator::Destinations(uint32_t src,
                           const std::vector<uint32_t>& chosen,
                           std::vector<uint32_t>& dests) const
{
    const uint32_t perRank = experts / ranks;
    const uint32_t srcNode = src / gpusPerNode;
    const bool hier = exchange == Exchange::HIERARCHICAL;
    dests.clear();
    for (uint32_t e : chosen)
    {
        const uint32_t rank = e / perRank;
        const uint32_t node = rank / gpusPerNode;
        if (hier)
        {
            if (node != srcNode)
            {
                dests.push_back(node * gpusPerNode + src % gpusPerNode);
            }
        }
        else if (rank != src)
        {
            dests.push_back(rank);
        }
    }
    if (granularity == Granularity::PER_PAIR || hier)
    {
        std::sort(dests.begin(), dests.end());
        dests.erase(std::unique(dests.begin(), dests.end()), dests.end());
    }
}

MoeGenerator::StageRoutes
MoeGenerator::Route(const std::vector<double>& p, UniformRandomVariable& uniform) const
{
    const uint32_t nodes = ranks / gpusPerNode;
    const uint32_t perNode = experts / nodes;
    const std::vector<double> expertCum = Cumulative(p);
    std::vector<double> nodeWeight(nodes, 0);
    for (uint32_t e = 0; e < experts; ++e)
    {
        nodeWeight[e / perNode] += p[e];
    }
    NodeLimitedChoice nodeLimited(p, Cumulative(nodeWeight), perNode, nodes <= 64);
    std::vector<uint32_t> chosen;
    StageRoutes routes;
    routes.expertLoad.assign(experts, 0);
    routes.pairCopies.assign(uint64_t(ranks) * ranks, 0);
    std::vector<uint32_t> dests;
    for (uint32_t src = 0; src < ranks; ++src)
    {
        for (uint32_t t = 0; t < tokensPerRank; ++t)
        {
            if (maxNodes > 0)
            {
                nodeLimited.Draw(maxNodes, topK, uniform, chosen);
            }
            else
            {
                DrawDistinct(expertCum, topK, uniform, chosen);
            }
            for (uint32_t e : chosen)
            {
                ++routes.expertLoad[e];
            }
            Destinations(src, chosen, dests);
            for (uint32_t d : dests)
            {
                if (granularity == Granularity::PER_PAIR)
                {
                    ++routes.pairCopies[uint64_t(src) * ranks + d];
                }
                else
                {
                    routes.messages.emplace_back(src, d);
                }
            }
        }
    }
    return routes;
}

void
MoeGenerator::AddStageFlows(CollectiveTrace& trace, uint32_t stage, const StageRoutes& routes)
{
    const uint32_t layer = stage % layers;
    const uint32_t dispatch = trace.GroupIndex("dispatch", stage);
    const uint32_t combine = trace.GroupIndex("combine", stage);
    std::vector<uint32_t> dispatchWaits;
    const bool chained = overlapMicroBatches ? layer > 0 : stage > 0;
    if (chained)
    {
        dispatchWaits.push_back(trace.GroupIndex("combine", stage - 1));
    }
    auto add = [&](uint32_t s,
                   uint32_t d,
                   uint64_t bytes,
                   uint32_t group,
                   const std::vector<uint32_t>& waits,
                   int64_t gap) {
        TraceFlow f;
        f.flowId = trace.flows.size();
        f.src = s;
        f.dst = d;
        f.bytes = bytes;
        f.group = group;
        f.phase = trace.groups[group].phase;
        f.layer = stage;
        f.waits = waits;
        f.gapNs = waits.empty() ? 0 : gap;
        f.priority = priority;
        trace.flows.push_back(f);
    };
    for (int phase = 0; phase < 2; ++phase)
    {
        const bool isDispatch = phase == 0;
        const uint64_t perCopy = isDispatch ? DispatchBytes() : CombineBytes();
        const uint32_t group = isDispatch ? dispatch : combine;
        const std::vector<uint32_t> waits =
            isDispatch ? dispatchWaits : std::vector<uint32_t>{dispatch};
        const int64_t gap = isDispatch ? layerComputeNs : expertComputeNs;
        uint64_t& total = isDispatch ? m_stats.dispatchBytes : m_stats.combineBytes;
        if (granularity != Granularity::PER_PAIR)
        {
            for (const auto& [s, d] : routes.messages)
            {
                total += perCopy;
                add(isDispatch ? s : d, isDispatch ? d : s, perCopy, group, waits, gap);
            }
            continue;
        }
        for (uint32_t s = 0; s < ranks; ++s)
        {
            for (uint32_t d = 0; d < ranks; ++d)
            {
                // Combine goes back: from the expert's rank d to the token's rank s.
                const uint64_t copies = routes.pairCopies[uint64_t(s) * ranks + d];
                if (copies == 0)
                {
                    continue;
                }
                const uint64_t bytes = copies * perCopy;
                total += bytes;
                const uint64_t parts = std::min<uint64_t>(messagesPerPair, bytes);
                for (uint64_t i = 0; i < parts; ++i)
                {
                    const uint64_t part = bytes / parts + (i < bytes % parts ? 1 : 0);
                    add(isDispatch ? s : d, isDispatch ? d : s, part, group, waits, gap);
                }
            }
        }
    }
}

CollectiveTrace
MoeGenerator::Generate(Ptr<UniformRandomVariable> uniform, Ptr<GammaRandomVariable> gamma)
{
    NS_ABORT_MSG_IF(!Validate().empty(), "MoeGenerator: " << Validate());
    m_stats = Stats();
    CollectiveTrace trace;
    const std::vector<std::vector<double>> popularity = Popularity(*gamma);
    const uint32_t stages = layers * microBatches;
    double loadRatioSum = 0;
    for (uint32_t stage = 0; stage < stages; ++stage)
    {
        const StageRoutes routes = Route(popularity[stage % layers], *uniform);
        const double mean = double(tokensPerRank) * ranks * topK / experts;
        loadRatioSum +=
            double(*std::max_element(routes.expertLoad.begin(), routes.expertLoad.end())) / mean;
        AddStageFlows(trace, stage, routes);
    }
    m_stats.expertLoadMaxOverMean = loadRatioSum / stages;
    NS_LOG_INFO("generated " << trace.flows.size() << " flows, " << m_stats.dispatchBytes
                             << " B dispatch, " << m_stats.combineBytes << " B combine");
    return trace;
}

const MoeGenerator::Stats&
MoeGenerator::GetStats() const
{
    return m_stats;
}

} // namespace ns3
