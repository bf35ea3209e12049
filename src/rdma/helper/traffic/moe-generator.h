/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_MOE_GENERATOR_H
#define RDMA_MOE_GENERATOR_H

#include "ns3/collective-trace.h"
#include "ns3/random-variable-stream.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Expert-parallel (EP) all-to-all traffic of a mixture-of-experts model: per layer, a
 * dispatch (each token to the ranks holding its top-k experts) and a combine (the
 * results back), as a CollectiveTrace whose dependencies order them.
 *
 * Model: `ranks` GPUs form the EP group, `gpusPerNode` per node (rank r is local rank
 * r % gpusPerNode of node r / gpusPerNode); `experts` experts, experts / ranks per rank
 * (expert e on rank e / (experts / ranks)). Each rank routes `tokensPerRank` tokens to
 * `topK` distinct experts: uniformly, or by a popularity drawn per layer from a
 * symmetric Dirichlet(alpha) (skew; smaller alpha, more skew). With node-limited routing
 * a token first picks at most `maxNodes` nodes (by their summed popularity), then its
 * experts among them.
 *
 * Bytes: a dispatch copy carries dispatchBytesPerToken (FP8 with one fp32 scale per 128
 * channels: H + 4H/128), a combine copy combineBytesPerToken (BF16: 2H).
 *
 * Exchange:
 * - FLAT: one copy per token and destination rank (not the token's own rank);
 * - HIERARCHICAL (rail-aligned): one RDMA copy per token and destination node other
 *   than its own, to the rank with the same local index; forwarding inside the node
 *   (NVLink) is not on the RDMA fabric and is not modelled.
 * Granularity: PER_PAIR aggregates a phase's copies from one rank to another into
 * `messagesPerPair` messages (near-equal parts); PER_TOKEN sends one message per token
 * and destination expert (decode: FLAT) or destination node (HIERARCHICAL).
 *
 * Order: `layers` x `microBatches` stages; group "layer" index = microBatch x layers +
 * layer. On each rank, combine(l) waits for dispatch(l) plus expertComputeNs, and
 * dispatch(l + 1) for combine(l) plus layerComputeNs. Micro-batches run one after the
 * other (dispatch of micro-batch m layer 0 waits for the combine of micro-batch m - 1's
 * last layer), or, with overlapMicroBatches, as independent chains from time 0 (one's
 * communication overlaps the other's compute).
 */
class MoeGenerator
{
  public:
    enum class Exchange
    {
        FLAT,
        HIERARCHICAL,
    };

    enum class Granularity
    {
        PER_PAIR,
        PER_TOKEN,
    };

    uint32_t ranks = 8;
    uint32_t gpusPerNode = 8;
    uint32_t tokensPerRank = 4096;
    uint32_t hidden = 7168;
    uint32_t topK = 8;
    uint32_t experts = 64;
    uint64_t dispatchBytesPerToken = 0; ///< 0: hidden + 4 x hidden / 128
    uint64_t combineBytesPerToken = 0;  ///< 0: 2 x hidden
    double dirichletAlpha = 0;          ///< 0: uniform routing
    uint32_t maxNodes = 0;              ///< 0: no node limit
    Exchange exchange = Exchange::FLAT;
    Granularity granularity = Granularity::PER_PAIR;
    uint32_t messagesPerPair = 1;
    uint32_t layers = 1;
    uint32_t microBatches = 1;
    bool overlapMicroBatches = false;
    int64_t expertComputeNs = 0;
    int64_t layerComputeNs = 0;
    int32_t priority = -1;

    /// Presets named in docs: "deepseek_v3" (EP64 = 8 x 8, 4096 tokens, top-8 of 256
    /// experts, H 7168, at most 4 nodes per token, hierarchical), "mixtral" (EP8 on 8
    /// nodes of 1 GPU, 4096 tokens, top-2 of 8 experts, H 4096, flat), "decode" (EP64 = 8
    /// x 8, 128 tokens, top-8 of 256, H 7168, one message per token and expert, flat).
    /// Returns false for an unknown name.
    bool SetPreset(const std::string& name);
    static std::vector<std::string> PresetNames();

    uint64_t DispatchBytes() const;
    uint64_t CombineBytes() const;
    /// Empty if the parameters are consistent, else what is wrong.
    std::string Validate() const;

    /// Statistics of the last Generate().
    struct Stats
    {
        double expertLoadMaxOverMean = 0; ///< mean over layers of max / mean tokens per expert
        uint64_t dispatchBytes = 0;       ///< on the fabric, all layers
        uint64_t combineBytes = 0;
    };

    /**
     * The trace: flows in stage order (dispatch, then combine, of each stage), src and
     * dst as ranks. \p uniform draws routing; \p gamma the Dirichlet popularities.
     */
    CollectiveTrace Generate(Ptr<UniformRandomVariable> uniform, Ptr<GammaRandomVariable> gamma);
    const Stats& GetStats() const;

  private:
    /// What the tokens of one stage (a layer of a micro-batch) chose.
    struct StageRoutes
    {
        std::vector<uint64_t> expertLoad; ///< tokens per expert
        std::vector<uint64_t> pairCopies; ///< PER_PAIR: copies per (src, dst) rank pair
        std::vector<std::pair<uint32_t, uint32_t>> messages; ///< PER_TOKEN: (src, dst)
    };

    /// Expert popularity of each layer (one gate per layer, shared by micro-batches).
    std::vector<std::vector<double>> Popularity(GammaRandomVariable& gamma) const;
    /// Route every token of a stage whose experts have popularity \p p.
    StageRoutes Route(const std::vector<double>& p, UniformRandomVariable& uniform) const;
    /// The fabric destinations of a token of rank \p src sent to the experts \p chosen:
    /// ranks (flat) or nodes (hierarchical), one copy each (PER_PAIR, or hierarchical) or
    /// one message per expert (PER_TOKEN, flat).
    void Destinations(uint32_t src,
                      const std::vector<uint32_t>& chosen,
                      std::vector<uint32_t>& dests) const;
    /// Add the dispatch and combine flows of \p stage and their dependencies to \p trace.
    void AddStageFlows(CollectiveTrace& trace, uint32_t stage, const StageRoutes& routes);

    Stats m_stats;
};

} // namespace ns3

#endif /* RDMA_MOE_GENERATOR_H */
