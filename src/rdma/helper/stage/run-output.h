/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RUN_OUTPUT_H
#define RDMA_RUN_OUTPUT_H

#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The output folder of one run, written all-or-nothing: files are created in a staging
 * folder next to the target (`DIR.partial-PID`) with buffered streams, and Commit()
 * replaces DIR by it in one rename. A run that fails never leaves a half-written DIR.
 * An existing DIR is replaced only if it looks like a previous run (has summary.json or
 * is empty); anything else is refused, so a typo cannot delete a user's folder.
 */
class RunOutput
{
  public:
    /// Throws ScenarioError if \p dir exists and is not a previous run's folder.
    explicit RunOutput(const std::string& dir);
    ~RunOutput();

    /// A buffered stream for \p name inside the staging folder (created on first use).
    std::ofstream& Stream(const std::string& name);
    /// The path of \p name (may contain folders, created here) inside the staging folder,
    /// for files written by others (pcap captures).
    std::string Path(const std::string& name);
    /// Write a whole small file.
    void WriteFile(const std::string& name, const std::string& content);
    /**
     * Take file \p name out of the staging folder: close its stream if one is open,
     * read it into \p content and remove it (a run over MPI ranks merges the ranks'
     * files, then writes the merged one). \return false if no such file was written
     */
    bool Take(const std::string& name, std::string* content);
    /// The names of the files written so far in the folder itself (not in subfolders), sorted.
    std::vector<std::string> Files() const;
    /**
     * Close every stream and move the staging folder to DIR. Throws std::logic_error,
     * leaving DIR as it was, if the folder holds a CSV file that no OutputFile declares
     * (a serial run checks what a run over ranks must: every CSV's rows can be merged).
     */
    void Commit();
    const std::string& GetDir() const;

    /// Check a target folder without creating anything (throws ScenarioError).
    static void CheckTarget(const std::string& dir);

  private:
    /// Close stream \p s of file \p name; throws ScenarioError if writing it failed.
    void Close(const std::string& name, std::ofstream& s) const;

    std::string m_dir;
    std::string m_staging;
    std::map<std::string, std::unique_ptr<std::ofstream>> m_streams;
    bool m_committed;
};

} // namespace ns3

#endif /* RDMA_RUN_OUTPUT_H */
