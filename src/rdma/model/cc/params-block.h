/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PARAMS_BLOCK_H
#define RDMA_PARAMS_BLOCK_H

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A controller's attributes held in one block shared by every controller with the same
 * values (thousands of QPs, a handful of distinct blocks), as Dcqcn and RttProbe do:
 * \p p, about to be changed, becomes its holder's own copy first if it is shared.
 * \return the block to change
 */
template <class P>
P&
CopyOnWrite(std::shared_ptr<P>& p)
{
    if (p.use_count() > 1)
    {
        p = std::make_shared<P>(*p); // shared: this holder's own copy
    }
    return *p;
}

/**
 * The block equal to \p p already in use (P::operator==), or a new one holding a copy of
 * \p p (allocated only then). A run has a handful of distinct blocks (one per set of
 * attribute values): a linear search. The table keeps each block shared (use_count > 1)
 * for good, so that a later attribute change copies it first (CopyOnWrite).
 */
template <class P>
std::shared_ptr<P>
InternParams(const P& p)
{
    static std::vector<std::shared_ptr<P>> blocks;
    for (const auto& b : blocks)
    {
        if (*b == p)
        {
            return b;
        }
    }
    blocks.push_back(std::make_shared<P>(p));
    return blocks.back();
}

} // namespace ns3

#endif /* RDMA_PARAMS_BLOCK_H */
