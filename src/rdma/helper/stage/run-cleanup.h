/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RUN_CLEANUP_H
#define RDMA_RUN_CLEANUP_H

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * No leftovers from an interrupted run. Install() blocks SIGINT and SIGTERM in the
 * process and waits for them in a thread of its own; on a signal it removes the staging
 * folder of the run being written (RunOutput's `DIR.partial-PID`), or with keepPartial
 * leaves it with a file INCOMPLETE saying why, and exits with 128 + the signal number
 * (130 for SIGINT, 143 for SIGTERM). RemoveStale() removes the staging folders that runs
 * of processes that no longer exist left next to an output folder.
 */
class RunCleanup
{
  public:
    /// Handle SIGINT and SIGTERM from now on (call once, before any other thread starts).
    static void Install(bool keepPartial);
    /// The staging folder being written (empty: none).
    static void SetStaging(const std::string& dir);
    /**
     * Remove `DIR.partial-PID` folders next to \p dir whose process is gone (no such
     * PID), unless marked INCOMPLETE (kept on purpose with --keep-partial).
     * \return the number removed
     */
    static uint32_t RemoveStale(const std::string& dir);
    /// Name of the marker file of a kept partial folder.
    static const char* kMarker;
};

} // namespace ns3

#endif /* RDMA_RUN_CLEANUP_H */
