/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PREFETCH_JUMP_H
#define RDMA_PREFETCH_JUMP_H

#include "ns3/prefetch.h"

#include <cstdint>

namespace ns3
{

/**
 * PrefetchLines for a count known only at run time (the lines a port says its hot fields
 * span): a jump into a row of prefetches, as cheap per call as a loop the compiler unrolls
 * for a constant count, where a loop would cost a compare and a branch per line. Counts
 * over 16 prefetch the lines beyond the 16th in a loop first.
 */
inline void
PrefetchLinesJump(const void* p, uint32_t lines)
{
    const char* c = static_cast<const char*>(p);
    switch (lines)
    {
    default:
        PrefetchLines(c + 64 * 16, lines - 16);
        [[fallthrough]];
    case 16:
        PrefetchLine(c + 64 * 15);
        [[fallthrough]];
    case 15:
        PrefetchLine(c + 64 * 14);
        [[fallthrough]];
    case 14:
        PrefetchLine(c + 64 * 13);
        [[fallthrough]];
    case 13:
        PrefetchLine(c + 64 * 12);
        [[fallthrough]];
    case 12:
        PrefetchLine(c + 64 * 11);
        [[fallthrough]];
    case 11:
        PrefetchLine(c + 64 * 10);
        [[fallthrough]];
    case 10:
        PrefetchLine(c + 64 * 9);
        [[fallthrough]];
    case 9:
        PrefetchLine(c + 64 * 8);
        [[fallthrough]];
    case 8:
        PrefetchLine(c + 64 * 7);
        [[fallthrough]];
    case 7:
        PrefetchLine(c + 64 * 6);
        [[fallthrough]];
    case 6:
        PrefetchLine(c + 64 * 5);
        [[fallthrough]];
    case 5:
        PrefetchLine(c + 64 * 4);
        [[fallthrough]];
    case 4:
        PrefetchLine(c + 64 * 3);
        [[fallthrough]];
    case 3:
        PrefetchLine(c + 64 * 2);
        [[fallthrough]];
    case 2:
        PrefetchLine(c + 64 * 1);
        [[fallthrough]];
    case 1:
        PrefetchLine(c + 64 * 0);
        [[fallthrough]];
    case 0:
        break;
    }
}

} // namespace ns3

#endif /* RDMA_PREFETCH_JUMP_H */
