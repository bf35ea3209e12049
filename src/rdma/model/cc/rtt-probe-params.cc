/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RttProbe's parameter block (RttProbe::Params): its one list of fields, the comparison
 * that interning uses, the copy before a change (MutableParams) and the table of blocks in
 * use (Intern). The TypeId and the attributes are in rtt-probe.cc.
 */
#include "ns3/params-block.h"
#include "ns3/rtt-probe.h"

namespace ns3
{

namespace
{
/// Call \p f(field of RttProbe::Params) for each parameter: the one list of them
/// (Params' comparison, hence Intern).
template <class F>
void
ForEachParameter(F&& f)
{
    using P = RttProbe::Params;
    f(&P::targetRttAttr);
    f(&P::targetMargin);
    f(&P::probeIntervalAttr);
    f(&P::highRtt);
    f(&P::flowScaleStep);
    f(&P::flowScaleMax);
    f(&P::gradientSpan);
    f(&P::aiSpan);
    f(&P::miPeriod);
    f(&P::pacingRecheck);
    f(&P::idleRestart);
    f(&P::mdFactor);
    f(&P::highRttMdFactor);
    f(&P::aiStep);
    f(&P::nackFactor);
    f(&P::minRateFraction);
    f(&P::beta);
    f(&P::maxMd);
    f(&P::miFactor);
    f(&P::aiPackets);
    f(&P::surgeGradient);
    f(&P::qpLevelGain);
    f(&P::qpGradientGain);
    f(&P::qpIncreaseDamping);
    f(&P::aiRate);
    f(&P::pacingJitter);
    f(&P::startShare);
    f(&P::preset);
    f(&P::targetMode);
    f(&P::nackMode);
    f(&P::firstRate);
    f(&P::startBurst);
    f(&P::initialWindow);
    f(&P::nackOncePerEpisode);
    f(&P::lateProbeDecrease);
    f(&P::useAckRtt);
    f(&P::shareWithPeers);
}

// A new parameter joins ForEachParameter, else Intern would merge blocks that differ in it
// (27 Time and double, 6 enum and uint32_t, 4 bool members, 4 bytes of tail padding).
static_assert(sizeof(RttProbe::Params) == 27 * 8 + 6 * 4 + 4 + 4,
              "RttProbe::Params changed: update ForEachParameter");
} // namespace

bool
RttProbe::Params::operator==(const Params& o) const
{
    bool same = true;
    ForEachParameter([&](auto field) { same = same && this->*field == o.*field; });
    return same;
}

RttProbe::Params&
RttProbe::MutableParams()
{
    return CopyOnWrite(m_params);
}

std::shared_ptr<RttProbe::Params>
RttProbe::Intern(const Params& p)
{
    return InternParams(p);
}

} // namespace ns3
