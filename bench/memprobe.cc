/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-memprobe: what one dependent load costs on this machine, by working-set size.
 *
 * The simulator's cost per event at scale is set by how much of its hot state the
 * machine's caches hold (docs/performance.md, "Where the time goes at scale"), and two
 * machines of the same name can differ by 10x there (a VM may get a small share of a
 * shared L3). `./rdma bench` runs this first and writes its figures beside the benchmark
 * table, so that figures from different machines can be read.
 *
 * For each size, the working set is one 64-byte line per entry, linked into a single
 * random cycle (Sattolo's algorithm), so a chase visits every line before it repeats and
 * the hardware prefetchers cannot guess the next address; each load waits for the one
 * before. The heap is asked for huge pages, as the runner's is (glibc.malloc.hugetlb=1).
 */

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <sys/mman.h>
#include <vector>

namespace
{

constexpr size_t kLine = 64;
constexpr size_t kHugePage = 2u << 20;

/// Where each chase ends, so that the compiler keeps its loads.
char* volatile g_sink = nullptr;

struct Options
{
    std::vector<uint64_t> sizesKb{256, 1024, 2048, 4096, 8192, 16384, 65536, 262144};
    uint64_t loads = 4000000;
    bool check = false;
    bool json = false;
};

[[noreturn]] void
Usage(const char* error)
{
    if (error != nullptr)
    {
        std::fprintf(stderr, "rdma-memprobe: %s\n", error);
    }
    std::fprintf(stderr,
                 "usage: rdma-memprobe [--sizes-kb KB[,KB...]] [--loads N] [--check] [--json]\n"
                 "  --sizes-kb  working-set sizes in KB (default "
                 "256,1024,2048,4096,8192,16384,65536,262144)\n"
                 "  --loads     dependent loads timed per size (default 4000000)\n"
                 "  --check     also walk each chain and fail (exit 1) unless it visits every "
                 "line once\n"
                 "  --json      one JSON object per size instead of a table\n");
    std::exit(2);
}

/// \p text as a whole number from \p min to \p max, else exit 2 naming \p key.
uint64_t
ParseCount(const std::string& key, const std::string& text, uint64_t min, uint64_t max)
{
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || *end != '\0' || errno != 0 || v < min || v > max)
    {
        std::string msg = key + ": '" + text + "' is not a whole number from " +
                          std::to_string(min) + " to " + std::to_string(max);
        Usage(msg.c_str());
    }
    return v;
}

Options
ParseArgs(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
            {
                std::string msg = a + ": needs a value";
                Usage(msg.c_str());
            }
            return argv[++i];
        };
        if (a == "--sizes-kb")
        {
            std::string list = value();
            o.sizesKb.clear();
            size_t start = 0;
            while (true)
            {
                size_t comma = list.find(',', start);
                std::string item = list.substr(start, comma - start);
                // 4 KB (64 lines) up to 4 GB.
                o.sizesKb.push_back(ParseCount("--sizes-kb", item, 4, 4u << 20));
                if (comma == std::string::npos)
                {
                    break;
                }
                start = comma + 1;
            }
        }
        else if (a == "--loads")
        {
            o.loads = ParseCount("--loads", value(), 1, 1000000000000ULL);
        }
        else if (a == "--check")
        {
            o.check = true;
        }
        else if (a == "--json")
        {
            o.json = true;
        }
        else if (a == "-h" || a == "--help")
        {
            Usage(nullptr);
        }
        else
        {
            std::string msg = "unknown argument '" + a + "'";
            Usage(msg.c_str());
        }
    }
    return o;
}

/// Each of \p lines lines at \p mem holds the address of the next line of one random
/// cycle through all of them (Sattolo's algorithm: a uniformly random single cycle).
void
BuildChain(char* mem, size_t lines, std::mt19937_64& rng)
{
    std::vector<uint32_t> next(lines);
    for (size_t i = 0; i < lines; ++i)
    {
        next[i] = static_cast<uint32_t>(i);
    }
    for (size_t i = lines - 1; i > 0; --i)
    {
        std::uniform_int_distribution<size_t> pick(0, i - 1);
        std::swap(next[i], next[pick(rng)]);
    }
    for (size_t i = 0; i < lines; ++i)
    {
        char* target = mem + size_t{next[i]} * kLine;
        std::memcpy(mem + i * kLine, &target, sizeof(target));
    }
}

/// Whether the chain from line 0 comes back to it after exactly \p lines steps, having
/// visited every line once.
bool
IsOneCycle(char* mem, size_t lines)
{
    std::vector<bool> seen(lines, false);
    char* p = mem;
    for (size_t step = 0; step < lines; ++step)
    {
        size_t index = static_cast<size_t>(p - mem) / kLine;
        if (index >= lines || seen[index])
        {
            return false;
        }
        seen[index] = true;
        std::memcpy(&p, p, sizeof(p));
    }
    return p == mem;
}

} // namespace

int
main(int argc, char** argv)
{
    Options o = ParseArgs(argc, argv);
    std::mt19937_64 rng(1);
    if (!o.json)
    {
        std::printf("%12s %14s\n", "working set", "ns per load");
    }
    for (uint64_t kb : o.sizesKb)
    {
        size_t bytes = kb * 1024;
        size_t lines = bytes / kLine;
        size_t alloc = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        char* mem = static_cast<char*>(std::aligned_alloc(kHugePage, alloc));
        if (mem == nullptr)
        {
            std::fprintf(stderr,
                         "rdma-memprobe: cannot allocate %llu KB\n",
                         static_cast<unsigned long long>(kb));
            return 1;
        }
        madvise(mem, alloc, MADV_HUGEPAGE);
        try
        {
            BuildChain(mem, lines, rng);
        }
        catch (const std::bad_alloc&)
        {
            std::fprintf(stderr,
                         "rdma-memprobe: cannot allocate the chain's order for %llu KB\n",
                         static_cast<unsigned long long>(kb));
            std::free(mem);
            return 1;
        }
        if (o.check && !IsOneCycle(mem, lines))
        {
            std::fprintf(stderr, "rdma-memprobe: the chain of %zu lines is not one cycle\n", lines);
            std::free(mem);
            return 1;
        }
        // One lap first, so that what the cache can hold is in it.
        char* p = mem;
        for (size_t i = 0; i < lines; ++i)
        {
            std::memcpy(&p, p, sizeof(p));
        }
        auto t0 = std::chrono::steady_clock::now();
        for (uint64_t i = 0; i < o.loads; ++i)
        {
            std::memcpy(&p, p, sizeof(p));
        }
        auto t1 = std::chrono::steady_clock::now();
        double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() /
                    static_cast<double>(o.loads);
        g_sink = p;
        if (o.json)
        {
            std::printf("{\"working_set_kb\": %llu, \"lines\": %zu, \"ns_per_load\": %.2f}\n",
                        static_cast<unsigned long long>(kb),
                        lines,
                        ns);
        }
        else
        {
            std::printf("%9llu KB %14.1f\n", static_cast<unsigned long long>(kb), ns);
        }
        std::fflush(stdout);
        std::free(mem);
    }
    return 0;
}
