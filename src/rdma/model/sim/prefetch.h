/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PREFETCH_H
#define RDMA_PREFETCH_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Start loading the cache line at \p p (any address, null included: a prefetch never
 * faults). Changes nothing the program can observe.
 *
 * Use this, never a bare `__builtin_prefetch`, in any function whose only effect is to
 * prefetch. GCC 12 finds such a function "pure" (it reads memory and writes nothing), and
 * removes every call to it whose result is unused, which is every call: the prefetches
 * are silently gone, and since a prefetch changes nothing observable, no functional test
 * notices (test/prefetch_compiled_test.py reads the machine code instead). The empty
 * volatile statement here is a side effect to the compiler, so a function that calls this
 * one is not pure, and it costs no instruction.
 */
inline void
PrefetchLine(const void* p)
{
    __builtin_prefetch(p);
    __asm__ __volatile__("" : : "r"(p));
}

/// Start loading the cache line at \p p to write it (see PrefetchLine): a store to a
/// line that is not in the cache holds a store-buffer entry until the line arrives.
inline void
PrefetchLineForWrite(const void* p)
{
    __builtin_prefetch(p, 1);
    __asm__ __volatile__("" : : "r"(p));
}

/// Start loading \p lines consecutive 64-byte cache lines from \p p (see PrefetchLine).
inline void
PrefetchLines(const void* p, uint32_t lines)
{
    for (uint32_t line = 0; line < lines; ++line)
    {
        PrefetchLine(static_cast<const char*>(p) + 64 * line);
    }
}

} // namespace ns3

#endif /* RDMA_PREFETCH_H */
