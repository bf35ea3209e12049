/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/pint-code.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

double
PintCode::Base(uint32_t bits)
{
    return std::exp2(double(kMaxLog2 - kMinLog2) / MaxCode(bits));
}

double
PintCode::Decode(uint32_t code, uint32_t bits)
{
    const uint32_t k = std::min(code, MaxCode(bits));
    return std::exp2(kMinLog2 + double(kMaxLog2 - kMinLog2) * k / MaxCode(bits));
}

uint16_t
PintCode::Encode(double u, uint32_t bits, double uniform)
{
    const uint32_t top = MaxCode(bits);
    const double lo = std::exp2(kMinLog2);
    const double hi = std::exp2(kMaxLog2);
    if (!(u > lo)) // (NaN included)
    {
        return 0;
    }
    if (u >= hi)
    {
        return static_cast<uint16_t>(top);
    }
    // The code just below u (the position on the log scale, rounded down), made exact
    // against Decode's values so that floating-point error cannot put u outside them.
    const double pos = (std::log2(u) - kMinLog2) * top / double(kMaxLog2 - kMinLog2);
    uint32_t k = std::min(static_cast<uint32_t>(std::max(pos, 0.0)), top - 1);
    while (k > 0 && Decode(k, bits) > u)
    {
        --k;
    }
    while (k + 1 < top && Decode(k + 1, bits) <= u)
    {
        ++k;
    }
    const double below = Decode(k, bits);
    const double above = Decode(k + 1, bits);
    // Up with probability (u - below) / (above - below): E[value] = u.
    const double pUp = (u - below) / (above - below);
    return static_cast<uint16_t>(uniform < pUp ? k + 1 : k);
}

} // namespace ns3
