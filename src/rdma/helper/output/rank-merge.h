/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RANK_MERGE_H
#define RDMA_RANK_MERGE_H

#include "ns3/nstime.h"
#include "ns3/run-output.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The outputs of a run over MPI ranks, made one: every rank writes what its own nodes
 * and flows did (fct.csv, pfc.csv, queue.csv, ports.csv, unfinished.csv, its summary),
 * and rank 0 merges them into the files a serial run writes, in the same formats.
 *
 * Merged CSV rows are ordered by key columns (fct.csv by completion time and pfc.csv by
 * time, at one time in each rank's order, or by a last column event_order if the ranks
 * wrote one (RunRecorder), which is then dropped; the samples by time, then node and
 * port), and rows after the run's end are left out: ranks stop a little after the last
 * completion (RankEndCheck), a serial run at it. Summary counters are summed over ranks,
 * extremes are the largest, and the figures that need all ranks' data at once (means and
 * percentiles, the conservation ledger, uplink imbalance, the stall verdict) are computed
 * again from merged data.
 */
class RankMerge
{
  public:
    /// A key of CsvRule::keys that is no column: the position of the row's QP (columns 1
    /// and 2, node and QP number) in the order a serial run samples them.
    static constexpr int kSampledQpOrder = -1;

    /// How one CSV file merges.
    struct CsvRule
    {
        std::string file;      ///< file name in the output folder
        std::vector<int> keys; ///< columns (numbers) to order rows by, in turn
        int timeColumn;        ///< column of the time in ns (-1: none); rows past the end dropped
    };

    /// QPs, (node, QP number), in the order a serial run samples them.
    using QpOrder = std::vector<std::pair<int64_t, int64_t>>;

    /// The CSV files a run over ranks merges, with their rules.
    static const std::vector<CsvRule>& CsvRules();

    /**
     * Merge the texts \p texts (one per rank, each a header line and rows) of one CSV
     * file by \p rule into \p out: the header once, then every rank's rows, ordered by
     * the rule's key columns (stable: ties keep rank order), without rows whose time is
     * past \p endNs. \p qpOrder serves the key kSampledQpOrder. Each rank writes its rows
     * in key order, so the merge streams them (nothing is held beyond \p texts); rows out
     * of order are sorted first. Throws std::runtime_error if the headers differ.
     */
    static void MergeCsvTo(std::ostream& out,
                           const std::vector<std::string>& texts,
                           const CsvRule& rule,
                           int64_t endNs,
                           const QpOrder& qpOrder = {});
    /// MergeCsvTo into a string.
    static std::string MergeCsv(const std::vector<std::string>& texts,
                                const CsvRule& rule,
                                int64_t endNs,
                                const QpOrder& qpOrder = {});

    /**
     * One summary.json from the ranks' \p ranks, each {"summary": ..., "state":
     * OutputStage::RankState(), "rank": {...}}, of a run that ended at \p end.
     */
    static nlohmann::json MergeSummaries(const std::vector<nlohmann::json>& ranks, Time end);

    /**
     * Collective, at the end of a run over ranks: take this rank's files of CsvRules()
     * out of \p out, and its \p summary with \p state (OutputStage::RankState(), whose
     * cc_qps is the QP order of cc.csv) and \p rank (this rank's own figures); on rank 0 write the
     * merged files into \p out and return the merged summary. Elsewhere \p out is left empty and
     * the return value is \p summary.
     */
    static nlohmann::json Merge(RunOutput& out,
                                const nlohmann::json& summary,
                                const nlohmann::json& state,
                                const nlohmann::json& rank,
                                Time end);
};

} // namespace ns3

#endif /* RDMA_RANK_MERGE_H */
