/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_OUTPUT_FILE_H
#define RDMA_OUTPUT_FILE_H

#include "ns3/nstime.h"
#include "ns3/size-guard.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

class RdmaTopology;
class RunOutput;

/**
 * \ingroup rdma
 * The writer of a declared output file that OutputStage runs (OutputFile::make): made
 * once the topology and traffic exist, started before the traffic, finished when the run
 * has ended. A file whose writer lives elsewhere (the samplers, RunRecorder) declares no
 * maker.
 */
class OutputWriter
{
  public:
    virtual ~OutputWriter() = default;

    /// The run starts (before the traffic).
    virtual void Start()
    {
    }

    /**
     * The run has ended at \p end (over ranks, a rank may have run a little past it):
     * write the file, with nothing that happened after \p end.
     */
    virtual void Finish(Time end) = 0;
};

/**
 * \ingroup rdma
 * One output CSV file of a run, declared beside its writer (OutputFileRegistration): its
 * columns, the order of its rows, its size estimate and how a run over MPI ranks merges
 * the ranks' copies (RankMerge). The size guard (OutputDescription) and the merge read
 * the declarations; nothing elsewhere names a column by its number.
 *
 * Contract: the file's header is its columns joined by commas (over ranks, RunRecorder
 * may add a last column event_order, which the merge uses and drops); every name of
 * sortKey and timeColumn is one of the columns (or kSampledQpOrder).
 */
struct OutputFile
{
    /// How the ranks' copies of the file become one.
    enum class Merge
    {
        ROWS,      ///< each rank writes its own rows: all kept, ordered by sortKey
        RANK_ZERO, ///< a rank writes the whole file (or only rank 0 writes it): rank 0's is kept
    };

    /// A name of sortKey that is no column: the place of the row's QP (columns node and
    /// qp) in the order a serial run samples them (cc.csv; RankMerge's QP order).
    static constexpr const char* kSampledQpOrder = "(node,qp) in sampling order";

    /// A size estimate: \p count rows (negative: the file is not written), driven by \p key.
    struct Rows
    {
        double count;
        std::string key;
    };

    /// The rows the scenario \p s writes, from its stages' estimate \p e.
    using RowEstimate = Rows (*)(const nlohmann::json& s, const SizeGuard::Estimate& e);
    /// The file's writer for the run of \p s on \p topo into \p out (nullptr: not written).
    using MakeWriter = std::unique_ptr<OutputWriter> (*)(const nlohmann::json& s,
                                                         RdmaTopology& topo,
                                                         RunOutput& out);

    std::string name;                 ///< file name in the output folder
    std::vector<std::string> columns; ///< the header, column by column
    std::vector<std::string> sortKey; ///< columns to order rows by, in turn (Merge::ROWS)
    std::string timeColumn;           ///< time in ns: rows past the run's end left out ("": none)
    Merge merge = Merge::ROWS;        ///< how the ranks' copies merge
    double rowBytes = 0;              ///< bytes of a row, rounded up (the size guard's)
    RowEstimate rows = nullptr;       ///< its row count (nullptr: not estimated, see the doc)
    MakeWriter make = nullptr; ///< its writer, run by OutputStage (nullptr: written elsewhere)
    int order = 0;             ///< its place among the files (size estimate, merge)

    /// The header line, without its newline.
    std::string Header() const;
    /// The number of column \p column; throws std::runtime_error if there is no such column.
    int Column(const std::string& column) const;
};

/**
 * \ingroup rdma
 * Every declared output file. Registered once each, from static initialisation
 * (OutputFileRegistration), in the library or in a test binary.
 */
class OutputFiles
{
  public:
    /// Declare \p file; aborts if a file of that name is declared already.
    static void Add(OutputFile file);
    /// Every declared file, by order (ties: by name).
    static std::vector<const OutputFile*> All();
    /// The file named \p name, or nullptr if none is declared.
    static const OutputFile* Find(const std::string& name);
    /// Of \p names (files of a run's folder), the CSV files that no OutputFile declares.
    static std::vector<std::string> Undeclared(const std::vector<std::string>& names);
};

/**
 * \ingroup rdma
 * Declares an output file: one static instance beside its writer,
 * `static const OutputFileRegistration g_queueCsv({"queue.csv", {...}, ...});`.
 */
struct OutputFileRegistration
{
    /// \param file the declaration (see OutputFile's contract)
    explicit OutputFileRegistration(OutputFile file)
    {
        OutputFiles::Add(std::move(file));
    }
};

} // namespace ns3

#endif /* RDMA_OUTPUT_FILE_H */
