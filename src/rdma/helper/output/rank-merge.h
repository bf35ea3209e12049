/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RANK_MERGE_H
#define RDMA_RANK_MERGE_H

#include "ns3/nstime.h"
#include "ns3/output-file.h"
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
 * and flows did (its rows of the declared CSV files, its summary), and rank 0 merges them into the
 * files a serial run writes, in the same formats.
 *
 * The CSV files merge as their declarations say (OutputFile, OutputFiles): a file of
 * Merge::ROWS gets every rank's rows, ordered by its sort key (at one time in each rank's
 * order, or by a last column event_order if the ranks wrote one (RunRecorder), which is
 * then dropped), without rows after the run's end: ranks stop a little after the last
 * completion (RankEndCheck), a serial run at it. A CSV file that no declaration names is
 * an error, never dropped. Summary counters are summed over ranks, extremes are the
 * largest, and the figures that need all ranks' data at once (means and
 * percentiles, the conservation ledger, uplink imbalance, the stall verdict) are computed
 * again from merged data.
 */
class RankMerge
{
  public:
    /// QPs, (node, QP number), in the order a serial run samples them.
    using QpOrder = std::vector<std::pair<int64_t, int64_t>>;

    /**
     * Merge the texts \p texts (one per rank, each a header line and rows) of the CSV
     * file \p file into \p out: the header once, then every rank's rows, ordered by the
     * file's sort key (stable: ties keep rank order), without rows whose time column is
     * past \p endNs. \p qpOrder serves the key OutputFile::kSampledQpOrder. Each rank
     * writes its rows in key order, so the merge streams them (nothing is held beyond
     * \p texts); rows out of order are sorted first. Throws std::runtime_error if the
     * headers differ, or are not the declaration's columns.
     */
    static void MergeCsvTo(std::ostream& out,
                           const std::vector<std::string>& texts,
                           const OutputFile& file,
                           int64_t endNs,
                           const QpOrder& qpOrder = {});
    /// MergeCsvTo into a string.
    static std::string MergeCsv(const std::vector<std::string>& texts,
                                const OutputFile& file,
                                int64_t endNs,
                                const QpOrder& qpOrder = {});

    /**
     * One summary.json from the ranks' \p ranks, each {"summary": ..., "state":
     * OutputStage::RankState(), "rank": {...}}, of a run that ended at \p end.
     */
    static nlohmann::json MergeSummaries(const std::vector<nlohmann::json>& ranks, Time end);

    /**
     * Collective: throw std::runtime_error, on every rank, if any rank's \p out holds a
     * CSV file that no OutputFile declares (its rows could not be merged).
     */
    static void CheckDeclared(const RunOutput& out);

    /**
     * Collective, at the end of a run over ranks: take this rank's files of the declared
     * files of Merge::ROWS out of \p out (CheckDeclared: no other CSV may be left), and
     * its \p summary with \p state (OutputStage::RankState(), whose cc_qps is the QP order
     * of cc.csv) and \p rank (this rank's own figures); on rank 0 write the
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
