/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/run-cleanup.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace ns3
{

namespace fs = std::filesystem;

const char* RunCleanup::kMarker = "INCOMPLETE";

namespace
{
std::mutex g_mutex;
std::string g_staging;
bool g_keepPartial = false;

void
WaitForSignals(sigset_t set)
{
    int sig = 0;
    while (sigwait(&set, &sig) != 0)
    {
    }
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (!g_staging.empty())
        {
            std::error_code ec;
            if (g_keepPartial)
            {
                std::ofstream(g_staging + "/" + RunCleanup::kMarker)
                    << "interrupted by " << strsignal(sig) << " (signal " << sig
                    << "); the files here are partial\n";
                std::fprintf(stderr,
                             "rdma-run: interrupted (%s); partial results kept in %s\n",
                             strsignal(sig),
                             g_staging.c_str());
            }
            else
            {
                // The main thread may still create a file while the folder goes.
                for (int i = 0; i < 5 && fs::exists(g_staging, ec); ++i)
                {
                    fs::remove_all(g_staging, ec);
                }
                std::fprintf(stderr,
                             "rdma-run: interrupted (%s); partial results removed\n",
                             strsignal(sig));
            }
        }
        else
        {
            std::fprintf(stderr, "rdma-run: interrupted (%s)\n", strsignal(sig));
        }
        std::fflush(stderr);
        _exit(128 + sig);
    }
}
} // namespace

void
RunCleanup::Install(bool keepPartial)
{
    g_keepPartial = keepPartial;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(WaitForSignals, set).detach();
}

void
RunCleanup::SetStaging(const std::string& dir)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_staging = dir;
}

uint32_t
RunCleanup::RemoveStale(const std::string& dir)
{
    std::error_code ec;
    fs::path target = fs::absolute(fs::path(dir), ec).lexically_normal();
    if (target.filename().empty())
    {
        target = target.parent_path();
    }
    const std::string prefix = target.filename().string() + ".partial-";
    uint32_t removed = 0;
    fs::directory_iterator it(target.parent_path(), ec);
    if (ec)
    {
        return 0;
    }
    for (const fs::directory_entry& e : it)
    {
        const std::string name = e.path().filename().string();
        if (name.compare(0, prefix.size(), prefix) != 0)
        {
            continue;
        }
        const std::string pid = name.substr(prefix.size());
        if (pid.empty() || pid.size() > 9 ||
            pid.find_first_not_of("0123456789") != std::string::npos)
        {
            continue;
        }
        const pid_t p = static_cast<pid_t>(std::stol(pid));
        const bool gone = p != ::getpid() && ::kill(p, 0) != 0 && errno == ESRCH;
        if (gone && e.is_directory(ec) && !fs::exists(e.path() / kMarker, ec))
        {
            fs::remove_all(e.path(), ec);
            removed += ec ? 0 : 1;
        }
    }
    return removed;
}

} // namespace ns3
